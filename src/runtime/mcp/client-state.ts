/**
 * What gemini-mcp-kit knows about the clients it manages beyond the SDK's view: which ones it
 * closed on purpose (a call cut off by that close is CLIENT_CLOSED, not a transport failure),
 * each one's latest transport error (so a TRANSPORT error can say what broke), and which ones
 * reach a server its entry trusts (`trust: true`, read by the approval of calls).
 */
import type { McpClient } from './mcp-client.js';

const closing = new WeakSet<McpClient>();
const transportErrors = new WeakMap<McpClient, { error: Error; at: number }>();
const trusted = new WeakSet<McpClient>();

/**
 * Records that `client` reaches a server its configuration entry trusts (`trust: true`).
 *
 * @example
 * ```ts
 * if (entry.trust === true) markTrusted(client);
 * ```
 */
export function markTrusted(client: McpClient): void {
  trusted.add(client);
}

/**
 * Whether {@link markTrusted} was called on `client`.
 *
 * @example
 * ```ts
 * isTrusted(connections.clients.get('fs')!); // true for an entry with trust: true
 * ```
 */
export function isTrusted(client: McpClient): boolean {
  return trusted.has(client);
}

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
