/**
 * The fenced code blocks of a Markdown text, verbatim, each with the line it starts on: what the
 * type test compiles and the install matrix compiles and runs (the README's ```ts and ```sh
 * blocks), read one way for both.
 */

/** One fenced block: its language, its text (without the fences) and where that text starts. */
export interface FencedBlock {
  /** The fence's info string, e.g. `ts`, `sh`. */
  readonly language: string;
  readonly text: string;
  /** The 1-based line of the text's first line in the Markdown. */
  readonly line: number;
}

/**
 * Every block fenced by ```LANGUAGE (one of `languages`) and a closing line of exactly ```,
 * in order. A block left open runs to the end of the text.
 */
export function fencedBlocks(markdown: string, languages: readonly string[]): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const language = /^```(\S+)\s*$/.exec(lines[index] ?? '')?.[1];
    if (language === undefined || !languages.includes(language)) continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && lines[end] !== '```') end++;
    blocks.push({ language, text: lines.slice(start, end).join('\n'), line: start + 1 });
    index = end;
  }
  return blocks;
}

/**
 * The lines `[first, last]` (1-based) of the section a `## TITLE` heading opens, up to the next
 * heading of its level or above; undefined when the text has no such heading.
 */
export function sectionLines(
  markdown: string,
  title: string,
): { first: number; last: number } | undefined {
  const lines = markdown.split('\n');
  let inCode = false;
  let first: number | undefined;
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index] ?? '';
    if (text.startsWith('```')) inCode = !inCode;
    if (inCode) continue;
    if (first === undefined) {
      if (text === `## ${title}`) first = index + 1;
    } else if (/^#{1,2} /.test(text)) {
      return { first, last: index };
    }
  }
  return first === undefined ? undefined : { first, last: lines.length };
}
