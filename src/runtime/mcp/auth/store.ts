/**
 * Where a server's OAuth state lives between runs: tokens and the client registration, kept
 * where the application decides through a two-method interface. The in-memory store forgets
 * everything when the process ends.
 */
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { StoredDpopKey } from './dpop-key.js';

/** What is kept for one server: its tokens and how this client is registered with its authorization server. */
export interface StoredAuthorization {
  /**
   * The latest tokens (access and refresh), as the SDK hands them over: stamped with the
   * `issuer` that granted them, so tokens of another authorization server are never sent.
   */
  tokens?: StoredOAuthTokens;
  /**
   * The client registration (dynamic, or a URL-based client id), stamped with its `issuer`:
   * when the server moves to another authorization server (SEP-2352), the client registers anew.
   */
  clientInformation?: StoredOAuthClientInformation;
  /** The DPoP key tokens of this server are bound to (RFC 9449), when its authorization server uses DPoP. */
  dpopKey?: StoredDpopKey;
}

/**
 * Keeps OAuth state per server, keyed by the server's URL. Implement it over a keychain, a
 * database or a file; {@link memoryTokenStore} and `fileTokenStore` are ready-made.
 *
 * @example
 * ```ts
 * const store: TokenStore = {
 *   async load(key) { return JSON.parse((await db.get(key)) ?? 'null') ?? undefined; },
 *   async save(key, value) { await db.set(key, JSON.stringify(value)); },
 * };
 * ```
 */
export interface TokenStore {
  /** What was saved for `key`, or `undefined`. */
  load(key: string): Promise<StoredAuthorization | undefined>;
  /** Replaces what is saved for `key` (an empty object forgets it). */
  save(key: string, value: StoredAuthorization): Promise<void>;
}

/**
 * A {@link TokenStore} in memory: nothing survives the process. The default of `oauthProvider`.
 *
 * @example
 * ```ts
 * const store = memoryTokenStore();
 * await store.save('https://example.com/mcp', { tokens: { access_token: 't', token_type: 'Bearer' } });
 * ```
 */
export function memoryTokenStore(): TokenStore {
  const entries = new Map<string, StoredAuthorization>();
  return {
    async load(key) {
      return entries.get(key);
    },
    async save(key, value) {
      entries.set(key, value);
    },
  };
}
