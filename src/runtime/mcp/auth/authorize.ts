/**
 * Authorization on the wire: a fetch for the Streamable HTTP transport that adds the access
 * token (a DPoP-bound one with a fresh proof per request, RFC 9449), answers a 401 by
 * authorizing through the v2 SDK's `auth()` (discovery, registration with `application_type`,
 * PKCE, the RFC 9207 `iss` check of the redirect, token exchange or refresh, credentials stamped
 * with their issuer) and a 403 `insufficient_scope` by a scope step-up (the scopes asked for
 * before and the new one, at most `maxStepUps` in a row), then sends the request again. What no authorization gets past becomes a
 * `GeminiMcpError` `UNAUTHORIZED` naming the server and what it asked for.
 */
import {
  auth,
  computeScopeUnion,
  extractWWWAuthenticateParams,
  type FetchLike,
  IssuerMismatchError,
  withDpopFromProvider,
} from '@modelcontextprotocol/client';
import { GeminiMcpError } from '../../../errors.js';
import { clip, quote } from '../config/quote.js';
import { checkOAuthUrl, oauthDocumentChecker } from './endpoint-rule.js';
import { AuthorizationPending } from './pending.js';
import type { ServerAuthProvider } from './provider.js';

/** Scope step-ups (403 `insufficient_scope` answered by a new authorization) in a row, at most: 2. */
export const DEFAULT_MAX_STEP_UPS = 2;

/** The largest body read from a metadata, registration or token endpoint: 1 MiB. */
export const MAX_AUTH_RESPONSE_BYTES = 1024 * 1024;

/** How long one metadata, registration or token request may take: 30 s. */
const AUTH_REQUEST_TIMEOUT_MS = 30_000;

/** What a 401 or 403 said in its `WWW-Authenticate` header. */
interface Challenge {
  status: number;
  resourceMetadataUrl?: URL;
  scope?: string;
  error?: string;
}

/** Options of {@link authorizingFetch}. */
export interface AuthorizingFetchOptions {
  /** The server's id, named in errors. */
  serverId: string;
  /** The MCP server's URL (the resource being authorized). */
  serverUrl: URL;
  /** How to authorize; without one, a 401 or 403 is UNAUTHORIZED at once. */
  provider?: ServerAuthProvider | undefined;
  /** Scope step-ups in a row before giving up; default {@link DEFAULT_MAX_STEP_UPS}. */
  maxStepUps?: number;
}

function challengeOf(response: Response): Challenge {
  const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
  return {
    status: response.status,
    ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }),
    ...(scope === undefined ? {} : { scope }),
    ...(error === undefined ? {} : { error }),
  };
}

/**
 * Why an authorization failed, in words. A refused `iss` (RFC 9207) names the issuer expected,
 * never the one received: in a mix-up attack that value is the attacker's.
 */
function failure(error: unknown): string {
  if (error instanceof IssuerMismatchError && error.kind === 'authorization_response') {
    const expected = quote(error.expected ?? '');
    return error.received === undefined
      ? `the authorization response has no iss, and the authorization server ${expected} says it sends one (RFC 9207); the code was not exchanged`
      : `the authorization response's iss is not ${expected}, the authorization server asked (RFC 9207: an authorization server mix-up); the code was not exchanged`;
  }
  return error instanceof Error ? clip(error.message) : clip(String(error));
}

/** The marker of an UNAUTHORIZED error built here (already naming the server). */
const NAMED = Symbol('named');

function unauthorized(
  serverId: string,
  challenge: Challenge,
  reason: string,
  cause?: unknown,
): GeminiMcpError {
  const asked = [
    challenge.error === undefined ? '' : `error ${quote(challenge.error)}`,
    challenge.scope === undefined ? '' : `scope ${quote(challenge.scope)}`,
    challenge.resourceMetadataUrl === undefined
      ? ''
      : `resource metadata ${quote(challenge.resourceMetadataUrl.href)}`,
  ].filter((part) => part !== '');
  const error = new GeminiMcpError(
    'UNAUTHORIZED',
    `server "${serverId}" answered HTTP ${challenge.status}${asked.length === 0 ? '' : ` (${asked.join(', ')})`}: ${reason}`,
    {
      cause,
      data: {
        serverId,
        status: challenge.status,
        ...(challenge.error === undefined ? {} : { error: clip(challenge.error) }),
        ...(challenge.scope === undefined ? {} : { scope: clip(challenge.scope) }),
        ...(challenge.resourceMetadataUrl === undefined
          ? {}
          : { resourceMetadata: clip(challenge.resourceMetadataUrl.href) }),
      },
    },
  );
  Object.defineProperty(error, NAMED, { value: true });
  return error;
}

