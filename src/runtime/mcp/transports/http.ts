/**
 * Streamable HTTP with bounded downloads: every response body is counted as it arrives and cut
 * off past `maxMessageBytes` (a JSON body as a whole, an SSE stream per event), and a request's
 * download is aborted as soon as the request is cancelled (a timeout or the caller's signal
 * sends `notifications/cancelled`), so a server cannot keep a call's body flowing after its
 * answer, nor grow the client without limit with one endless event.
 */
import {
  type FetchLike,
  type JSONRPCMessage,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { isJsonObject } from '../../../json/object.js';
import { authorizingFetch } from '../auth/authorize.js';
import type { ServerAuthProvider } from '../auth/provider.js';
import { standIn } from '../result-guard.js';
import { EventBuffer, eventData } from './event-buffer.js';

type RequestId = string | number;

/**
 * The JSON-RPC code a cut-off download answers its requests with: "connection closed", as
 * both SDKs' clients have it (`-32000`), so the call reads as a transport failure.
 */
const CONNECTION_CLOSED = -32_000;

/** Statuses whose responses carry no body (and cannot be rebuilt with one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Redirects keep their own Response: the SDK reads their `url`, `type` and `location`. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The messages of a POST body (one, or a batch), or none when it is not JSON-RPC text. */
function messagesOf(body: unknown): Record<string, unknown>[] {
  if (typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).filter(isJsonObject);
}

const isRequestId = (id: unknown): id is RequestId =>
  typeof id === 'string' || typeof id === 'number';

/** `text` parsed as JSON, or `undefined` when it is not JSON. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Takes the responses whose result is not an object out of a JSON body (one message or a
 * batch), handing each one's stand-in error to `deliver`: the SDK's parser would drop them
 * without a word, and their calls would wait for their timeout. The body itself when it holds
 * none (or is not JSON).
 */
function withoutNonObjectResults(body: string, deliver: (message: JSONRPCMessage) => void) {
  const parsed = parsedJson(body);
  if (parsed === undefined) return body;
  const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  const kept = messages.filter((message) => {
    const replaced = standIn(message);
    if (replaced === message) return true;
    deliver(replaced as JSONRPCMessage);
    return false;
  });
  if (kept.length === messages.length) return body;
  return JSON.stringify(Array.isArray(parsed) || kept.length !== 1 ? kept : kept[0]);
}

/**
 * The same for one SSE event (its text up to the blank line): an event whose data is such a
 * response becomes a comment line, which SSE readers skip.
 */
function eventWithoutNonObjectResult(event: string, deliver: (message: JSONRPCMessage) => void) {
  const data = eventData(event);
  if (data === '') return event;
  const message = parsedJson(data);
  const replaced = message === undefined ? message : standIn(message);
  if (replaced === message) return event;
  deliver(replaced as JSONRPCMessage);
  return ': a result that is not an object, answered as an error\n\n';
}

/**
 * A fetch for the SDK's HTTP transports (Streamable HTTP and the legacy SSE one) that bounds
 * what it downloads, and tells `onTooLarge` which requests lost their answer when it cuts a
 * body off. A response whose result is not an object is taken out of the body and handed to
 * `onStandIn` as an error answer for its request.
 *
 * @example
 * ```ts
 * const bounded = new BoundedFetch(10 * 1024 * 1024, fetch);
 * const transport = new SSEClientTransport(url, { fetch: bounded.fetch });
 * ```
 */
export class BoundedFetch {
  readonly #downloads = new Map<RequestId, AbortController>();
  onTooLarge: (ids: readonly RequestId[], error: Error) => void = () => undefined;
  onStandIn: (message: JSONRPCMessage) => void = () => undefined;

  constructor(
    readonly maxMessageBytes: number,
    readonly inner: FetchLike,
  ) {}

  readonly fetch: FetchLike = async (url, init) => {
    const messages = messagesOf(init?.body);
    for (const message of messages) {
      if (message.method !== 'notifications/cancelled' || !isJsonObject(message.params)) continue;
      const { requestId } = message.params;
      if (isRequestId(requestId)) this.#downloads.get(requestId)?.abort();
    }
    const ids = messages.flatMap((m) =>
      typeof m.method === 'string' && isRequestId(m.id) ? [m.id] : [],
    );
    const controller = new AbortController();
    const signal =
      init?.signal === undefined || init.signal === null
        ? controller.signal
        : AbortSignal.any([init.signal, controller.signal]);
    for (const id of ids) this.#downloads.set(id, controller);
    const forget = (): void => {
      for (const id of ids) if (this.#downloads.get(id) === controller) this.#downloads.delete(id);
    };
    let response: Response;
    try {
      response = await this.inner(url, { ...init, signal });
    } catch (error) {
      forget();
      throw error;
    }
    if (
      response.body === null ||
      NULL_BODY_STATUSES.has(response.status) ||
      REDIRECT_STATUSES.has(response.status)
    ) {
      forget();
      return response;
    }
    const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const max = this.maxMessageBytes;
    const tooLarge = (): Error => {
      const what = sse ? 'an event of the SSE response' : 'the response';
      const error = new Error(
        `${what} to ${ids.length === 0 ? 'a message' : `request ${ids.join(', ')}`} passed ${max} bytes (maxMessageBytes); the download was stopped`,
      );
      this.onTooLarge(ids, error);
      return error;
    };
    const deliver = (message: JSONRPCMessage): void => this.onStandIn(message);
    // What is held back: a JSON body until it ends, an SSE event until its blank line (both
    // within the cap), so a response of a non-object result can be taken out whole. The pieces
    // are joined once (linear time, however small the chunks).
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    const events = new EventBuffer();
    const body: Uint8Array[] = [];
    let bodyBytes = 0;
    const bounded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, stream) {
          let over: boolean;
          if (sse) {
            const ended = events.push(chunk);
            over = events.held > max || ended.some((event) => event.length > max);
            if (!over) {
              for (const event of ended) {
                const text = eventWithoutNonObjectResult(decoder.decode(event), deliver);
                stream.enqueue(encoder.encode(text));
              }
            }
          } else {
            body.push(chunk);
            bodyBytes += chunk.byteLength;
            over = bodyBytes > max;
          }
          if (over) {
            stream.error(tooLarge());
            forget();
            controller.abort();
          }
        },
        flush(stream) {
          if (sse) {
            const rest = events.rest();
            if (rest !== undefined) {
              stream.enqueue(
                encoder.encode(eventWithoutNonObjectResult(decoder.decode(rest), deliver)),
              );
            }
          } else if (bodyBytes > 0) {
            const text = decoder.decode(Buffer.concat(body, bodyBytes));
            stream.enqueue(encoder.encode(withoutNonObjectResults(text, deliver)));
          }
          forget();
        },
      }),
      { signal },
    );
    return new Response(bounded, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** How an HTTP transport (Streamable HTTP or SSE) reaches its server. */
export interface BoundedHttpOptions {
  /** The server's id, named in UNAUTHORIZED errors. */
  serverId: string;
  headers?: Record<string, string>;
  maxMessageBytes: number;
  /** How to authorize when the server answers 401 or 403 (none: UNAUTHORIZED at once). */
  authProvider?: ServerAuthProvider | undefined;
}

/**
 * A {@link BoundedFetch} over `authorizingFetch`: bearer tokens sent, 401 and 403 answered
 * through the provider (the rest UNAUTHORIZED), every body bounded.
 *
 * @example
 * ```ts
 * const bounded = authorizedBoundedFetch(url, { serverId: 'docs', maxMessageBytes: 1 << 20 });
 * ```
 */
export function authorizedBoundedFetch(url: URL, options: BoundedHttpOptions): BoundedFetch {
  const authorized = authorizingFetch(fetch, {
    serverId: options.serverId,
    serverUrl: url,
    provider: options.authProvider,
  });
  return new BoundedFetch(options.maxMessageBytes, authorized);
}

/**
 * The v2 SDK's Streamable HTTP client transport (`@modelcontextprotocol/client`: it sends
 * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` as the negotiated revision
 * asks) over {@link BoundedFetch}, authorized by
 * `authorizingFetch` (bearer tokens, 401 and 403 answered through the provider, the rest
 * UNAUTHORIZED). When a response is cut off, the requests it was to answer are answered at once
 * with a connection-closed error (and the reason is reported through `onerror`), so no call
 * waits for its timeout.
 */
export class BoundedHttpTransport extends StreamableHTTPClientTransport {
  constructor(url: URL, options: BoundedHttpOptions) {
    const bounded = authorizedBoundedFetch(url, options);
    super(url, {
      fetch: bounded.fetch,
      ...(options.headers === undefined ? {} : { requestInit: { headers: options.headers } }),
    });
    bounded.onStandIn = (message) => this.onmessage?.(message);
    bounded.onTooLarge = (ids, error) => {
      this.onerror?.(error);
      for (const id of ids) {
        const answer: JSONRPCMessage = {
          jsonrpc: '2.0',
          id,
          error: { code: CONNECTION_CLOSED, message: error.message },
        };
        this.onmessage?.(answer);
      }
    };
  }
}
