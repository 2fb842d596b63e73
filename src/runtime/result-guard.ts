/**
 * A JSON-RPC result must be an object; the SDK drops a response whose result is not (an array, a
 * string, null) as an "unknown message", and the request then waits for its timeout. Guarded
 * clients turn such a response into a JSON-RPC error for the same request at once, which
 * {@link nonObjectResult} recognises, so the call ends as `INVALID_RESULT` within milliseconds.
 */

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '../json/object.js';

/** The `data` of every stand-in error: identity, not a code a server could also send. */
const standIns = new WeakSet<object>();
const guarded = new WeakSet<Transport>();

/** JSON-RPC "internal error": what a stand-in error says it is, to anyone else listening. */
const INTERNAL_ERROR = -32603;

/** What a value is, in words, for the error message. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** The message itself, or, for a response whose result is not an object, the stand-in error. */
export function standIn(message: unknown): unknown {
  if (!isJsonObject(message) || !Object.hasOwn(message, 'result') || 'method' in message)
    return message;
  const { id, result } = message;
  if (isJsonObject(result) || (typeof id !== 'string' && typeof id !== 'number')) return message;
  const data = { resultType: describe(result) };
  standIns.add(data);
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: INTERNAL_ERROR,
      message: `the server's result is ${describe(result)}, not an object`,
      data,
    },
  };
}

/**
 * Makes `client` answer a response whose result is not an object as an error at once (idempotent;
 * a client reconnected on a new transport is guarded again by the next call). Call it after
 * `client.connect`: it wraps the handler the SDK installed on the transport.
 *
 * @example
 * ```ts
 * await client.connect(transport);
 * guardResults(client);
 * ```
 */
export function guardResults(client: Client): void {
  const transport = client.transport;
  if (transport === undefined || guarded.has(transport)) return;
  guarded.add(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => deliver?.(standIn(message) as typeof message, extra);
}

/**
 * What the result was, when a request failed because its result was not an object (see
 * {@link guardResults}); `undefined` for any other failure.
 *
 * @example
 * ```ts
 * nonObjectResult(error); // 'an array'
 * ```
 */
export function nonObjectResult(error: unknown): string | undefined {
  if (!(error instanceof McpError) || !isJsonObject(error.data) || !standIns.has(error.data))
    return undefined;
  return String(error.data.resultType);
}

/** The stdio transport's line buffer, as the pinned SDK (1.32) has it. */
/** The SDK's `ReadBuffer` as the guard sees it. */
interface LineBuffer {
  _buffer?: Buffer;
  readMessage(): unknown;
}

function parsed(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * Over stdio the SDK's line buffer refuses such a response before any handler sees it (its
 * parser throws, and the line is lost): this lets the stand-in error through instead. Applied
 * to the SDK's `ReadBuffer` (whose pending bytes are its `_buffer`), as our own stdio
 * transport and the SDK's both use it.
 *
 * @example
 * ```ts
 * const buffer = new ReadBuffer();
 * guardLineBuffer(buffer);
 * ```
 */
export function guardLineBuffer(buffer: LineBuffer): void {
  const read = buffer.readMessage.bind(buffer);
  buffer.readMessage = () => {
    // The bytes before the read: reading only moves `_buffer` past the line, so the refused
    // line is still there to decode, and a line read without a throw is never decoded twice.
    const pending = buffer._buffer;
    try {
      return read();
    } catch (error) {
      const end = pending === undefined ? -1 : pending.indexOf(10);
      const line = end === -1 ? undefined : pending?.toString('utf8', 0, end);
      const message = line === undefined ? undefined : parsed(line);
      const replaced = message === undefined ? message : standIn(message);
      if (replaced === message) throw error;
      return replaced;
    }
  };
}

/** {@link guardLineBuffer} on the SDK's own stdio transport (where it holds it privately). */
export function guardStdioResults(transport: StdioClientTransport): void {
  const buffer = (transport as unknown as { _readBuffer?: LineBuffer })._readBuffer;
  if (buffer !== undefined && typeof buffer.readMessage === 'function') guardLineBuffer(buffer);
}
