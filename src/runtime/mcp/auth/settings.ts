/**
 * The `oauth` section of a Streamable HTTP entry in an `mcpServers` file, as gemini-cli's
 * settings.json spells it (`enabled`, `clientId`, `clientSecret`, `authorizationUrl`,
 * `tokenUrl`, `scopes`, `redirectUri`), plus `grantType` for machine-to-machine use and workload
 * identity (`assertionFile`). Fields other clients add (`audiences`, `tokenParamName`, ...) are
 * left alone.
 */
import { GeminiMcpError } from '../../../errors.js';
import { isJsonObject } from '../../../json/object.js';
import { appendPointer } from '../../../json/pointer.js';
import { isLoopbackHost } from '../../openable-url.js';

/** The grant of workload identity: the platform's token for the workload as an RFC 7523 assertion. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The grants an `oauth` section may name. */
const GRANT_TYPES = ['authorization_code', 'client_credentials', JWT_BEARER_GRANT] as const;

/** How a server's OAuth client is set up from a configuration file. */
export interface OAuthSettings {
  /** `false` turns OAuth off for this server (a 401 is then UNAUTHORIZED at once). */
  enabled?: boolean;
  /** A pre-registered client id; without it the client registers itself (or uses `clientMetadataUrl`). */
  clientId?: string;
  /** The pre-registered client's secret (confidential clients and `client_credentials`). */
  clientSecret?: string;
  /** The authorization endpoint, when the server's metadata does not say (skips discovery with `tokenUrl`). */
  authorizationUrl?: string;
  /** The token endpoint, when the server's metadata does not say. */
  tokenUrl?: string;
  /** Scopes to ask for when the server names none. */
  scopes?: string[];
  /** Where the browser comes back: a loopback `http://127.0.0.1:PORT/path` (or `localhost`). */
  redirectUri?: string;
  /**
   * `client_credentials` for machine-to-machine use, or
   * `urn:ietf:params:oauth:grant-type:jwt-bearer` for workload identity (the platform's token
   * exchanged for an access token, RFC 7523): no browser either way. Default `authorization_code`.
   */
  grantType?: (typeof GRANT_TYPES)[number];
  /**
   * With the jwt-bearer grant: the file holding the workload's platform token (a Kubernetes
   * projected service account token, a cloud's workload identity token), read at each token request.
   */
  assertionFile?: string;
  /** A URL-based client id (an HTTPS client metadata document), used when the server supports it. */
  clientMetadataUrl?: string;
}

const STRING_FIELDS = [
  'clientId',
  'clientSecret',
  'authorizationUrl',
  'tokenUrl',
  'redirectUri',
  'clientMetadataUrl',
  'assertionFile',
] as const;

const URL_FIELDS = ['authorizationUrl', 'tokenUrl', 'redirectUri', 'clientMetadataUrl'] as const;

/** CONFIG_INVALID at the JSON pointer of the section (`where`) or of one of its fields. */
function fail(message: string, where: string, field?: string): never {
  const path = field === undefined ? where : appendPointer(where, field);
  throw new GeminiMcpError('CONFIG_INVALID', `${path || '(root)'}: ${message}`, { path });
}

/**
 * Whether `value` is a redirect URI a local listener can take: `http:` on a loopback host
 * (127.0.0.0/8, `localhost`, `[::1]`: the one rule of `openable-url.ts`).
 *
 * @example
 * ```ts
 * isLoopbackRedirect('http://127.0.0.1:7777/oauth/callback'); // true
 * isLoopbackRedirect('https://example.com/callback'); // false
 * ```
 */
export function isLoopbackRedirect(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/**
 * Checks an entry's `oauth` section and returns it typed (`undefined` when absent). Throws a
 * `GeminiMcpError` `CONFIG_INVALID` whose `path` is the JSON pointer of the field (under `where`, the
 * section's pointer) when a known field has the wrong type, a
 * URL does not parse, or `redirectUri` is not a loopback `http:` URL.
 *
 * @example
 * ```ts
 * checkOAuthSettings({ clientId: 'app', scopes: ['read'] }, '/mcpServers/docs/oauth');
 * // { clientId: 'app', scopes: ['read'] }
 * ```
 */
export function checkOAuthSettings(value: unknown, where: string): OAuthSettings | undefined {
  if (value === undefined) return undefined;
  if (!isJsonObject(value)) fail('must be an object', where);
  if (value.enabled !== undefined && typeof value.enabled !== 'boolean') {
    fail('must be true or false', where, 'enabled');
  }
  for (const field of STRING_FIELDS) {
    if (value[field] !== undefined && typeof value[field] !== 'string') {
      fail('must be a string', where, field);
    }
  }
  for (const field of URL_FIELDS) {
    const url = value[field];
    if (typeof url === 'string' && !URL.canParse(url)) fail('is not a URL', where, field);
  }
  const { scopes, grantType, redirectUri } = value;
  if (
    scopes !== undefined &&
    !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))
  ) {
    fail('must be an array of strings', where, 'scopes');
  }
  if (grantType !== undefined && !GRANT_TYPES.some((grant) => grant === grantType)) {
    fail(
      `must be one of ${GRANT_TYPES.map((grant) => `"${grant}"`).join(', ')}`,
      where,
      'grantType',
    );
  }
  if (typeof redirectUri === 'string' && !isLoopbackRedirect(redirectUri)) {
    fail('must be a loopback http: URL (127.0.0.0/8, localhost or [::1])', where, 'redirectUri');
  }
  if (
    grantType === 'client_credentials' &&
    (value.clientId === undefined || value.clientSecret === undefined)
  ) {
    fail('grantType "client_credentials" needs clientId and clientSecret', where);
  }
  if (
    grantType === JWT_BEARER_GRANT &&
    (value.clientId === undefined || value.assertionFile === undefined)
  ) {
    fail(`grantType "${JWT_BEARER_GRANT}" needs clientId and assertionFile`, where);
  }
  return value as OAuthSettings;
}
