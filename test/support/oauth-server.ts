/**
 * An OAuth-protected MCP server on 127.0.0.1 for the authorization tests: one HTTP server that
 * is both the resource (Streamable HTTP, one tool `whoami`) and its authorization server
 * (RFC 9728 and RFC 8414 metadata, dynamic registration, an authorization endpoint that
 * approves at once, a token endpoint for authorization codes with PKCE S256, refresh tokens,
 * client credentials and jwt-bearer assertions). Counts what clients do, and can expire tokens,
 * refuse every scope, send an RFC 9207 `iss` of its choosing, bind tokens to DPoP keys (RFC 9449,
 * with nonces), and hand its resource over to another authorization server (SEP-2352).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { checkDpopProof } from './dpop-proof.js';

/** How the test server behaves. */
export interface OAuthServerOptions {
  /** The scope the resource asks for in its 401 (`WWW-Authenticate`). */
  scope?: string;
  /** Answer every authorized MCP request 403 `insufficient_scope` (a step-up that never succeeds). */
  refuseEveryScope?: boolean;
  /** Answer an MCP request 403 `insufficient_scope` naming this scope until a token grants it. */
  requiredScope?: string;
  /** Answer every authorized MCP request 403 without `insufficient_scope`. */
  forbidden?: boolean;
  /** A pre-registered confidential client for the client credentials grant. */
  machineClient?: { id: string; secret: string };
  /** Bytes of padding added to the authorization server's metadata (to pass a cap). */
  metadataPadding?: number;
  /** Fields of the authorization server's metadata replaced (a hostile issuer or endpoint). */
  metadata?: Record<string, unknown>;
  /** The protected resource metadata's `authorization_servers` (default: this server). */
  authorizationServers?: string[];
  /** The `iss` put on the authorization redirect, from this server's issuer (default: none). */
  redirectIss?: (issuer: string) => string | undefined;
  /** DPoP-bound tokens only (ES256 advertised); `nonce`: both endpoints ask for a DPoP nonce first. */
  dpop?: { nonce?: boolean };
  /** The scopes the authorization server's metadata lists (`scopes_supported`). */
  scopesSupported?: string[];
  /** Accept the jwt-bearer grant (RFC 7523) with this assertion, from a public client. */
  jwtBearerAssertion?: string;
  /**
   * Also play an enterprise identity provider (SEP-990) at `/idp/token`: this ID token is
   * exchanged (RFC 8693) for an ID-JAG, which the token endpoint takes as a jwt-bearer assertion.
   */
  idpIdToken?: string;
}

/** A running test server. */
export interface OAuthServer {
  /** The MCP endpoint. */
  url: string;
  /** What clients did. */
  counts: {
    register: number;
    authorize: number;
    code: number;
    refresh: number;
    machine: number;
    jwtBearer: number;
    mcp: number;
    /** DPoP nonce challenges answered with a proof carrying the nonce (token endpoint and resource). */
    dpopNonceRetries: number;
  };
  /** The scopes asked for at the authorization endpoint, in order. */
  requestedScopes: (string | null)[];
  /** The client ids seen at the authorization and token endpoints, in order. */
  clientIds: (string | null)[];
  /** The bodies of the dynamic registrations received, in order. */
  registrations: Record<string, unknown>[];
  /** The `Authorization` schemes of the MCP requests that got through, in order. */
  schemes: string[];
  /** The identity provider's token exchanges: the `audience` and `resource` each named. */
  idpExchanges: { audience: string | null; resource: string | null }[];
  /** The issuer (this server's origin). */
  issuer: string;
  /** The scope an access token this server issued grants, or `undefined`. */
  scopeOf(token: string): string | undefined;
  /**
   * The resource moves to `other` (SEP-2352): its metadata names `other` as the authorization
   * server, and only `other`'s tokens are accepted from now on.
   */
  moveTo(other: OAuthServer): void;
  /** Invalidates every access token issued so far (refresh tokens stay valid). */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify(body));
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const s256 = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');

