/**
 * Limits on the requests a server makes of this client (sampling, elicitation, roots, pings):
 * how many a server may send per rolling minute, how many may wait for their answers at once,
 * and the JSON-RPC error code of a request refused over either.
 */
import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/client';
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
 * A transport whose server may have at most `maxPending` requests waiting for this client's
 * answer at once: the transport the client connects to, in front of the one that reaches the
 * server. It shows what the client's SDK reads of the transport beneath (`stderr` and `pid` of a
 * stdio one, the session id, whether requests have their own stream) and passes the rest on.
 */
class PendingRequestLimit implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];
  /** Waiting requests by id (a count: a server may reuse an id). */
  readonly #waiting = new Map<RequestId, number>();
  #count = 0;

  constructor(
    readonly inner: Transport,
    readonly serverId: string,
    readonly maxPending: number,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.#receive(message, extra);
    // A stdio transport's `stderr` and `pid` (how the SDK tells stdio from HTTP), only where
    // the transport beneath has them.
    for (const key of ['stderr', 'pid'] as const) {
      if (!(key in inner)) continue;
      Object.defineProperty(this, key, {
        get: () => (inner as unknown as Record<typeof key, unknown>)[key],
        enumerable: true,
      });
    }
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean {
    return this.inner.hasPerRequestStream === true;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  #release(id: RequestId): void {
    const n = this.#waiting.get(id);
    if (n === undefined) return;
    if (n > 1) this.#waiting.set(id, n - 1);
    else this.#waiting.delete(id);
    this.#count -= 1;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const id = answeredId(message);
    if (id === undefined || !this.#waiting.has(id)) return this.inner.send(message, options);
    try {
      await this.inner.send(message, options);
    } finally {
      this.#release(id);
    }
  }

  #receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const id = requestId(message);
    if (id !== undefined) {
      if (this.#count >= this.maxPending) {
        const refusal: JSONRPCMessage = {
          jsonrpc: '2.0',
          id,
          error: {
            code: OVER_LIMIT,
            message: `too many requests waiting for an answer: at most ${this.maxPending} from server "${this.serverId}"`,
            data: { limit: 'maxPendingServerRequests' },
          },
        };
        this.inner.send(refusal).catch(() => undefined);
        return;
      }
      this.#count += 1;
      this.#waiting.set(id, (this.#waiting.get(id) ?? 0) + 1);
    } else {
      const cancelled = cancelledId(message);
      if (cancelled !== undefined) this.#release(cancelled);
    }
    this.onmessage?.(message, extra);
  }
}

/**
 * Caps the requests the server behind `transport` may have waiting for an answer at once
 * (sampling, elicitation, roots, pings: every request a server makes of a client). A request is
 * waiting from its arrival until its answer is written out (`transport.send` resolved: over
 * stdio, once the pipe took it), or until the server cancels it. Past `maxPending`, a request
 * is answered at once with JSON-RPC error {@link OVER_LIMIT} and never reaches its handler, so
 * a server that floods requests while it stops reading costs the client at most `maxPending`
 * answers held, not one per request. Returns the transport to connect the client to (before
 * it connects: the cap holds from the first message, the version probe's included).
 *
 * @example
 * ```ts
 * await client.connect(limitPendingRequests(transport, 'docs', 64));
 * ```
 */
export function limitPendingRequests(
  transport: Transport,
  serverId: string,
  maxPending: number,
): Transport {
  return new PendingRequestLimit(transport, serverId, maxPending);
}
