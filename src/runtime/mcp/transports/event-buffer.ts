/**
 * The events of an SSE body, read in time linear in the bytes: each chunk is scanned once for
 * the blank line that ends an event (two line breaks in a row: CRLF, LF or CR), and an event's
 * pieces are kept in a list and joined once, when it ends. (Appending each chunk's text to the
 * text held back and searching it again made V8 copy the whole held text per chunk: an 8 MB
 * event cost about 4 s of CPU.)
 */

const LF = 0x0a;
const CR = 0x0d;

/**
 * Where the scan is: inside a line; just after a line break (LF, or CR LF); just after a CR
 * that ended a line (a LF next joins it); just after a CR that ended a blank line (the event
 * ends there, or after the LF that follows).
 */
type ScanState = 'line' | 'break' | 'cr' | 'blank-cr';

/**
 * Splits an SSE byte stream into whole events, each with the blank line that ends it.
 *
 * @example
 * ```ts
 * const events = new EventBuffer();
 * events.push(new TextEncoder().encode('data: 1\n\ndata: 2')); // [the bytes of 'data: 1\n\n']
 * events.rest(); // the bytes of 'data: 2'
 * ```
 */
export class EventBuffer {
  #pieces: Uint8Array[] = [];
  #held = 0;
  #state: ScanState = 'line';

  /** Bytes of the event not yet ended. */
  get held(): number {
    return this.#held;
  }

  /** The events `chunk` ends, in order; the rest of it is held. */
  push(chunk: Uint8Array): Uint8Array[] {
    const events: Uint8Array[] = [];
    let start = 0;
    const end = (at: number): void => {
      events.push(this.#join(chunk.subarray(start, at)));
      start = at;
    };
    const breaks = new Breaks(chunk);
    let at = 0;
    while (at < chunk.length) {
      const byte = chunk[at]!;
      if (byte !== LF && byte !== CR) {
        if (this.#state === 'blank-cr') end(at);
        this.#state = 'line';
        at = breaks.next(at + 1);
        continue;
      }
      if (byte === LF) {
        if (this.#state === 'break' || this.#state === 'blank-cr') {
          end(at + 1);
          this.#state = 'line';
        } else this.#state = 'break';
      } else if (this.#state === 'blank-cr') {
        end(at);
        this.#state = 'cr';
      } else this.#state = this.#state === 'line' ? 'cr' : 'blank-cr';
      at += 1;
    }
    if (start < chunk.length) {
      this.#pieces.push(chunk.subarray(start));
      this.#held += chunk.length - start;
    }
    return events;
  }

  /** What is held (an event the stream ended without its blank line), or undefined. */
  rest(): Uint8Array | undefined {
    return this.#held === 0 ? undefined : this.#join(new Uint8Array(0));
  }

  /** The held pieces and `last`, joined; nothing is held after. */
  #join(last: Uint8Array): Uint8Array {
    const joined =
      this.#held === 0 ? last : Buffer.concat([...this.#pieces, last], this.#held + last.length);
    this.#pieces = [];
    this.#held = 0;
    return joined;
  }
}

/**
 * The line breaks of a text or bytes, found left to right: the next CR and the next LF are each
 * searched for again only once passed, so a scan costs linear time however the breaks mix.
 */
class Breaks {
  #lf = -2;
  #cr = -2;
  readonly #length: number;
  readonly #find: (lf: boolean, from: number) => number;

  constructor(text: Uint8Array | string) {
    this.#length = text.length;
    this.#find =
      typeof text === 'string'
        ? (lf, from) => text.indexOf(lf ? '\n' : '\r', from)
        : (lf, from) => text.indexOf(lf ? LF : CR, from);
  }

  /** The index of the first CR or LF at or after `from` (non-decreasing), or the length. */
  next(from: number): number {
    if (this.#lf !== -1 && this.#lf < from) this.#lf = this.#find(true, from);
    if (this.#cr !== -1 && this.#cr < from) this.#cr = this.#find(false, from);
    if (this.#lf === -1) return this.#cr === -1 ? this.#length : this.#cr;
    return this.#cr === -1 || this.#lf < this.#cr ? this.#lf : this.#cr;
  }
}

/**
 * The data of an SSE event's text: its `data:` lines' values, joined by newlines (one space
 * after the colon dropped), in one pass.
 *
 * @example
 * ```ts
 * eventData('event: message\ndata: {"a":\ndata: 1}\n\n'); // '{"a":\n1}'
 * ```
 */
export function eventData(event: string): string {
  const values: string[] = [];
  const breaks = new Breaks(event);
  let start = 0;
  while (start < event.length) {
    const end = breaks.next(start);
    if (event.startsWith('data:', start)) {
      values.push(event.slice(start + (event.startsWith('data: ', start) ? 6 : 5), end));
    }
    start = end + (event[end] === '\r' && event[end + 1] === '\n' ? 2 : 1);
  }
  return values.join('\n');
}