/** Starts the server on a free port of 127.0.0.1. */
export async function startOAuthServer(options: OAuthServerOptions = {}): Promise<OAuthServer> {
  const counts = {
    register: 0,
    authorize: 0,
    code: 0,
    refresh: 0,
    machine: 0,
    jwtBearer: 0,
    mcp: 0,
    dpopNonceRetries: 0,
  };
  const requestedScopes: (string | null)[] = [];
  const clientIds: (string | null)[] = [];
  const registrations: Record<string, unknown>[] = [];
  const schemes: string[] = [];
  const idpExchanges: { audience: string | null; resource: string | null }[] = [];
  const grants = new Set<string>();
  const codes = new Map<string, { challenge: string; redirectUri: string; scope: string }>();
  const accessTokens = new Map<string, string>();
  const refreshTokens = new Map<string, string>();
  /** DPoP-bound access tokens: the thumbprint of their key. */
  const boundTo = new Map<string, string>();
  const jtis = new Set<string>();
  const nonces = {
    token: randomBytes(6).toString('hex'),
    resource: randomBytes(6).toString('hex'),
  };
  let base = '';
  let authorizationServers = options.authorizationServers;
  let tokenSource: Pick<OAuthServer, 'scopeOf'> = { scopeOf: (token) => accessTokens.get(token) };

  const issue = (scope: string, thumbprint?: string) => {
    const access = randomBytes(12).toString('hex');
    const refresh = randomBytes(12).toString('hex');
    accessTokens.set(access, scope);
    refreshTokens.set(refresh, scope);
    if (thumbprint !== undefined) boundTo.set(access, thumbprint);
    return {
      access_token: access,
      refresh_token: refresh,
      token_type: thumbprint === undefined ? 'Bearer' : 'DPoP',
      expires_in: 3600,
      scope,
    };
  };

  /** The DPoP check of the resource: `true` when it refused the request (and answered it). */
  const dpopRefusal = async (
    request: IncomingMessage,
    response: ServerResponse,
    token: string,
  ): Promise<boolean> => {
    const proof = await checkDpopProof(
      request.headers.dpop as string | undefined,
      {
        htm: 'POST',
        htu: `${base}/mcp`,
        accessToken: token,
        ...(options.dpop?.nonce === true ? { nonce: nonces.resource } : {}),
      },
      jtis,
    );
    if (proof.ok && proof.thumbprint === boundTo.get(token)) {
      if (proof.nonce !== undefined) counts.dpopNonceRetries++;
      return false;
    }
    const nonce = !proof.ok && proof.reason === 'nonce';
    json(
      response,
      401,
      { error: nonce ? 'use_dpop_nonce' : 'invalid_dpop_proof' },
      {
        'www-authenticate': `DPoP error="${nonce ? 'use_dpop_nonce' : 'invalid_dpop_proof'}", algs="ES256"`,
        ...(nonce ? { 'dpop-nonce': nonces.resource } : {}),
      },
    );
    return true;
  };

  const mcp = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const [scheme, token] = (request.headers.authorization ?? '').split(' ');
    const metadata = `${base}/.well-known/oauth-protected-resource/mcp`;
    const wanted = options.dpop === undefined ? 'Bearer' : 'DPoP';
    if (token === undefined || scheme !== wanted || tokenSource.scopeOf(token) === undefined) {
      const scope = options.scope === undefined ? '' : `, scope="${options.scope}"`;
      json(
        response,
        401,
        { error: 'invalid_token' },
        {
          'www-authenticate': `${wanted} error="invalid_token", resource_metadata="${metadata}"${scope}`,
        },
      );
      return;
    }
    if (options.dpop !== undefined && (await dpopRefusal(request, response, token))) return;
    schemes.push(scheme);
    const granted = tokenSource.scopeOf(token)?.split(' ') ?? [];
    if (options.requiredScope !== undefined && !granted.includes(options.requiredScope)) {
      json(
        response,
        403,
        { error: 'insufficient_scope' },
        {
          'www-authenticate': `Bearer error="insufficient_scope", scope="${options.requiredScope}", resource_metadata="${metadata}"`,
        },
      );
      return;
    }
    if (options.refuseEveryScope === true) {
      json(
        response,
        403,
        { error: 'insufficient_scope' },
        {
          'www-authenticate': `Bearer error="insufficient_scope", scope="mcp:admin", resource_metadata="${metadata}"`,
        },
      );
      return;
    }
    if (options.forbidden === true) {
      json(
        response,
        403,
        { error: 'forbidden' },
        { 'www-authenticate': 'Bearer error="access_denied"' },
      );
      return;
    }
    counts.mcp++;
    const server = new McpServer({ name: 'oauth-test', version: '1.0.0' });
    server.registerTool('whoami', { description: 'The scopes of the caller' }, () => ({
      content: [{ type: 'text', text: tokenSource.scopeOf(token) ?? '' }],
    }));
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true }); // stateless: no session ids
    await server.connect(transport);
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await transport.handleRequest(request, response, JSON.parse(await bodyOf(request)));
  };

  /** The DPoP proof of a token request: its key's thumbprint, or `undefined` when answered here. */
  const tokenProof = async (
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<string | undefined> => {
    const proof = await checkDpopProof(
      request.headers.dpop as string | undefined,
      {
        htm: 'POST',
        htu: `${base}/token`,
        ...(options.dpop?.nonce === true ? { nonce: nonces.token } : {}),
      },
      jtis,
    );
    if (proof.ok) {
      if (proof.nonce !== undefined) counts.dpopNonceRetries++;
      return proof.thumbprint;
    }
    if (proof.reason === 'nonce') {
      json(response, 400, { error: 'use_dpop_nonce' }, { 'dpop-nonce': nonces.token });
    } else json(response, 400, { error: 'invalid_dpop_proof', error_description: proof.reason });
    return undefined;
  };

  const token = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const form = new URLSearchParams(await bodyOf(request));
    const grant = form.get('grant_type');
    clientIds.push(form.get('client_id'));
    let thumbprint: string | undefined;
    if (options.dpop !== undefined) {
      thumbprint = await tokenProof(request, response);
      if (thumbprint === undefined) return;
    }
    if (grant === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (code === undefined || s256(form.get('code_verifier') ?? '') !== code.challenge) {
        json(response, 400, { error: 'invalid_grant' });
        return;
      }
      counts.code++;
      json(response, 200, issue(code.scope, thumbprint));
    } else if (grant === 'refresh_token') {
      const scope = refreshTokens.get(form.get('refresh_token') ?? '');
      if (scope === undefined) {
        json(response, 400, { error: 'invalid_grant' });
        return;
      }
      counts.refresh++;
      json(response, 200, issue(scope, thumbprint));
    } else if (grant === 'client_credentials' && options.machineClient !== undefined) {
      const { id, secret } = options.machineClient;
      const basic = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
      if (request.headers.authorization !== basic) {
        json(response, 401, { error: 'invalid_client' });
        return;
      }
      counts.machine++;
      json(response, 200, issue(form.get('scope') ?? '', thumbprint));
    } else if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      const assertion = form.get('assertion') ?? '';
      if (assertion !== options.jwtBearerAssertion && !grants.has(assertion)) {
        json(response, 400, { error: 'invalid_grant' });
        return;
      }
      counts.jwtBearer++;
      json(response, 200, issue(form.get('scope') ?? '', thumbprint));
    } else json(response, 400, { error: 'unsupported_grant_type' });
  };

  /** The identity provider's token exchange: the ID token for an ID-JAG. */
  const idpToken = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const form = new URLSearchParams(await bodyOf(request));
    if (
      form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange' ||
      form.get('subject_token') !== options.idpIdToken
    ) {
      json(response, 400, { error: 'invalid_grant' });
      return;
    }
    idpExchanges.push({ audience: form.get('audience'), resource: form.get('resource') });
    const jag = `id-jag-${randomBytes(8).toString('hex')}`;
    grants.add(jag);
    json(response, 200, {
      issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      access_token: jag,
      token_type: 'N_A',
      expires_in: 300,
    });
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', base);
    void (async () => {
      if (url.pathname === '/mcp' && request.method === 'POST') return mcp(request, response);
      if (url.pathname === '/mcp') return json(response, 405, { error: 'method not allowed' });
      if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
        return json(response, 200, {
          resource: `${base}/mcp`,
          authorization_servers: authorizationServers ?? [base],
        });
      }
      if (url.pathname === '/.well-known/oauth-authorization-server') {
        return json(response, 200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none', 'client_secret_basic'],
          ...(options.dpop === undefined ? {} : { dpop_signing_alg_values_supported: ['ES256'] }),
          ...(options.scopesSupported === undefined
            ? {}
            : { scopes_supported: options.scopesSupported }),
          ...(options.metadataPadding === undefined
            ? {}
            : { padding: 'x'.repeat(options.metadataPadding) }),
          ...options.metadata,
        });
      }
      if (url.pathname === '/register' && request.method === 'POST') {
        counts.register++;
        const metadata = JSON.parse(await bodyOf(request)) as Record<string, unknown>;
        registrations.push(metadata);
        return json(response, 201, {
          ...metadata,
          client_id: `${base}/client-${counts.register}`,
          token_endpoint_auth_method: 'none',
        });
      }
      if (url.pathname === '/authorize') {
        counts.authorize++;
        requestedScopes.push(url.searchParams.get('scope'));
        clientIds.push(url.searchParams.get('client_id'));
        const code = randomBytes(8).toString('hex');
        const redirectUri = url.searchParams.get('redirect_uri') ?? '';
        codes.set(code, {
          challenge: url.searchParams.get('code_challenge') ?? '',
          redirectUri,
          scope: url.searchParams.get('scope') ?? '',
        });
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        const state = url.searchParams.get('state');
        if (state !== null) back.searchParams.set('state', state);
        const iss = options.redirectIss?.(base);
        if (iss !== undefined) back.searchParams.set('iss', iss);
        response.writeHead(302, { location: back.href }).end();
        return;
      }
      if (url.pathname === '/token' && request.method === 'POST') return token(request, response);
      if (url.pathname === '/idp/token' && request.method === 'POST') {
        return idpToken(request, response);
      }
      json(response, 404, { error: 'not found' });
    })().catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    counts,
    requestedScopes,
    clientIds,
    registrations,
    schemes,
    idpExchanges,
    issuer: base,
    scopeOf: (token) => accessTokens.get(token),
    moveTo: (other) => {
      authorizationServers = [other.issuer];
      tokenSource = other;
    },
    expireAccessTokens: () => accessTokens.clear(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The user's browser: opens `url` and follows the redirects (to the loopback listener). */
export async function playBrowser(url: URL | string): Promise<void> {
  const response = await fetch(url);
  await response.body?.cancel();
}
