/**
 * The SDK drops a response whose result it cannot parse as a JSON-RPC result (one that is not an
 * object: an array, a string, null; or an object whose `_meta` fails the SDK's result schema) as
 * an "unknown message", and the request then waits for its timeout. Guarded clients turn such a
 * response into a JSON-RPC error for the same request at once, which {@link refusedResult}
 * recognises, so the call ends as `INVALID_RESULT` within milliseconds.
 */

import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '../../json/object.js';
import { appendPointer } from '../../json/pointer.js';
import type { McpClient, McpTransport } from './mcp-client.js';

/** Where a result is malformed, and how. */
export interface ResultRefusal {
  /** JSON pointer into the result (`''`: the result itself). */
  readonly path: string;
  /** What failed: `type` for a result that is not an object, else zod's issue code. */
  readonly keyword: string;
  /** In words, e.g. `an array, not an object`. */
  readonly problem: string;
}

/** The `data` of every stand-in error (the refusal itself): identity, not a code a server could also send. */
const standIns = new WeakSet<object>();
const guarded = new WeakSet<McpTransport>();

/** JSON-RPC "internal error": what a stand-in error says it is, to anyone else listening. */
const INTERNAL_ERROR = -32603;

/** What a value is, in words, for the error message. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** Why the SDK would drop a response carrying `result`, or undefined when it would not. */
function refusal(result: unknown): ResultRefusal | undefined {
  if (!isJsonObject(result)) {
    return { path: '', keyword: 'type', problem: `${describe(result)}, not an object` };
  }
  // Only `_meta` has a shape in the SDK's result schema: a result without one always passes.
  if (!Object.hasOwn(result, '_meta')) return undefined;
  const parsed = ResultSchema.safeParse(result);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const path = (issue?.path ?? ['_meta']).reduce<string>(
    (pointer, key) => appendPointer(pointer, typeof key === 'number' ? key : String(key)),
    '',
  );
  return { path, keyword: issue?.code ?? 'invalid', problem: issue?.message ?? 'is invalid' };
}

/** The message itself, or, for a response whose result the SDK would drop, the stand-in error. */
export function standIn(message: unknown): unknown {
  if (!isJsonObject(message) || !Object.hasOwn(message, 'result') || 'method' in message)
    return message;
  const { id, result } = message;
  if (typeof id !== 'string' && typeof id !== 'number') return message;
  const refused = refusal(result);
  if (refused === undefined) return message;
  standIns.add(refused);
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: INTERNAL_ERROR,
      message:
        refused.path === ''
          ? `the server's result is ${refused.problem}`
          : `the server's result is malformed at ${refused.path}: ${refused.problem}`,
      data: refused,
    },
  };
}

/**
 * Makes `client` answer a response whose result the SDK would drop as an error at once
 * (idempotent; a client reconnected on a new transport is guarded again by the next call), and,
 * on a 2026-07-28 connection, read a result without `resultType` as a complete one (as the
 * revision says; the v2 SDK would refuse it). Call it after `client.connect`: it wraps the
 * handler the SDK installed on the transport.
 *
 * @example
 * ```ts
 * await client.connect(transport);
 * guardResults(client);
 * ```
 */
export function guardResults(client: McpClient): void {
  const transport = client.transport;
  if (transport === undefined || guarded.has(transport)) return;
  guarded.add(transport);
  const receiver = receiverOf(transport);
  const deliver = receiver.onmessage;
  const modern = (client as { getProtocolEra?: () => unknown }).getProtocolEra?.() === 'modern';
  receiver.onmessage = (message, extra) => {
    const checked = standIn(message);
    deliver?.(modern ? completeByDefault(checked) : checked, extra);
  };
}

/**
 * A 2026-07-28 response whose result names no `resultType`, with `resultType: 'complete'`: the
 * revision says a client assumes a complete result then, where the v2 SDK refuses it.
 */
function completeByDefault(message: unknown): unknown {
  if (!isJsonObject(message) || 'method' in message || !isJsonObject(message.result)) {
    return message;
  }
  if (Object.hasOwn(message.result, 'resultType')) return message;
  return { ...message, result: { ...message.result, resultType: 'complete' } };
}

/** The handler a transport delivers its messages to, as either SDK installs it. */
type MessageHandler = (message: unknown, extra?: unknown) => void;

/**
 * A transport seen as the holder of its message handler: each SDK types its messages its own
 * way, and the wrappers here pass every message on as it came (or as its stand-in).
 */
export function receiverOf(transport: McpTransport): { onmessage?: MessageHandler | undefined } {
  return transport as { onmessage?: MessageHandler | undefined };
}

/**
 * Where and how the result was malformed, when a request failed because the SDK would have
 * dropped its response (see {@link guardResults}); `undefined` for any other failure.
 *
 * @example
 * ```ts
 * refusedResult(error); // {path: '', keyword: 'type', problem: 'an array, not an object'}
 * ```
 */
export function refusedResult(error: unknown): ResultRefusal | undefined {
  // Either SDK's JSON-RPC error (v1 `McpError`, v2 `ProtocolError`) carries the stand-in's data.
  const data = error instanceof Error ? (error as { data?: unknown }).data : undefined;
  if (!isJsonObject(data) || !standIns.has(data)) return undefined;
  return data as unknown as ResultRefusal;
}
