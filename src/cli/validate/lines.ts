/**
 * Splits a byte stream into lines without ever holding more than one line (capped) in memory:
 * the reader behind `validate`'s constant-memory JSONL checking.
 */

/** One complete line, without its `\n` (and without a trailing `\r`). */
export interface TextLine {
  readonly kind: 'line';
  /** 1-based line number. */
  readonly number: number;
  readonly text: string;
  /** The line's length in bytes, including its line break. */
  readonly bytes: number;
}

/** A line longer than the cap: its bytes were skipped, not kept. */
interface LongLine {
  readonly kind: 'too-long';
  readonly number: number;
}

/** What {@link readLines} yields. */
export type LineEvent = TextLine | LongLine;

/** The default cap on one line (and on one whole JSON document): 64 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;

function decode(pieces: Buffer[], total: number, first: boolean): string {
  const bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, total);
  let text = bytes.toString('utf8');
  if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.endsWith('\r')) text = text.slice(0, -1);
  return text;
}

/**
 * The lines of `source`, in order. A line longer than `maxLineBytes` yields one `too-long`
 * event; its bytes are skipped up to the next line break, so memory stays bounded by the cap
 * however long the line is. A final line without a line break is yielded too.
 *
 * @example
 * ```ts
 * for await (const line of readLines(createReadStream('big.jsonl'), 64 * 2 ** 20)) { ... }
 * ```
 */
export async function* readLines(
  source: AsyncIterable<Buffer | string>,
  maxLineBytes: number,
): AsyncGenerator<LineEvent> {
  let pieces: Buffer[] = [];
  let pending = 0;
  let skipping = false;
  let number = 1;
  for await (const raw of source) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    let from = 0;
    while (from <= chunk.length) {
      const at = chunk.indexOf(NEWLINE, from);
      const end = at === -1 ? chunk.length : at;
      const length = end - from;
      if (!skipping && pending + length > maxLineBytes) {
        yield { kind: 'too-long', number };
        skipping = true;
        pieces = [];
        pending = 0;
      }
      if (!skipping && length > 0) {
        pieces.push(chunk.subarray(from, end));
        pending += length;
      }
      if (at === -1) break;
      if (!skipping) {
        yield {
          kind: 'line',
          number,
          text: decode(pieces, pending, number === 1),
          bytes: pending + 1,
        };
      }
      skipping = false;
      pieces = [];
      pending = 0;
      number++;
      from = at + 1;
    }
  }
  if (!skipping && pending > 0) {
    yield { kind: 'line', number, text: decode(pieces, pending, number === 1), bytes: pending };
  }
}
