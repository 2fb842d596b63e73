/**
 * The rule for every URL of an OAuth flow (issue 38 items 1-3), applied on the wire so that it
 * holds for any provider, ours or the SDK's: a request of the flow (protected resource metadata,
 * authorization server metadata, registration, token) goes only to an `https:` URL or `http:` to a
 * loopback host, and an authorization server's metadata is used only when its `issuer` is the
 * one its well-known URL was formed from (RFC 8414 §3.3, OpenID Connect Discovery §4.3) and every
 * endpoint it names (the authorization endpoint a person is sent to among them) passes the same
 * rule. The MCP authorization specification requires HTTPS for these endpoints, loopback aside.
 *
 * For a development setup that needs plain http to a named host, the environment variable
 * `GEMINI_MCP_INSECURE_OAUTH_HOSTS` (host names, comma-separated) lets http to those hosts through,
 * each one announced by a process warning (`GEMINI_MCP_INSECURE_OAUTH`) the first time it is used.
 */
import { GeminiMcpError } from '../../../errors.js';
import { isJsonObject } from '../../../json/object.js';
import { checkOpenableUrl } from '../../openable-url.js';
import { clip, quote } from '../config/quote.js';

/** The environment variable naming hosts plain http is allowed to, for development only. */
const INSECURE_HOSTS_VARIABLE = 'GEMINI_MCP_INSECURE_OAUTH_HOSTS';

/** The endpoints of authorization server metadata that the flow sends requests or a person to. */
const ENDPOINT_FIELDS = [
  'authorization_endpoint',
  'token_endpoint',
  'registration_endpoint',
  'revocation_endpoint',
  'introspection_endpoint',
  'device_authorization_endpoint',
  'pushed_authorization_request_endpoint',
  'jwks_uri',
] as const;

/** The two well-known documents of an authorization server (RFC 8414, OpenID Connect Discovery). */
const WELL_KNOWN = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];

/** Hosts already announced by a process warning. */
const announced = new Set<string>();

function insecureHosts(): Set<string> {
  const value = process.env[INSECURE_HOSTS_VARIABLE] ?? '';
  return new Set(
    value
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== ''),
  );
}

/**
 * Throws `UNAUTHORIZED` unless `value` may take a request of the OAuth flow (or be shown to a
 * person): `https:`, `http:` to a loopback host, or `http:` to a host named in
 * `GEMINI_MCP_INSECURE_OAUTH_HOSTS` (announced once by a process warning). `what` says which URL.
 *
 * @example
 * ```ts
 * checkOAuthUrl('https://auth.example.com/token', 'the token endpoint'); // passes
 * checkOAuthUrl('file:///etc/passwd', 'the authorization endpoint'); // throws UNAUTHORIZED naming file:
 * ```
 */
export function checkOAuthUrl(value: string, what: string): void {
  const checked = checkOpenableUrl(value);
  if (checked.ok) return;
  if (checked.scheme === 'http:') {
    const host = new URL(value).hostname.toLowerCase();
    if (insecureHosts().has(host)) {
      if (!announced.has(host)) {
        announced.add(host);
        process.emitWarning(
          `OAuth over plain http to ${host}, allowed by ${INSECURE_HOSTS_VARIABLE}: tokens, codes and secrets to it travel unencrypted (a development setup only)`,
          { code: 'GEMINI_MCP_INSECURE_OAUTH' },
        );
      }
      return;
    }
  }
  throw new GeminiMcpError(
    'UNAUTHORIZED',
    `OAuth refused ${what} ${quote(value)}: ${checked.reason}${checked.scheme === 'http:' ? ` (for a development setup, name the host in ${INSECURE_HOSTS_VARIABLE})` : ''}`,
    { data: { url: clip(value), scheme: checked.scheme } },
  );
}

/**
 * The issuer a well-known metadata URL was formed from, or `undefined` when `url` is not one:
 * `https://a.example/.well-known/oauth-authorization-server/tenant` (RFC 8414: inserted before
 * the path) and `https://a.example/tenant/.well-known/openid-configuration` (OpenID Connect:
 * appended) both come from `https://a.example/tenant`.
 */
function issuerOf(url: URL): string | undefined {
  for (const document of WELL_KNOWN) {
    if (url.pathname === document || url.pathname.startsWith(`${document}/`)) {
      return `${url.origin}${url.pathname.slice(document.length)}`;
    }
    if (url.pathname.endsWith(document)) {
      return `${url.origin}${url.pathname.slice(0, -document.length)}`;
    }
  }
  return undefined;
}

/** An issuer identifier as compared: one trailing `/` does not count. */
const issuerKey = (issuer: string): string => issuer.replace(/\/$/, '');

/** `text` as JSON, or `undefined` when it is not (the SDK refuses such a document itself). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A checker of the documents one server's OAuth flows fetch, in the order they arrive. It
 * notes the authorization servers a protected resource metadata document advertises
 * (`authorization_servers`, RFC 9728), and throws `UNAUTHORIZED` for authorization server
 * metadata that must not be used: an endpoint it names fails {@link checkOAuthUrl}, or (for an
 * authorization server that was advertised) its `issuer` is not the one its well-known URL was
 * formed from (RFC 8414 §3.3). Metadata found the 2025-03-26 way (at the MCP server's own origin,
 * no issuer advertised to compare with) is held to the endpoint rule only: servers of that
 * revision name an issuer of their own there. Any other document passes untouched.
 *
 * @example
 * ```ts
 * const check = oauthDocumentChecker();
 * check(new URL('https://mcp.example/.well-known/oauth-protected-resource'), '{"resource": "https://mcp.example", "authorization_servers": ["https://a.example"]}');
 * check(
 *   new URL('https://a.example/.well-known/oauth-authorization-server'),
 *   '{"issuer": "https://evil.example", "authorization_endpoint": "https://evil.example/authorize"}',
 * ); // throws UNAUTHORIZED: the issuer does not match
 * ```
 */
export function oauthDocumentChecker(): (url: URL, text: string) => void {
  const advertised = new Set<string>();
  return (url, text) => {
    const body = parsed(text);
    if (!isJsonObject(body)) return;
    const servers = body.authorization_servers;
    if (Array.isArray(servers)) {
      for (const server of servers)
        if (typeof server === 'string') advertised.add(issuerKey(server));
      return;
    }
    const expected = issuerOf(url);
    if (expected === undefined) return;
    const { issuer } = body;
    if (
      advertised.has(issuerKey(expected)) &&
      (typeof issuer !== 'string' || issuerKey(issuer) !== issuerKey(expected))
    ) {
      throw new GeminiMcpError(
        'UNAUTHORIZED',
        `OAuth refused the authorization server metadata at ${quote(url.href)}: its issuer ${typeof issuer === 'string' ? quote(issuer) : '(none)'} is not ${quote(expected)}, the issuer its URL was formed from (RFC 8414 section 3.3)`,
        {
          data: {
            url: url.href,
            issuer: typeof issuer === 'string' ? clip(issuer) : null,
            expected,
          },
        },
      );
    }
    for (const field of ENDPOINT_FIELDS) {
      const endpoint = body[field];
      if (endpoint !== undefined) checkOAuthUrl(String(endpoint), `the metadata's ${field}`);
    }
  };
}
