/**
 * The lines of a stdio stream (newline-delimited JSON-RPC), read in time linear in the bytes:
 * the pieces of a line are kept in a list and joined once, when its newline arrives, and each
 * piece is searched for a newline once. (The SDK's `ReadBuffer`, in 1.x and 2.x, copies
 * everything buffered onto each new piece: a 32 MB line in 64 KB pieces cost 8-10 s of CPU.)
 */
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { standIn } from '../result-guard.js';

const LF = 0x0a;
const CR = 0x0d;

/** The cap on one line when none is given, as the SDK's: 10 MiB. */
const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * Splits a byte stream into lines, each at most `maxLineBytes` long (without its newline; a CR
 * before the newline is dropped too). A longer line throws, and what was held is dropped.
 *
 * @example
 * ```ts
 * const lines = new LineBuffer(1024 * 1024);
 * lines.append(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc"')); // one line
 * ```
 */
export class LineBuffer {
  /** The pieces of the line not yet ended, and their total length. */
  #pieces: Buffer[] = [];
  #held = 0;

  constructor(readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {}

  /** The lines `chunk` completes, in order; the rest of it is held for the next chunk. */
  append(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let start = 0;
    for (let end = chunk.indexOf(LF); end !== -1; end = chunk.indexOf(LF, start)) {
      const length = this.#held + end - start;
      this.#refuseOver(length);
      const piece = chunk.subarray(start, end);
      const line = this.#held === 0 ? piece : Buffer.concat([...this.#pieces, piece], length);
      this.#pieces = [];
      this.#held = 0;
      lines.push(line.at(-1) === CR ? line.subarray(0, -1) : line);
      start = end + 1;
    }
    if (start < chunk.length) {
      this.#refuseOver(this.#held + chunk.length - start);
      this.#pieces.push(chunk.subarray(start));
      this.#held += chunk.length - start;
    }
    return lines;
  }

  /** Drops what is held. */
  clear(): void {
    this.#pieces = [];
    this.#held = 0;
  }

  #refuseOver(length: number): void {
    if (length <= this.maxLineBytes) return;
    this.clear();
    throw new Error(
      `a line from the server exceeded maximum size of ${this.maxLineBytes} bytes (maxMessageBytes)`,
    );
  }
}

/**
 * The JSON-RPC message of one line. A response whose result the SDK would drop (see
 * `guardResults`) becomes its stand-in error, so the request it answers ends at once; a line
 * that is not JSON-RPC throws (the SDK's parse error).
 *
 * @example
 * ```ts
 * readMessageLine(Buffer.from('{"jsonrpc":"2.0","id":1,"result":[]}')); // {jsonrpc, id: 1, error: {...}}
 * ```
 */
export function readMessageLine(line: Buffer): JSONRPCMessage {
  const parsed: unknown = JSON.parse(line.toString('utf8'));
  const replaced = standIn(parsed);
  return JSONRPCMessageSchema.parse(replaced);
}

/**
 * The SDK's `ReadBuffer` interface over a {@link LineBuffer}, for the SDK's own stdio transport
 * (Windows), whose private `_readBuffer` it replaces: messages read one at a time, linear.
 *
 * @example
 * ```ts
 * useLineBuffer(new StdioClientTransport(server), 10 * 1024 * 1024);
 * ```
 */
export function useLineBuffer(transport: object, maxLineBytes?: number): void {
  const lines = new LineBuffer(maxLineBytes);
  let ready: Buffer[] = [];
  let next = 0;
  const buffer = {
    append(chunk: Buffer): void {
      const added = lines.append(chunk);
      ready = [...ready.slice(next), ...added];
      next = 0;
    },
    readMessage(): JSONRPCMessage | null {
      const line = ready[next];
      if (line === undefined) return null;
      next += 1;
      return readMessageLine(line);
    },
    clear(): void {
      lines.clear();
      ready = [];
      next = 0;
    },
  };
  if ('_readBuffer' in transport) Object.assign(transport, { _readBuffer: buffer });
}
