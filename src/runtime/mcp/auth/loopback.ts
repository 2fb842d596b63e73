/**
 * The redirect half of an interactive authorization on this machine: a listener on a loopback
 * address (RFC 8252 section 7.3) that hands out the URL to open, waits for the browser to come
 * back with the code, checks the `state`, and closes, or gives up after a timeout.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GeminiMcpError } from '../../../errors.js';

/** How long the listener waits for the browser by default: 5 minutes. */
const DEFAULT_AUTHORIZATION_TIMEOUT_MS = 5 * 60 * 1000;

/** Options of {@link LoopbackRedirect}. */
export interface LoopbackRedirectOptions {
  /** Shown the authorization URL: print it, or open a browser. */
  onAuthorizationUrl: (url: URL) => void | Promise<void>;
  /** A fixed redirect URI (`http://127.0.0.1:7777/oauth/callback`); default port 0 (any free one) on 127.0.0.1. */
  redirectUri?: string;
  /** How long to wait for the browser to come back; default 5 minutes. */
  timeoutMs?: number;
}

const PAGE_DONE = 'Authorization complete. You can close this window.';

/** What the browser brought back to the redirect listener. */
export interface AuthorizationResponse {
  /** The authorization code. */
  code: string;
  /** The redirect's `iss` (RFC 9207), when it had one: the issuer that answered. */
  iss?: string;
}

interface Waiting {
  state: string | undefined;
  resolve: (response: AuthorizationResponse) => void;
  reject: (error: Error) => void;
}

/**
 * A loopback redirect listener for one server's authorizations, one at a time.
 *
 * @example
 * ```ts
 * const redirect = new LoopbackRedirect({ onAuthorizationUrl: (url) => console.error(`Open ${url}`) });
 * const redirectUrl = await redirect.listen(); // http://127.0.0.1:53412/oauth/callback
 * await redirect.open(authorizationUrl, state);
 * const { code, iss } = await redirect.code();
 * ```
 */
export class LoopbackRedirect {
  readonly #options: LoopbackRedirectOptions;
  #server: Server | undefined;
  #url: URL | undefined;
  #waiting: Waiting | undefined;
  #result: Promise<AuthorizationResponse> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: LoopbackRedirectOptions) {
    this.#options = options;
  }

  /** The redirect URL of the current (or last) listener, or the configured one, else `undefined`. */
  get url(): URL | undefined {
    return (
      this.#url ??
      (this.#options.redirectUri === undefined ? undefined : new URL(this.#options.redirectUri))
    );
  }

  /**
   * Starts listening (when not already) and returns the redirect URL. Without a configured
   * redirect URI, `preferredPort` (the port of a redirect URI registered before), then the last
   * listener's port, then any free port are tried, so a registration stays valid when it can.
   */
  async listen(preferredPort?: number): Promise<URL> {
    if (this.#server !== undefined && this.#url !== undefined) return this.#url;
    const fixed =
      this.#options.redirectUri === undefined ? undefined : new URL(this.#options.redirectUri);
    const host = fixed === undefined ? '127.0.0.1' : fixed.hostname.replace(/^\[|\]$/g, '');
    const path = fixed?.pathname ?? '/oauth/callback';
    const ports =
      fixed !== undefined
        ? [Number(fixed.port || 80)]
        : [...new Set([preferredPort ?? 0, Number(this.#url?.port ?? 0)])]
            .filter((p) => p !== 0)
            .concat(0);
    let lastError: unknown;
    for (const port of ports) {
      const server = createServer((request, response) =>
        this.#handle(request.url ?? '/', path, response),
      );
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, host, () => {
            server.off('error', reject);
            resolve();
          });
        });
      } catch (error) {
        lastError = error;
        continue;
      }
      const { port: bound } = server.address() as AddressInfo;
      this.#server = server;
      const url = new URL(fixed?.href ?? `http://127.0.0.1${path}`);
      url.port = String(bound);
      this.#url = url;
      return url;
    }
    throw new GeminiMcpError('UNAUTHORIZED', `cannot listen for the OAuth redirect on ${host}`, {
      cause: lastError,
      data: { redirectUri: this.#options.redirectUri },
    });
  }

  /**
   * Shows `authorizationUrl` (through `onAuthorizationUrl`) and starts waiting for the browser
   * to come back with `state`; {@link code} gives the outcome.
   */
  async open(authorizationUrl: URL, state: string | undefined): Promise<void> {
    this.#waiting?.reject(
      new GeminiMcpError('UNAUTHORIZED', 'a newer authorization replaced this one'),
    );
    const timeoutMs = this.#options.timeoutMs ?? DEFAULT_AUTHORIZATION_TIMEOUT_MS;
    this.#result = new Promise<AuthorizationResponse>((resolve, reject) => {
      this.#waiting = { state, resolve, reject };
    });
    // Handled by whoever awaits code(); never an unhandled rejection meanwhile.
    this.#result.catch(() => undefined);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#finish(
        new GeminiMcpError(
          'UNAUTHORIZED',
          `no authorization came back to ${this.#url?.href ?? 'the redirect listener'} within ${timeoutMs} ms`,
          { data: { timeoutMs } },
        ),
      );
    }, timeoutMs);
    this.#timer.unref();
    await this.#options.onAuthorizationUrl(authorizationUrl);
  }

  /** What the browser brought back (the code, its `iss`); rejects on an error, a bad state or the timeout. */
  async code(): Promise<AuthorizationResponse> {
    if (this.#result === undefined) {
      throw new GeminiMcpError('UNAUTHORIZED', 'no authorization was started');
    }
    return this.#result;
  }

  /** Stops listening and fails a pending wait. */
  async close(): Promise<void> {
    this.#finish(new GeminiMcpError('UNAUTHORIZED', 'the redirect listener was closed'));
  }

  #handle(target: string, path: string, response: ServerResponse): void {
    const url = new URL(target, 'http://127.0.0.1');
    if (url.pathname !== path) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const waiting = this.#waiting;
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    const iss = url.searchParams.get('iss');
    let outcome: AuthorizationResponse | Error;
    if (waiting === undefined) outcome = new Error('no authorization is waiting');
    else if (waiting.state !== undefined && url.searchParams.get('state') !== waiting.state) {
      outcome = new GeminiMcpError(
        'UNAUTHORIZED',
        'the redirect came back with another state (not this authorization)',
      );
    } else if (error !== null) {
      const description = url.searchParams.get('error_description');
      outcome = new GeminiMcpError(
        'UNAUTHORIZED',
        `the authorization server answered ${error}${description === null ? '' : `: ${description.slice(0, 200)}`}`,
        { data: { error } },
      );
    } else if (code === null || code === '') {
      outcome = new GeminiMcpError('UNAUTHORIZED', 'the redirect came back without a code');
    } else outcome = iss === null ? { code } : { code, iss };
    const ok = !(outcome instanceof Error);
    response
      .writeHead(ok ? 200 : 400, {
        'content-type': 'text/plain; charset=utf-8',
        connection: 'close',
      })
      .end(ok ? PAGE_DONE : 'Authorization failed; see the application for details.');
    if (waiting !== undefined && (ok || outcome instanceof GeminiMcpError)) this.#finish(outcome);
  }

  #finish(outcome: AuthorizationResponse | Error): void {
    clearTimeout(this.#timer);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    const server = this.#server;
    this.#server = undefined;
    server?.close();
    server?.closeIdleConnections();
    if (waiting === undefined) return;
    if (outcome instanceof Error) waiting.reject(outcome);
    else waiting.resolve(outcome);
  }
}
