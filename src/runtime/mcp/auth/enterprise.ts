/**
 * Enterprise-managed authorization (SEP-990, cross-app access): the user's single sign-on ID
 * token is exchanged at the enterprise identity provider for an ID-JAG (RFC 8693 token exchange),
 * which the MCP server's authorization server takes as a jwt-bearer grant (RFC 7523). No browser
 * and no code of the application's own: the SDK's `CrossAppAccessProvider`, given the exchange.
 */
import { CrossAppAccessProvider, requestJwtAuthorizationGrant } from '@modelcontextprotocol/client';
import { boundedAuthFetch } from './authorize.js';
import { checkOAuthUrl } from './endpoint-rule.js';
import type { ServerAuthProvider } from './provider.js';

/** Options of {@link enterpriseAuthProvider}. */
export interface EnterpriseAuthOptions {
  /** The enterprise identity provider's token endpoint, where the ID token is exchanged. */
  idpTokenEndpoint: string;
  /** The user's ID token from the identity provider, or a function giving it at each exchange. */
  idToken: string | (() => string | Promise<string>);
  /** This client's id at the identity provider. */
  idpClientId: string;
  /** This client's secret at the identity provider, when it is a confidential client there. */
  idpClientSecret?: string;
  /** This client's id at the MCP server's authorization server. */
  clientId: string;
  /** This client's secret there (sent as `client_secret_basic`). */
  clientSecret: string;
  /**
   * The issuer of the MCP server's authorization server these credentials belong to: they are
   * sent to no other (recommended; without it, the server's metadata decides).
   */
  expectedIssuer?: string;
  /** The client name; default `gemini-mcp-kit`. */
  clientName?: string;
}

/**
 * A provider for a server behind enterprise-managed authorization (SEP-990): at each token
 * request, `idToken` is exchanged at `idpTokenEndpoint` for an ID-JAG naming the server's
 * authorization server (`audience`) and resource, and the ID-JAG for an access token. Every
 * request of the flow is held to the OAuth URL rule and bounded as the rest of the flow; tokens
 * stay in memory.
 *
 * @example
 * ```ts
 * const servers = await connectServers('mcp.json', {
 *   auth: {
 *     crm: enterpriseAuthProvider({
 *       idpTokenEndpoint: 'https://idp.example.com/oauth2/token',
 *       idToken: () => session.idToken,
 *       idpClientId: 'agent-at-idp',
 *       clientId: 'agent',
 *       clientSecret: process.env.CRM_CLIENT_SECRET ?? '',
 *       expectedIssuer: 'https://auth.crm.example.com',
 *     }),
 *   },
 * });
 * ```
 */
export function enterpriseAuthProvider(options: EnterpriseAuthOptions): ServerAuthProvider {
  checkOAuthUrl(options.idpTokenEndpoint, "the identity provider's token endpoint");
  const { idToken, idpClientSecret, expectedIssuer } = options;
  return new CrossAppAccessProvider({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    ...(expectedIssuer === undefined ? {} : { expectedIssuer }),
    clientName: options.clientName ?? 'gemini-mcp-kit',
    fetchFn: boundedAuthFetch(),
    assertion: async ({ authorizationServerUrl, resourceUrl, scope, fetchFn }) => {
      const grant = await requestJwtAuthorizationGrant({
        tokenEndpoint: options.idpTokenEndpoint,
        audience: authorizationServerUrl,
        resource: resourceUrl,
        idToken: typeof idToken === 'string' ? idToken : await idToken(),
        clientId: options.idpClientId,
        ...(idpClientSecret === undefined ? {} : { clientSecret: idpClientSecret }),
        ...(scope === undefined ? {} : { scope }),
        fetchFn,
      });
      return grant.jwtAuthGrant;
    },
  });
}
