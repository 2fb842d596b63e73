/**
 * What gemini-mcp-kit knows about the clients it manages beyond the SDK's view: which ones it
 * closed on purpose (a call cut off by that close is CLIENT_CLOSED, not a transport failure),
 * and each one's latest transport error (so a TRANSPORT error can say what broke).
 */
import type { McpClient } from './mcp-client.js';

const closing = new WeakSet<McpClient>();
const transportErrors = new WeakMap<McpClient, { error: Error; at: number }>();

/**
 * Records `client`'s transport errors from now on (keeping any `onerror` already set).
 *
 * @example
 * ```ts
 * watchClient(client);
 * await client.connect(transport);
 * ```
 */
export function watchClient(client: McpClient): void {
  const previous = client.onerror;
  client.onerror = (error) => {
    transportErrors.set(client, { error, at: performance.now() });
    previous?.(error);
  };
}

/**
 * The latest transport error of a watched client at or after `since` (a `performance.now()`
 * time), if any.
 *
 * @example
 * ```ts
 * const started = performance.now();
 * // ... the call fails ...
 * transportErrorSince(client, started)?.message; // 'ReadBuffer exceeded maximum size of 10485760 bytes'
 * ```
 */
export function transportErrorSince(client: McpClient, since: number): Error | undefined {
  const latest = transportErrors.get(client);
  return latest !== undefined && latest.at >= since ? latest.error : undefined;
}

/**
 * Closes `client`, remembering that the close was asked for.
 *
 * @example
 * ```ts
 * await closeClient(client);
 * wasClosed(client); // true
 * ```
 */
export async function closeClient(client: McpClient): Promise<void> {
  closing.add(client);
  await client.close();
}

/**
 * Whether {@link closeClient} was called on `client`.
 *
 * @example
 * ```ts
 * if (wasClosed(client)) console.log('closed on purpose');
 * ```
 */
export function wasClosed(client: McpClient): boolean {
  return closing.has(client);
}
