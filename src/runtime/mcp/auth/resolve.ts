/**
 * Which authorization each HTTP server gets: `connectServers`' `auth` option (a provider per
 * server id, or a function of the server), else the `oauth` section of its configuration entry.
 */

import { oauthProvider, type ServerAuthProvider } from './provider.js';
import type { OAuthSettings } from './settings.js';
import { memoryTokenStore, type TokenStore } from './store.js';

/** The server an authorization is chosen for. */
export interface AuthTarget {
  /** The server's id in `mcpServers`. */
  serverId: string;
  /** The server's URL. */
  url: string;
  /** Its entry's `oauth` section, when it has one. */
  oauth?: OAuthSettings;
}

/**
 * `connectServers`' `auth` option: a provider per server id, or a function choosing one for
 * each HTTP server (`undefined`: none). Called once per server and connection.
 *
 * @example
 * ```ts
 * const auth: ServerAuth = ({ serverId, url }) =>
 *   serverId === 'docs' ? oauthProvider({ serverUrl: url, onAuthorizationUrl: (u) => console.error(`Open ${u}`) }) : undefined;
 * ```
 */
export type ServerAuth =
  | Readonly<Record<string, ServerAuthProvider>>
  | ((server: AuthTarget) => ServerAuthProvider | undefined);

/** Options of {@link oauthFromConfig}. */
export interface OAuthFromConfigOptions {
  /** Where tokens and registrations are kept; default in memory (shared by these servers). */
  store?: TokenStore;
  /** Shown each authorization URL the user must open; without it only browserless flows work. */
  onAuthorizationUrl?: (url: URL, server: AuthTarget) => void | Promise<void>;
  /** How long a loopback listener waits for the browser; default 5 minutes. */
  authorizationTimeoutMs?: number;
  /** The client name shown on consent screens; default `gemini-mcp-kit`. */
  clientName?: string;
  /**
   * `true` (default): every HTTP server may authorize when it answers 401 (discovery and
   * dynamic registration), as gemini-cli and VS Code do; `false`: only servers with an
   * `oauth` section.
   */
  everyServer?: boolean;
}

/**
 * An `auth` option that builds an {@link oauthProvider} for each HTTP server from its entry's
 * `oauth` section (gemini-cli's settings: `clientId`, `clientSecret`, `authorizationUrl`,
 * `tokenUrl`, `scopes`, `redirectUri`; plus `grantType`), with one store and one way of showing
 * authorization URLs for all. A section with `"enabled": false` gets no provider.
 *
 * @example
 * ```ts
 * const servers = await connectServers('mcp.json', {
 *   auth: oauthFromConfig({
 *     store: fileTokenStore(),
 *     onAuthorizationUrl: (url, { serverId }) => console.error(`Open ${url} to authorize ${serverId}`),
 *   }),
 * });
 * ```
 */
export function oauthFromConfig(
  options: OAuthFromConfigOptions = {},
): (server: AuthTarget) => ServerAuthProvider | undefined {
  const store = options.store ?? memoryTokenStore();
  return (server) => {
    const { enabled, ...settings } = server.oauth ?? {};
    if (enabled === false || (server.oauth === undefined && options.everyServer === false)) {
      return undefined;
    }
    const { onAuthorizationUrl } = options;
    return oauthProvider({
      ...settings,
      serverUrl: server.url,
      store,
      ...(onAuthorizationUrl === undefined
        ? {}
        : { onAuthorizationUrl: (url: URL) => onAuthorizationUrl(url, server) }),
      ...(options.authorizationTimeoutMs === undefined
        ? {}
        : { authorizationTimeoutMs: options.authorizationTimeoutMs }),
      ...(options.clientName === undefined ? {} : { clientName: options.clientName }),
    });
  };
}

/** One `entry` of the configuration (an HTTP one), as the transport has it. */
interface HttpEntry {
  serverId: string;
  config: { url: string; oauth?: OAuthSettings };
}

const chosen = new WeakMap<HttpEntry, ServerAuthProvider | undefined>();

/**
 * The provider for one entry, the same each time for the same entry object (a reconnection
 * after an authorization keeps its state): the `auth` option's (a record without this server
 * falls back to the entry), else one built from the entry's `oauth` section (tokens in memory,
 * browserless flows only), else none.
 *
 * @example
 * ```ts
 * const provider = authProviderFor(options.auth, { serverId: 'docs', config: { url: 'https://docs.example.com/mcp' } });
 * ```
 */
export function authProviderFor(
  auth: ServerAuth | undefined,
  entry: HttpEntry,
): ServerAuthProvider | undefined {
  if (chosen.has(entry)) return chosen.get(entry);
  const { serverId, config } = entry;
  const target: AuthTarget = {
    serverId,
    url: config.url,
    ...(config.oauth === undefined ? {} : { oauth: config.oauth }),
  };
  let provider: ServerAuthProvider | undefined;
  if (typeof auth === 'function') provider = auth(target);
  else if (auth !== undefined && Object.hasOwn(auth, serverId)) provider = auth[serverId];
  else provider = oauthFromConfig({ everyServer: false })(target);
  chosen.set(entry, provider);
  return provider;
}
