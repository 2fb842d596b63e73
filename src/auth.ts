/**
 * gemini-mcp-kit/auth: OAuth for Streamable HTTP servers, as MCP's 2026-07-28 revision and its
 * authorization extensions ask. `oauthFromConfig` builds a provider for each HTTP server from its
 * configuration entry, `oauthProvider` one for a given server (the authorization code flow, client
 * credentials, or workload identity through the jwt-bearer grant); `enterpriseAuthProvider` one
 * for enterprise-managed authorization (SEP-990). Tokens go where a `TokenStore` puts them
 * (`fileTokenStore`, `memoryTokenStore`), with a server's DPoP key. Give the result to
 * `connectServers`' `auth` option.
 *
 * @example
 * ```ts
 * import { connectServers } from 'gemini-mcp-kit';
 * import { fileTokenStore, oauthFromConfig } from 'gemini-mcp-kit/auth';
 *
 * const servers = await connectServers('mcp.json', {
 *   auth: oauthFromConfig({ store: fileTokenStore(), onAuthorizationUrl: (url) => console.error(`Open ${url.href}`) }),
 * });
 * ```
 *
 * @packageDocumentation
 * @module gemini-mcp-kit/auth
 */

export type { StoredDpopKey } from './runtime/mcp/auth/dpop-key.js';
export type { EnterpriseAuthOptions } from './runtime/mcp/auth/enterprise.js';
export { enterpriseAuthProvider } from './runtime/mcp/auth/enterprise.js';
export type { FileTokenStoreOptions } from './runtime/mcp/auth/file-store.js';
export { defaultTokenDir, fileTokenStore } from './runtime/mcp/auth/file-store.js';
export type { AuthorizationResponse } from './runtime/mcp/auth/loopback.js';
export type {
  AuthorizationHooks,
  OAuthProviderOptions,
  ServerAuthProvider,
} from './runtime/mcp/auth/provider.js';
export { oauthProvider } from './runtime/mcp/auth/provider.js';
export type { AuthTarget, OAuthFromConfigOptions, ServerAuth } from './runtime/mcp/auth/resolve.js';
export { oauthFromConfig } from './runtime/mcp/auth/resolve.js';
export type { OAuthSettings } from './runtime/mcp/auth/settings.js';
export type { StoredAuthorization, TokenStore } from './runtime/mcp/auth/store.js';
export { memoryTokenStore } from './runtime/mcp/auth/store.js';
