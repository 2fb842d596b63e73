/**
 * The legacy HTTP+SSE transport (protocol 2024-11-05) with the same download bounds as
 * Streamable HTTP, and the fallback the MCP specification describes for a URL of unknown kind:
 * POST the `initialize` request as Streamable HTTP; on a 4xx (but 401 and 403) open the SSE
 * stream (GET) and send it there. The `server/discover` probe before it decides nothing.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { authorizedBoundedFetch, type BoundedHttpOptions } from './http.js';
import { httpStatusOf } from './http-status.js';

/** What the SSE transport is given. */
export interface HttpTransportOptions extends BoundedHttpOptions {
  /** How long SSE's `start()` waits for the `endpoint` event; default 30 000 ms. */
  startTimeoutMs?: number;
}

const DEFAULT_START_TIMEOUT_MS = 30_000;

/**
 * Whether a status to the first POST means "not Streamable HTTP: try SSE": any 4xx, as the
 * specification says, but 401 and 403 (credentials: SSE would refuse them too, and the real
 * reason would be lost).
 */
const fallsBack = (status: number): boolean =>
  status >= 400 && status < 500 && status !== 401 && status !== 403;

/**
 * The SDK's SSE client transport over a bounded, authorizing fetch (`authorizedBoundedFetch`): every event of the stream is cut
 * off past `maxMessageBytes`, and then the connection is closed, so the requests waiting on
 * it fail at once (connection closed) instead of waiting for their timeout. A response whose
 * result is not an object reaches the client as an error answer.
 *
 * @example
 * ```ts
 * await client.connect(new BoundedSseTransport(new URL('http://127.0.0.1:3000/sse'), { serverId: 'web', maxMessageBytes: 1 << 20 }));
 * ```
 */
export class BoundedSseTransport extends SSEClientTransport {
  readonly #startTimeoutMs: number;
  /** Ends a `start()` still waiting for the `endpoint` event. */
  #failStart: ((error: Error) => void) | undefined;

  constructor(url: URL, options: HttpTransportOptions) {
    const bounded = authorizedBoundedFetch(url, options);
    super(url, {
      fetch: bounded.fetch,
      ...(options.headers === undefined ? {} : { requestInit: { headers: options.headers } }),
    });
    this.#startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    bounded.onStandIn = (message) => this.onmessage?.(message);
    bounded.onTooLarge = (_ids, error) => {
      this.onerror?.(error);
      this.#failStart?.(error);
      void this.close();
    };
  }

  /**
   * Opens the stream and waits for the server's `endpoint` event, at most `startTimeoutMs`;
   * fails at once when the stream is cut off first.
   */
  override start(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const started = new Promise<void>((resolve, reject) => {
      this.#failStart = reject;
      timer = setTimeout(() => {
        reject(new Error(`no endpoint event within ${this.#startTimeoutMs} ms`));
        void this.close();
      }, this.#startTimeoutMs);
      super.start().then(resolve, reject);
    });
    return started.finally(() => {
      clearTimeout(timer);
      this.#failStart = undefined;
    });
  }
}

const methodOf = (message: JSONRPCMessage): string | undefined =>
  'method' in message ? message.method : undefined;

/** The longest excerpt of a refusal's body quoted in the error. */
const MAX_BODY_EXCERPT = 300;

/**
 * What a server said when it refused `initialize`: its status and the start of its body, JSON
 * escaped (a server's text is never written out raw), e.g. `HTTP 400: "{\"error\":...}"`.
 */
function refusalOf(error: unknown, status: number): string {
  const { data } = error as { data?: { text?: unknown } };
  const text = typeof data?.text === 'string' ? data.text : String((error as Error).message);
  const excerpt = text.length > MAX_BODY_EXCERPT ? `${text.slice(0, MAX_BODY_EXCERPT)}...` : text;
  return `HTTP ${status}: ${JSON.stringify(excerpt)}`;
}

/**
 * Streamable HTTP first; when the server answers the `initialize` POST with a 4xx (but 401 and
 * 403), the legacy SSE transport on the same URL (and headers) from then on. The v2 client's
 * `server/discover` probe goes before it and leaves the choice open: a server that answers it
 * speaks 2026-07-28 over Streamable HTTP, and one that refuses it is asked `initialize` next.
 * Errors of the first attempt are not reported when the fallback takes over; when it fails
 * too, its error follows the server's refusal of `initialize` (status and an escaped excerpt
 * of the body, at most 300 characters), which comes first.
 *
 * @example
 * ```ts
 * const transport = new HttpWithSseFallback(
 *   new BoundedHttpTransport(url, { maxMessageBytes }),
 *   () => new BoundedSseTransport(url, { maxMessageBytes }),
 * );
 * await client.connect(transport);
 * ```
 */
export class HttpWithSseFallback implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  #current: Transport;
  readonly #sse: () => Transport;
  #decided = false;
  #fellBack = false;
  /** Errors of the first attempt, held until it is known whether the fallback takes over. */
  readonly #held: Error[] = [];
  #protocolVersion: string | undefined;

  constructor(streamable: Transport, sse: () => Transport) {
    this.#current = streamable;
    this.#sse = sse;
  }

  get sessionId(): string | undefined {
    return this.#current.sessionId;
  }

  /** Whether each request has its own stream to abort (Streamable HTTP's, not SSE's). */
  get hasPerRequestStream(): boolean {
    return this.#current.hasPerRequestStream === true;
  }

  /** Whether the server refused `initialize` over Streamable HTTP and SSE took over. */
  get fellBack(): boolean {
    return this.#fellBack;
  }

  #wire(transport: Transport, held?: Error[]): void {
    transport.onmessage = (message, extra) => this.onmessage?.(message, extra);
    transport.onclose = () => {
      if (transport === this.#current) this.onclose?.();
    };
    transport.onerror = (error) => {
      if (transport !== this.#current) return;
      if (held !== undefined && !this.#decided) held.push(error);
      else this.onerror?.(error);
    };
  }

  start(): Promise<void> {
    this.#wire(this.#current, this.#held);
    return this.#current.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const method = methodOf(message);
    // The probe's answer (or refusal) is the client's to read: it decides nothing here.
    if (!this.#decided && method === 'server/discover') return this.#current.send(message, options);
    if (this.#decided || method !== 'initialize') {
      this.#decide();
      return this.#current.send(message, options);
    }
    try {
      await this.#current.send(message, options);
    } catch (error) {
      const status = httpStatusOf(error);
      if (status === undefined || !fallsBack(status)) {
        this.#decide();
        throw error;
      }
      const streamable = this.#current;
      const sse = this.#sse();
      this.#current = sse;
      this.#fellBack = true;
      this.#held.length = 0;
      this.#decided = true;
      void streamable.close();
      this.#wire(sse);
      if (this.#protocolVersion !== undefined) sse.setProtocolVersion?.(this.#protocolVersion);
      try {
        await sse.start();
        return await sse.send(message, options);
      } catch (sseError) {
        // The server's own refusal comes first (a 2026-07-28-only server refuses initialize
        // with its reason); the failed fallback only follows it.
        throw new Error(
          `initialize refused over Streamable HTTP (${refusalOf(error, status)}); then SSE`,
          { cause: sseError },
        );
      }
    }
    this.#decide();
  }

  /** The first attempt stands: its held errors are reported. */
  #decide(): void {
    this.#decided = true;
    for (const error of this.#held.splice(0)) this.onerror?.(error);
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
    this.#current.setProtocolVersion?.(version);
  }

  close(): Promise<void> {
    return this.#current.close();
  }
}