/** Whether a request body is the `initialize` request (a connection's first). */
function isInitialize(body: unknown): boolean {
  if (typeof body !== 'string' || !body.includes('"initialize"')) return false;
  try {
    const message: unknown = JSON.parse(body);
    return (
      typeof message === 'object' &&
      message !== null &&
      'method' in message &&
      message.method === 'initialize'
    );
  } catch {
    return false;
  }
}

/**
 * A fetch for the OAuth endpoints (metadata, registration, token, an identity provider's token
 * exchange): each request only to a URL {@link checkOAuthUrl} allows, limited to
 * {@link AUTH_REQUEST_TIMEOUT_MS} and its body to {@link MAX_AUTH_RESPONSE_BYTES}; the documents
 * it brings are checked in turn by {@link oauthDocumentChecker} (an authorization server's
 * issuer, its endpoints).
 *
 * @example
 * ```ts
 * const fetchFn = boundedAuthFetch();
 * await auth(provider, { serverUrl, fetchFn });
 * ```
 */
export function boundedAuthFetch(): FetchLike {
  const checkDocument = oauthDocumentChecker();
  return async (url, init) => {
    checkOAuthUrl(String(url), 'a request to');
    const timeout = AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await fetch(url, { ...init, signal });
    if (response.body === null) return response;
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > MAX_AUTH_RESPONSE_BYTES) {
        await reader.cancel();
        throw new Error(`${String(url)} sent more than ${MAX_AUTH_RESPONSE_BYTES} bytes`);
      }
      chunks.push(read.value);
    }
    const body = Buffer.concat(chunks);
    if (response.ok) checkDocument(new URL(String(url)), body.toString('utf8'));
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * Wraps `next` (the transport's fetch) with OAuth: the provider's bearer token on every
 * request; a 401 answered by `auth()` once per request; a 403 `insufficient_scope` answered by
 * a step-up (`maxStepUps` in a row, reset by the next success); one authorization at a time.
 * An authorization that needs the browser waits for it (the request's own timeout applies),
 * except after a 401 to `initialize`, which is dropped for `withAuthorization` to finish.
 *
 * @example
 * ```ts
 * const transport = new StreamableHTTPClientTransport(url, {
 *   fetch: authorizingFetch(fetch, { serverId: 'docs', serverUrl: url, provider }),
 * });
 * ```
 */
export function authorizingFetch(next: FetchLike, options: AuthorizingFetchOptions): FetchLike {
  const { serverId, serverUrl, provider } = options;
  const maxStepUps = options.maxStepUps ?? DEFAULT_MAX_STEP_UPS;
  const authFetch = boundedAuthFetch();
  let stepUps = 0;
  /** The scope the last authorization asked for (a step-up asks it again, with the new one). */
  let requested: string | undefined;
  let inFlight: Promise<void> | undefined;

  const authorize = async (
    authorizer: ServerAuthProvider,
    challenge: Challenge,
    initialize: boolean,
  ): Promise<void> => {
    // A step-up keeps what was granted: the scopes asked for before, and the one the 403 names (SEP-2350).
    const scope =
      challenge.status === 403
        ? computeScopeUnion(requested, (await authorizer.tokens())?.scope, challenge.scope)
        : challenge.scope;
    requested = scope;
    const request = {
      serverUrl,
      fetchFn: authFetch,
      // The issuer check is authFetch's (oauthDocumentChecker): for an advertised authorization
      // server only, as metadata found the 2025-03-26 way names an issuer of its own.
      skipIssuerMetadataValidation: true,
      ...(challenge.resourceMetadataUrl === undefined
        ? {}
        : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
      ...(scope === undefined ? {} : { scope }),
    };
    const failed = (error: unknown): GeminiMcpError =>
      error instanceof GeminiMcpError && NAMED in error
        ? error
        : unauthorized(serverId, challenge, `authorization failed: ${failure(error)}`, error);
    const finish = async (): Promise<void> => {
      const { authorizationCode } = authorizer;
      if (authorizationCode === undefined) {
        throw unauthorized(
          serverId,
          challenge,
          'it needs the user to authorize in a browser, and the provider cannot wait for the redirect (no authorizationCode())',
        );
      }
      const response = await authorizationCode.call(authorizer);
      const { code, iss } = typeof response === 'string' ? { code: response } : response;
      const exchange = {
        ...request,
        authorizationCode: code,
        ...(iss === undefined ? {} : { iss }),
      };
      if ((await auth(authorizer, exchange)) !== 'AUTHORIZED') {
        throw unauthorized(
          serverId,
          challenge,
          'the authorization code was not exchanged for tokens',
        );
      }
    };
    let handedOver = false;
    try {
      // A step-up needs a new grant for the wider scope: a refresh would keep the old one.
      if (challenge.status === 403) await authorizer.invalidateCredentials?.('tokens');
      // The resource may have moved to another authorization server (SEP-2352): ask it again.
      await authorizer.invalidateCredentials?.('discovery');
      await authorizer.prepareAuthorization?.();
      if ((await auth(authorizer, request)) === 'AUTHORIZED') return;
      if (initialize && challenge.status === 401 && authorizer.authorizationCode !== undefined) {
        handedOver = true;
        const pending = new AuthorizationPending(
          async () => {
            try {
              await finish();
            } catch (error) {
              throw failed(error);
            } finally {
              await authorizer.endAuthorization?.();
            }
          },
          unauthorized(serverId, challenge, 'refused again after the user authorized'),
          async () => {
            await authorizer.endAuthorization?.();
          },
        );
        throw pending;
      }
      await finish();
    } catch (error) {
      throw error instanceof AuthorizationPending ? error : failed(error);
    } finally {
      if (!handedOver) await authorizer.endAuthorization?.();
    }
  };

  // A DPoP-bound token goes out as `DPoP` with a proof per request (a nonce challenge retried once).
  const resource = provider?.dpop === undefined ? next : withDpopFromProvider(provider)(next);

  return async (url, init) => {
    const send = async (): Promise<Response> => {
      const headers = new Headers(init?.headers);
      const tokens = await provider?.tokens();
      if (tokens !== undefined) headers.set('authorization', `Bearer ${tokens.access_token}`);
      return resource(url, { ...init, headers });
    };
    let response = await send();
    let authorized = false;
    for (;;) {
      if (response.status !== 401 && response.status !== 403) {
        if (response.ok) stepUps = 0;
        return response;
      }
      const challenge = challengeOf(response);
      await response.body?.cancel().catch(() => undefined);
      if (provider === undefined) {
        throw unauthorized(
          serverId,
          challenge,
          'no authorization is configured for it (give connectServers an `auth` provider, or an `oauth` section in its entry)',
        );
      }
      if (challenge.status === 403 && challenge.error !== 'insufficient_scope') {
        throw unauthorized(
          serverId,
          challenge,
          'access denied, and not for a scope the client could ask for',
        );
      }
      if (challenge.status === 401 && authorized) {
        throw unauthorized(serverId, challenge, 'refused again right after authorizing');
      }
      if (challenge.status === 403) {
        if (stepUps >= maxStepUps) {
          throw unauthorized(
            serverId,
            challenge,
            `still refused after ${maxStepUps} scope step-ups in a row (the limit)`,
          );
        }
        stepUps++;
      }
      if (inFlight !== undefined) await inFlight.catch(() => undefined);
      else {
        inFlight = authorize(provider, challenge, isInitialize(init?.body));
        try {
          await inFlight;
        } finally {
          inFlight = undefined;
        }
      }
      authorized = true;
      response = await send();
    }
  };
}
