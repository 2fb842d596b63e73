/**
 * Limits on the requests a server makes of this client (sampling, elicitation, roots, pings):
 * how many a server may send per rolling minute, how many may wait for their answers at once,
 * and the JSON-RPC error code of a request refused over either.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '../../json/object.js';

/** The JSON-RPC error code of a server's request refused over a limit (a server error code of JSON-RPC's range). */
export const OVER_LIMIT = -32_010;

const MINUTE_MS = 60_000;

/**
 * A rolling one-minute window of accepted requests: the returned function takes one slot and
 * says whether there was one (at most `perMinute` times are kept).
 *
 * @example
 * ```ts
 * const take = rateWindow(10);
 * if (!take()) throw new McpError(OVER_LIMIT, 'at most 10 requests per minute');
 * ```
 */
export function rateWindow(perMinute: number): () => boolean {
  const times: number[] = [];
  return () => {
    const now = Date.now();
    while (times.length > 0 && now - times[0]! >= MINUTE_MS) times.shift();
    if (times.length >= perMinute) return false;
    times.push(now);
    return true;
  };
}

/** A request id as JSON-RPC has it. */
type RequestId = string | number;

const limited = new WeakSet<Transport>();

/** The id of a request (`method` and `id`), or undefined for any other message. */
function requestId(message: unknown): RequestId | undefined {
  if (!isJsonObject(message) || typeof message.method !== 'string') return undefined;
  const { id } = message;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** The id a response (`result` or `error`, no `method`) answers, or undefined. */
function answeredId(message: unknown): RequestId | undefined {
  if (!isJsonObject(message) || 'method' in message) return undefined;
  const { id } = message;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** The request a `notifications/cancelled` gives up on, or undefined. */
function cancelledId(message: unknown): RequestId | undefined {
  if (!isJsonObject(message) || message.method !== 'notifications/cancelled') return undefined;
  const id = isJsonObject(message.params) ? message.params.requestId : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * Caps the requests `client`'s server may have waiting for an answer at once (sampling,
 * elicitation, roots, pings: every request a server makes of a client). A request is waiting
 * from its arrival until its answer is written out (`transport.send` resolved: over stdio, once
 * the pipe took it), or until the server cancels it. Past `maxPending`, a request is answered at
 * once with JSON-RPC error {@link OVER_LIMIT} and never reaches its handler, so a server that
 * floods requests while it stops reading costs the client at most `maxPending` answers held,
 * not one per request. Call it right after `client.connect` is called (the SDK attaches its
 * handler to the transport before the handshake) or after it resolves; idempotent.
 *
 * @example
 * ```ts
 * const connecting = client.connect(transport);
 * limitPendingRequests(client, 'docs', 64);
 * await connecting;
 * ```
 */
export function limitPendingRequests(client: Client, serverId: string, maxPending: number): void {
  const transport = client.transport;
  if (transport === undefined || limited.has(transport)) return;
  limited.add(transport);
  /** Waiting requests by id (a count: a server may reuse an id). */
  const waiting = new Map<RequestId, number>();
  let count = 0;
  const release = (id: RequestId): void => {
    const n = waiting.get(id);
    if (n === undefined) return;
    if (n > 1) waiting.set(id, n - 1);
    else waiting.delete(id);
    count -= 1;
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    const id = answeredId(message);
    if (id === undefined || !waiting.has(id)) return send(message, options);
    try {
      await send(message, options);
    } finally {
      release(id);
    }
  };
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = requestId(message);
    if (id !== undefined) {
      if (count >= maxPending) {
        const refusal: JSONRPCMessage = {
          jsonrpc: '2.0',
          id,
          error: {
            code: OVER_LIMIT,
            message: `too many requests waiting for an answer: at most ${maxPending} from server "${serverId}"`,
            data: { limit: 'maxPendingServerRequests' },
          },
        };
        send(refusal).catch(() => undefined);
        return;
      }
      count += 1;
      waiting.set(id, (waiting.get(id) ?? 0) + 1);
    } else {
      const cancelled = cancelledId(message);
      if (cancelled !== undefined) release(cancelled);
    }
    deliver?.(message, extra);
  };
}
