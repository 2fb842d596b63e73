/**
 * Values quoted in configuration messages, bounded: a message shows at most
 * {@link MAX_QUOTED_CHARS} characters of what it quotes, then an ellipsis and the whole value's
 * size, however large or deep the value is (a 5 MB string or a value nested 100,000 levels).
 */

/** Characters of a value or a name a message quotes, at most. */
const MAX_QUOTED_CHARS = 200;

/** One array or object being written: its items, or its record and keys, and the next index. */
interface Open {
  readonly close: ']' | '}';
  readonly items: readonly unknown[] | Record<string, unknown>;
  readonly keys: readonly string[] | undefined;
  at: number;
}

/** The first characters of `text`, never ending inside a surrogate pair. */
function head(text: string, length: number): string {
  return text.slice(0, length).toWellFormed();
}

/** The count of `what` in words: `1 item`, `5,000,000 characters`. */
function sizeOf(count: number, what: string): string {
  return `${count.toLocaleString('en-US')} ${what}${count === 1 ? '' : 's'}`;
}

/** What a cut `value` held in all: its characters, items or keys. */
function sizeNote(value: unknown): string {
  if (typeof value === 'string') return sizeOf(value.length, 'character');
  if (Array.isArray(value)) return sizeOf(value.length, 'item');
  if (typeof value === 'object' && value !== null) return sizeOf(Object.keys(value).length, 'key');
  return sizeOf(String(value).length, 'character');
}

/** A value that is neither an array nor an object, as JSON writes it (strings cut). */
function scalarText(value: unknown, room: number): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, room + 1));
  return String(value);
}

/**
 * `value` as JSON text (`JSON.stringify`'s, without spaces) for a message: whole when that
 * fits in {@link MAX_QUOTED_CHARS} characters, else its first {@link MAX_QUOTED_CHARS}
 * characters, `…` and the value's size (`"xxxx… (5,000,000 characters)`, `[[[[… (1 item)`).
 * Iterative and stopping at the bound: no depth, size or cycle makes it slow or overflow the
 * stack.
 *
 * @example
 * ```ts
 * quote(42); // '42'
 * quote({ a: [1, 'b'] }); // '{"a":[1,"b"]}'
 * quote('x'.repeat(5_000_000)); // '"xxx…' (200 characters) + '… (5,000,000 characters)'
 * ```
 */
export function quote(value: unknown): string {
  let text = '';
  const open: Open[] = [];
  let next: { value: unknown } | undefined = { value };
  while (text.length <= MAX_QUOTED_CHARS) {
    if (next !== undefined) {
      const current = next.value;
      next = undefined;
      if (typeof current !== 'object' || current === null) {
        text += scalarText(current, MAX_QUOTED_CHARS - text.length);
      } else if (Array.isArray(current)) {
        text += '[';
        open.push({ close: ']', items: current, keys: undefined, at: 0 });
      } else {
        text += '{';
        const record = current as Record<string, unknown>;
        open.push({ close: '}', items: record, keys: Object.keys(record), at: 0 });
      }
      continue;
    }
    const top = open.at(-1);
    if (top === undefined) return text;
    const count = top.keys === undefined ? (top.items as unknown[]).length : top.keys.length;
    if (top.at === count) {
      text += top.close;
      open.pop();
      continue;
    }
    if (top.at > 0) text += ',';
    if (top.keys === undefined) next = { value: (top.items as unknown[])[top.at] };
    else {
      const key = top.keys[top.at]!;
      text += `${JSON.stringify(key.slice(0, MAX_QUOTED_CHARS + 1))}:`;
      next = { value: (top.items as Record<string, unknown>)[key] };
    }
    top.at += 1;
  }
  return `${head(text, MAX_QUOTED_CHARS)}… (${sizeNote(value)})`;
}

/**
 * `text` (a name, a pointer) for a message: whole when it fits in {@link MAX_QUOTED_CHARS}
 * characters, else its first characters, `…` and its length.
 *
 * @example
 * ```ts
 * clip('/mcpServers/fs'); // '/mcpServers/fs'
 * ```
 */
export function clip(text: string): string {
  return text.length <= MAX_QUOTED_CHARS
    ? text
    : `${head(text, MAX_QUOTED_CHARS)}… (${sizeOf(text.length, 'character')})`;
}
