/**
 * An authorization waiting for the user's browser, and the retry that waits for it: apart from
 * `authorize.ts` (which raises it) so that connecting a server loads the SDK's OAuth client only
 * when an HTTP server is opened.
 */
import type { GeminiMcpError } from '../../../errors.js';

/**
 * An authorization that needs the user's browser, met by a connection's `initialize` (a 401):
 * the connection is dropped (its handshake must not wait under the connect timeout), and
 * {@link withAuthorization} waits for the browser, exchanges the code and connects again.
 */
export class AuthorizationPending extends Error {
  constructor(
    readonly finish: () => Promise<void>,
    /** What to throw when the connection made after this authorization is refused again. */
    readonly refusal: GeminiMcpError,
    /** Stops waiting for the browser (its listener closed): `finish` then rejects. */
    readonly cancel: () => Promise<void>,
  ) {
    super('authorization pending: waiting for the browser to come back');
  }
}

/**
 * Runs `open` (a connection and its first requests); when it stopped for an authorization
 * that needs the user's browser, waits for it, then runs `open` once more (a second refusal is
 * UNAUTHORIZED). `signal` stops the wait for the browser: it rejects with `signal.reason`.
 *
 * @example
 * ```ts
 * const server = await withAuthorization(() => openServer(entry, options));
 * ```
 */
export async function withAuthorization<T>(
  open: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (!(error instanceof AuthorizationPending)) throw error;
    const cancel = (): void => void error.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      if (signal?.aborted) cancel();
      await error.finish();
    } catch (failure) {
      throw signal?.aborted ? signal.reason : failure;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }
  try {
    return await open();
  } catch (error) {
    throw error instanceof AuthorizationPending ? error.refusal : error;
  }
}
