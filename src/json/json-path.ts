/**
 * The few RFC 9535 JSON paths a streamed function call addresses its arguments with: a root
 * `$`, then member steps (`.name`, `['a b']`, `["a b"]`) and index steps (`[0]`), and, at the
 * end only, the `[]` Vertex AI writes on a value-less entry for an empty container. Every other
 * form of the RFC (wildcards, descendants, slices, filters, several selectors, negative indexes,
 * whitespace) is refused with the reason, never guessed at.
 */

/** A parsed path: its steps (member names and array indexes) and whether it ends in `[]`. */
export interface ArgumentPath {
  readonly steps: readonly (string | number)[];
  /** The path ends in `[]`: the entry names an empty container (array or object) at `steps`. */
  readonly emptyContainer: boolean;
}

/** A path read, or why it is refused. */
export type ArgumentPathRead =
  | { readonly ok: true; readonly path: ArgumentPath }
  | { readonly ok: false; readonly reason: string };

const refuse = (reason: string): ArgumentPathRead => ({ ok: false, reason });

/** RFC 9535 `name-first`: ALPHA, `_`, or any character from U+0080 on. */
const isNameFirst = (char: string): boolean => /^[A-Za-z_]$/u.test(char) || char >= '\u0080';
const isNameChar = (char: string): boolean => isNameFirst(char) || /^[0-9]$/u.test(char);

/** The single-character escapes of RFC 9535 string literals (the quote escapes are added per quote). */
const ESCAPES: Readonly<Record<string, string>> = {
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  '/': '/',
  '\\': '\\',
};

/** A bracketed string literal from `at` (just after its opening quote): its value and where it ends. */
function stringLiteral(
  text: string,
  at: number,
  quote: string,
): { value: string; end: number } | string {
  let value = '';
  let i = at;
  while (i < text.length) {
    const char = text[i]!;
    if (char === quote) return { value, end: i + 1 };
    if (char < ' ') return 'a control character in a quoted member name';
    if (char !== '\\') {
      value += char;
      i++;
      continue;
    }
    const escaped = text[i + 1];
    if (escaped === quote) value += quote;
    else if (escaped !== undefined && Object.hasOwn(ESCAPES, escaped)) value += ESCAPES[escaped];
    else if (escaped === 'u') {
      const hex = text.slice(i + 2, i + 6);
      if (!/^[0-9A-Fa-f]{4}$/u.test(hex)) return 'a \\u escape without four hex digits';
      value += String.fromCharCode(Number.parseInt(hex, 16));
      i += 6;
      continue;
    } else return `the escape "\\${escaped ?? ''}", which RFC 9535 does not have`;
    i += 2;
  }
  return 'a quoted member name that is never closed';
}

/**
 * Reads `text` as one of the argument paths a streamed function call uses, with at most
 * `maxSteps` steps; anything else is refused with the reason.
 *
 * @example
 * ```ts
 * readArgumentPath("$.recipe['ingredients'][0].name", 512);
 * // { ok: true, path: { steps: ['recipe', 'ingredients', 0, 'name'], emptyContainer: false } }
 * readArgumentPath('$..name', 512); // { ok: false, reason: '...' }
 * ```
 */
export function readArgumentPath(text: string, maxSteps: number): ArgumentPathRead {
  if (!text.startsWith('$')) return refuse('a path that does not start at the root "$"');
  const steps: (string | number)[] = [];
  let i = 1;
  while (i < text.length) {
    if (steps.length === maxSteps) return refuse(`a path of more than ${maxSteps} steps`);
    const char = text[i];
    if (char === '.') {
      let end = i + 1;
      if (end >= text.length || !isNameFirst(text[end]!)) {
        return refuse(
          'a "." not followed by a member name (descendants and wildcards are not taken)',
        );
      }
      while (end < text.length && isNameChar(text[end]!)) end++;
      steps.push(text.slice(i + 1, end));
      i = end;
    } else if (char === '[') {
      const next = text[i + 1];
      if (next === ']') {
        if (i + 2 !== text.length) return refuse('a "[]" before the end of the path');
        return { ok: true, path: { steps, emptyContainer: true } };
      }
      if (next === "'" || next === '"') {
        const literal = stringLiteral(text, i + 2, next);
        if (typeof literal === 'string') return refuse(literal);
        if (text[literal.end] !== ']') return refuse('a member selector not closed by "]"');
        steps.push(literal.value);
        i = literal.end + 1;
      } else {
        const index = /^(0|[1-9][0-9]{0,8})\]/u.exec(text.slice(i + 1, i + 12));
        if (index === null) {
          return refuse('a selector other than one member name or one non-negative index');
        }
        steps.push(Number(index[1]));
        i += index[0].length + 1;
      }
    } else return refuse(`"${char}" where a "." or "[" step must start`);
  }
  return { ok: true, path: { steps, emptyContainer: false } };
}
