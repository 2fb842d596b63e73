/**
 * An OAuth-protected MCP server on 127.0.0.1 for the authorization tests: one HTTP server that
 * is both the resource (Streamable HTTP, one tool `whoami`) and its authorization server
 * (RFC 9728 and RFC 8414 metadata, dynamic registration, an authorization endpoint that
 * approves at once, a token endpoint for authorization codes with PKCE S256, refresh tokens and
 * client credentials). Counts what clients do, and can expire tokens or refuse every scope.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** How the test server behaves. */
export interface OAuthServerOptions {
  /** The scope the resource asks for in its 401 (`WWW-Authenticate`). */
  scope?: string;
  /** Answer every authorized MCP request 403 `insufficient_scope` (a step-up that never succeeds). */
  refuseEveryScope?: boolean;
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
    mcp: number;
  };
  /** The scopes asked for at the authorization endpoint, in order. */
  requestedScopes: (string | null)[];
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
  const counts = { register: 0, authorize: 0, code: 0, refresh: 0, machine: 0, mcp: 0 };
  const requestedScopes: (string | null)[] = [];
  const codes = new Map<string, { challenge: string; redirectUri: string; scope: string }>();
  const accessTokens = new Map<string, string>();
  const refreshTokens = new Map<string, string>();
  let base = '';

  const issue = (scope: string) => {
    const access = randomBytes(12).toString('hex');
    const refresh = randomBytes(12).toString('hex');
    accessTokens.set(access, scope);
    refreshTokens.set(refresh, scope);
    return {
      access_token: access,
      refresh_token: refresh,
      token_type: 'Bearer',
      expires_in: 3600,
      scope,
    };
  };

  const mcp = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const metadata = `${base}/.well-known/oauth-protected-resource/mcp`;
    if (token === undefined || !accessTokens.has(token)) {
      const scope = options.scope === undefined ? '' : `, scope="${options.scope}"`;
      json(
        response,
        401,
        { error: 'invalid_token' },
        {
          'www-authenticate': `Bearer error="invalid_token", resource_metadata="${metadata}"${scope}`,
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
      content: [{ type: 'text', text: accessTokens.get(token) ?? '' }],
    }));
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true }); // stateless: no session ids
    await server.connect(transport);
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await transport.handleRequest(request, response, JSON.parse(await bodyOf(request)));
  };

  const token = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const form = new URLSearchParams(await bodyOf(request));
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (code === undefined || s256(form.get('code_verifier') ?? '') !== code.challenge) {
        json(response, 400, { error: 'invalid_grant' });
        return;
      }
      counts.code++;
      json(response, 200, issue(code.scope));
    } else if (grant === 'refresh_token') {
      const scope = refreshTokens.get(form.get('refresh_token') ?? '');
      if (scope === undefined) {
        json(response, 400, { error: 'invalid_grant' });
        return;
      }
      counts.refresh++;
      json(response, 200, issue(scope));
    } else if (grant === 'client_credentials' && options.machineClient !== undefined) {
      const { id, secret } = options.machineClient;
      const basic = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
      if (request.headers.authorization !== basic) {
        json(response, 401, { error: 'invalid_client' });
        return;
      }
      counts.machine++;
      json(response, 200, issue(form.get('scope') ?? ''));
    } else json(response, 400, { error: 'unsupported_grant_type' });
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', base);
    void (async () => {
      if (url.pathname === '/mcp' && request.method === 'POST') return mcp(request, response);
      if (url.pathname === '/mcp') return json(response, 405, { error: 'method not allowed' });
      if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
        return json(response, 200, {
          resource: `${base}/mcp`,
          authorization_servers: options.authorizationServers ?? [base],
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
          ...(options.metadataPadding === undefined
            ? {}
            : { padding: 'x'.repeat(options.metadataPadding) }),
          ...options.metadata,
        });
      }
      if (url.pathname === '/register' && request.method === 'POST') {
        counts.register++;
        const metadata = JSON.parse(await bodyOf(request)) as Record<string, unknown>;
        return json(response, 201, {
          ...metadata,
          client_id: `client-${counts.register}`,
          token_endpoint_auth_method: 'none',
        });
      }
      if (url.pathname === '/authorize') {
        counts.authorize++;
        requestedScopes.push(url.searchParams.get('scope'));
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
        response.writeHead(302, { location: back.href }).end();
        return;
      }
      if (url.pathname === '/token' && request.method === 'POST') return token(request, response);
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
