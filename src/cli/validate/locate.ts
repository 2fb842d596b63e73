/**
 * Finds where a JSON pointer's value starts in a JSON text, so errors in a pretty-printed file
 * name the line to look at. Used only for payloads already found invalid.
 */
import { decodePointer } from '../../json/pointer.js';

/** A 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/** The line and column of a character offset in `text`. */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

class Scanner {
  i = 0;
  constructor(readonly text: string) {}

  ws(): void {
    while (this.i < this.text.length && ' \t\r\n'.includes(this.text[this.i]!)) this.i++;
  }

  string(): string {
    const start = this.i;
    this.i++;
    while (this.i < this.text.length && this.text[this.i] !== '"') {
      this.i += this.text[this.i] === '\\' ? 2 : 1;
    }
    this.i++;
    return JSON.parse(this.text.slice(start, this.i)) as string;
  }

  skip(): void {
    this.ws();
    const c = this.text[this.i];
    if (c === '"') {
      this.string();
      return;
    }
    if (c === '{' || c === '[') {
      let depth = 0;
      while (this.i < this.text.length) {
        const d = this.text[this.i]!;
        if (d === '"') {
          this.string();
          continue;
        }
        if (d === '{' || d === '[') depth++;
        if (d === '}' || d === ']') depth--;
        this.i++;
        if (depth === 0) return;
      }
      return;
    }
    while (this.i < this.text.length && !',]} \t\r\n'.includes(this.text[this.i]!)) this.i++;
  }

  /** Offset of the value at `tokens` below the value starting here; the deepest one found. */
  find(tokens: string[]): number {
    this.ws();
    const here = this.i;
    const [token, ...rest] = tokens;
    if (token === undefined) return here;
    const c = this.text[this.i];
    if (c === '{') {
      this.i++;
      for (;;) {
        this.ws();
        if (this.text[this.i] !== '"') return here;
        const key = this.string();
        this.ws();
        this.i++; // ':'
        if (key === token) return this.find(rest);
        this.skip();
        this.ws();
        if (this.text[this.i] !== ',') return here;
        this.i++;
      }
    }
    if (c === '[') {
      const index = /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : -1;
      this.i++;
      for (let n = 0; ; n++) {
        this.ws();
        if (this.text[this.i] === ']') return here;
        if (n === index) return this.find(rest);
        this.skip();
        this.ws();
        if (this.text[this.i] !== ',') return here;
        this.i++;
      }
    }
    return here;
  }
}

/**
 * Where the value at `pointer` starts in `text` (a valid JSON text), or where its deepest
 * existing ancestor starts when the pointer names something absent (a missing required field
 * points at its object).
 *
 * @example
 * ```ts
 * locatePointer('{\n  "a": [1,\n 2]\n}', '/a/1'); // {line: 3, column: 2}
 * ```
 */
export function locatePointer(text: string, pointer: string): Position {
  let offset = 0;
  try {
    offset = new Scanner(text).find(decodePointer(pointer) ?? []);
  } catch {
    offset = 0;
  }
  return positionAt(text, offset);
}

/** Where one element of a JSON array starts: its character offset, line and column. */
export interface ElementStart extends Position {
  offset: number;
}

/**
 * Where each element of the array `text` holds (a valid JSON text whose root is an array)
 * starts, in one pass: what lets findings in a large array of payloads name their lines without
 * scanning the text again for each.
 *
 * @example
 * ```ts
 * arrayElementStarts('[\n  {"a": 1},\n  2\n]'); // [{offset: 4, line: 2, column: 3}, {offset: 16, line: 3, column: 3}]
 * ```
 */
export function arrayElementStarts(text: string): ElementStart[] {
  const scanner = new Scanner(text);
  const starts: ElementStart[] = [];
  let line = 1;
  let lineStart = 0;
  let counted = 0;
  const at = (offset: number): ElementStart => {
    for (
      let i = text.indexOf('\n', counted);
      i !== -1 && i < offset;
      i = text.indexOf('\n', i + 1)
    ) {
      line++;
      lineStart = i + 1;
    }
    counted = offset;
    return { offset, line, column: offset - lineStart + 1 };
  };
  scanner.ws();
  if (text[scanner.i] !== '[') return starts;
  scanner.i++;
  for (;;) {
    scanner.ws();
    if (scanner.i >= text.length || text[scanner.i] === ']') return starts;
    starts.push(at(scanner.i));
    scanner.skip();
    scanner.ws();
    if (text[scanner.i] !== ',') return starts;
    scanner.i++;
  }
}

/** The character offset a `JSON.parse` error names (`... at position 12`), if it names one. */
export function parseErrorOffset(error: unknown): number | undefined {
  const match = /at position (\d+)/.exec(error instanceof Error ? error.message : '');
  return match === null ? undefined : Number(match[1]);
}
