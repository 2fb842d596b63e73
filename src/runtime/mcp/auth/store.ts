/**
 * Where a server's OAuth state lives between runs: tokens and the client registration, kept
 * where the application decides through a two-method interface. The in-memory store forgets
 * everything when the process ends.
 */
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** What is kept for one server: its tokens and how this client is registered with its authorization server. */
export interface StoredAuthorization {
  /** The latest tokens (access and refresh), as the SDK hands them over (with `issuer`). */
  tokens?: OAuthTokens;
  /** The client registration (dynamic, or a URL-based client id), as the SDK hands it over. */
  clientInformation?: OAuthClientInformationMixed;
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
