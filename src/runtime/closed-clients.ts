/**
 * Remembers which clients gemini-mcp closed on purpose, so that a call cut off by that close
 * is reported as CLIENT_CLOSED rather than as a transport failure.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const closing = new WeakSet<Client>();

/**
 * Closes `client`, remembering that the close was asked for.
 *
 * @example
 * ```ts
 * await closeClient(client);
 * wasClosed(client); // true
 * ```
 */
export async function closeClient(client: Client): Promise<void> {
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
export function wasClosed(client: Client): boolean {
  return closing.has(client);
}
