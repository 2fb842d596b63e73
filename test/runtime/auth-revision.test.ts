/**
 * Authorization as MCP's 2026-07-28 revision and its authorization extensions ask (issue 32
 * item 6; AR): `application_type` in registration, the RFC 9207 `iss` of the redirect, DPoP-bound
 * tokens (RFC 9449) with nonces and a key kept in the token store, `offline_access`, an
 * authorization server move (SEP-2352), workload identity (RFC 7523 jwt-bearer),
 * enterprise-managed authorization (SEP-990) and step-ups that keep what was granted (SEP-2350). Real OAuth servers on 127.0.0.1
 * (test/support/oauth-server.ts), `connectServers` with the public options, the test playing
 * the user's browser.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { enterpriseAuthProvider } from '../../src/runtime/mcp/auth/enterprise.js';
import { fileTokenStore } from '../../src/runtime/mcp/auth/file-store.js';
import { oauthFromConfig } from '../../src/runtime/mcp/auth/resolve.js';
import { JWT_BEARER_GRANT } from '../../src/runtime/mcp/auth/settings.js';
import { memoryTokenStore, type TokenStore } from '../../src/runtime/mcp/auth/store.js';
import { connectServers, type ServerConnections } from '../../src/runtime/mcp/connect.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import {
  type OAuthServer,
  type OAuthServerOptions,
  playBrowser,
  startOAuthServer,
} from '../support/oauth-server.js';

const servers: OAuthServer[] = [];
let connections: ServerConnections | undefined;
const temporary: string[] = [];

afterEach(async () => {
  await connections?.close();
  connections = undefined;
  for (const server of servers.splice(0)) await server.close();
  for (const dir of temporary.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function started(options: OAuthServerOptions = {}): Promise<OAuthServer> {
  const server = await startOAuthServer(options);
  servers.push(server);
  return server;
}

/** Connects `url` as server "docs", authorized by `oauthFromConfig` playing the browser. */
async function connected(url: string, store: TokenStore = memoryTokenStore()) {
  connections = await connectServers(
    { mcpServers: { docs: { url } } },
    { auth: oauthFromConfig({ store, onAuthorizationUrl: playBrowser }) },
  );
  return connections;
}

/** The refusal `promise` ends in. */
async function refusal(promise: Promise<unknown>): Promise<GeminiMcpError> {
  const error = await promise.then(
    (value) => {
      connections = value as ServerConnections;
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GeminiMcpError);
  return error as GeminiMcpError;
}

/** Calls `whoami` through a scripted model turn; what it answered (the token's scope). */
async function whoami(servers: ServerConnections): Promise<unknown> {
  const answer = await answerCalls(
    { role: 'model', parts: [{ functionCall: { name: 'whoami', args: {} } }] },
    servers.toolset,
    servers.clients,
  );
  return answer.parts[0]?.functionResponse.response;
}

describe('authorization of the 2026-07-28 revision (AR)', () => {
  it('AR-1: dynamic registration says application_type "native" for the loopback redirect (SEP-837), and asks for refresh tokens', async () => {
    const server = await started();
    await connected(server.url);
    expect(server.registrations).toEqual([
      expect.objectContaining({
        application_type: 'native',
        grant_types: ['authorization_code', 'refresh_token'],
        redirect_uris: [expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/)],
      }),
    ]);
  });

  const ADVERTISED = { authorization_response_iss_parameter_supported: true };

  it.each([
    ['advertised and sent exactly', ADVERTISED, (issuer: string) => issuer],
    ['neither advertised nor sent', {}, () => undefined],
    ['sent exactly without being advertised', {}, (issuer: string) => issuer],
  ])('AR-2: an iss %s on the redirect is accepted (RFC 9207)', async (_, metadata, redirectIss) => {
    const server = await started({ metadata, redirectIss });
    expect(await whoami(await connected(server.url))).toEqual({ output: '' });
    expect(server.counts.code).toBe(1);
  });

  it.each([
    ['missing although advertised', ADVERTISED, () => undefined, 'has no iss'],
    ['of another issuer (not advertised)', {}, () => 'https://evil.example', 'is not "http'],
    ['of another issuer (advertised)', ADVERTISED, () => 'https://evil.example', 'is not "http'],
    [
      'the issuer with a trailing slash (no normalization)',
      ADVERTISED,
      (i: string) => `${i}/`,
      'is not "http',
    ],
  ])(
    'AR-2: an iss %s is refused before the code is exchanged, the value received never quoted',
    async (_, metadata, redirectIss, said) => {
      const server = await started({ metadata, redirectIss });
      const error = await refusal(connected(server.url));
      expect(error.code).toBe('UNAUTHORIZED');
      expect(error.message).toContain(said);
      expect(error.message).toContain('RFC 9207');
      expect(error.message).not.toContain('evil.example');
      expect(server.counts).toMatchObject({ authorize: 1, code: 0 });
    },
  );

  it('AR-3: a DPoP authorization server gets a proof at the token endpoint and a DPoP-bound token is sent with a fresh proof on every request; the key is kept in the token file', async () => {
    const server = await started({ dpop: {}, scope: 'mcp:read' });
    const dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-dpop-'));
    temporary.push(dir);
    const store = fileTokenStore({ dir: join(dir, 'oauth') });
    const servers = await connected(server.url, store);
    expect(await whoami(servers)).toEqual({ output: 'mcp:read' });
    expect(await whoami(servers)).toEqual({ output: 'mcp:read' });
    expect(server.schemes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(server.schemes)).toEqual(new Set(['DPoP']));
    const stored = await store.load(server.url);
    expect(stored?.tokens?.token_type).toBe('DPoP');
    expect(stored?.dpopKey).toMatchObject({ alg: 'ES256', thumbprint: expect.any(String) });
    await servers.close();

    // Another run (a new provider, the store read from its file): the key still proves the token.
    const again = fileTokenStore({ dir: join(dir, 'oauth') });
    expect(await whoami(await connected(server.url, again))).toEqual({ output: 'mcp:read' });
    expect(server.counts).toMatchObject({ authorize: 1, code: 1 });
  });

  it('AR-3: a DPoP nonce asked for by the token endpoint (use_dpop_nonce) and by the resource (DPoP-Nonce) is put in a new proof and the request sent again', async () => {
    const server = await started({ dpop: { nonce: true } });
    expect(await whoami(await connected(server.url))).toEqual({ output: '' });
    // Every proof that got through carried the nonce: the token request's and the resource's.
    expect(server.counts.code).toBe(1);
    expect(server.counts.dpopNonceRetries).toBeGreaterThanOrEqual(2);
    expect(new Set(server.schemes)).toEqual(new Set(['DPoP']));
  });

  it('AR-3: a stored DPoP key that is not an ES256 key pair (a hand-edited store) is not used: a new one is made and stored', async () => {
    const server = await started({ dpop: {} });
    const store = memoryTokenStore();
    const forged = {
      alg: 'ES256',
      thumbprint: 'x',
      privateJwk: { kty: 'oct', k: 'AA' },
      publicJwk: {},
    };
    await store.save(server.url, JSON.parse(JSON.stringify({ dpopKey: forged })));
    expect(await whoami(await connected(server.url, store))).toEqual({ output: '' });
    const stored = await store.load(server.url);
    expect(stored?.dpopKey?.thumbprint).not.toBe('x');
    expect(stored?.dpopKey?.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
  });

  it('AR-3: an authorization server that does not list ES256 for DPoP gets bearer tokens', async () => {
    const server = await started();
    const store = memoryTokenStore();
    await connected(server.url, store);
    expect((await store.load(server.url))?.dpopKey).toBeUndefined();
    expect(new Set(server.schemes)).toEqual(new Set(['Bearer']));
  });

  it('AR-4: offline_access is asked for when the authorization server lists it, and the refresh token kept', async () => {
    const server = await started({
      scope: 'mcp:read',
      scopesSupported: ['mcp:read', 'offline_access'],
    });
    const store = memoryTokenStore();
    await connected(server.url, store);
    expect(server.requestedScopes).toEqual(['mcp:read offline_access']);
    expect((await store.load(server.url))?.tokens?.refresh_token).toEqual(expect.any(String));
  });

  it('AR-4: offline_access is not asked for when the authorization server does not list it', async () => {
    const server = await started({ scope: 'mcp:read', scopesSupported: ['mcp:read'] });
    await connected(server.url);
    expect(server.requestedScopes).toEqual(['mcp:read']);
  });

  it('AR-5: when the resource moves to another authorization server (SEP-2352), the client registers there anew and never shows it the old client id or tokens', async () => {
    const resource = await started({ scope: 'mcp:read' });
    const next = await started();
    const store = memoryTokenStore();
    const servers = await connected(resource.url, store);
    const [oldClient] = resource.clientIds;
    expect(oldClient).toMatch(/client-1$/);

    resource.moveTo(next);
    expect(await whoami(servers)).toEqual({ output: 'mcp:read' });
    expect(next.counts).toMatchObject({ register: 1, authorize: 1, code: 1 });
    expect(next.clientIds).not.toContain(oldClient);
    expect(next.counts.refresh).toBe(0);
    const stored = await store.load(resource.url);
    expect(stored?.clientInformation).toMatchObject({ issuer: next.issuer });
    expect(stored?.tokens).toMatchObject({ issuer: next.issuer });
  });

  it("AR-6: workload identity from an entry's oauth section: the platform token in assertionFile is sent as a jwt-bearer assertion, no browser, no registration", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-wif-'));
    temporary.push(dir);
    const assertionFile = join(dir, 'token');
    await writeFile(assertionFile, 'platform-token-1\n');
    const server = await started({ jwtBearerAssertion: 'platform-token-1' });
    connections = await connectServers({
      mcpServers: {
        docs: {
          url: server.url,
          oauth: {
            grantType: JWT_BEARER_GRANT,
            clientId: 'workload',
            assertionFile,
            scopes: ['mcp:run'],
          },
        },
      },
    });
    expect(await whoami(connections)).toEqual({ output: 'mcp:run' });
    expect(server.counts).toMatchObject({ jwtBearer: 1, authorize: 0, register: 0 });
    expect(server.clientIds).toEqual(['workload']);
  });

  it('AR-6: a workload token the authorization server refuses is UNAUTHORIZED naming the server', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-wif-'));
    temporary.push(dir);
    const assertionFile = join(dir, 'token');
    await writeFile(assertionFile, 'expired-token');
    const server = await started({ jwtBearerAssertion: 'platform-token-1' });
    const error = await refusal(
      connectServers({
        mcpServers: {
          docs: {
            url: server.url,
            oauth: { grantType: JWT_BEARER_GRANT, clientId: 'workload', assertionFile },
          },
        },
      }),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain('server "docs" answered HTTP 401');
    expect(error.message).toContain('invalid_grant');
    expect(server.counts.jwtBearer).toBe(0);
  });

  it('AR-6: an assertion file over 64 KiB is refused, typed, and nothing is sent to the token endpoint', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-wif-'));
    temporary.push(dir);
    const assertionFile = join(dir, 'token');
    await writeFile(assertionFile, 'x'.repeat(64 * 1024 + 1));
    const server = await started({ jwtBearerAssertion: 'platform-token-1' });
    const error = await refusal(
      connectServers({
        mcpServers: {
          docs: {
            url: server.url,
            oauth: { grantType: JWT_BEARER_GRANT, clientId: 'workload', assertionFile },
          },
        },
      }),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain('holds more than 65536 bytes');
    expect(server.clientIds).toEqual([]);
  });

  it("AR-7: enterprise-managed authorization (SEP-990): the ID token is exchanged at the identity provider for an ID-JAG naming the server's authorization server and resource, and the ID-JAG for an access token", async () => {
    const server = await started({ idpIdToken: 'id-token-of-alice' });
    connections = await connectServers(
      { mcpServers: { docs: { url: server.url } } },
      {
        auth: {
          docs: enterpriseAuthProvider({
            idpTokenEndpoint: `${server.issuer}/idp/token`,
            idToken: async () => 'id-token-of-alice',
            idpClientId: 'agent-at-idp',
            clientId: 'agent',
            clientSecret: 's3cret',
            expectedIssuer: server.issuer,
          }),
        },
      },
    );
    expect(await whoami(connections)).toEqual({ output: '' });
    expect(server.idpExchanges).toEqual([{ audience: server.issuer, resource: server.url }]);
    expect(server.counts).toMatchObject({ jwtBearer: 1, authorize: 0, register: 0 });
  });

  it('AR-7: an identity provider token endpoint over plain http to another host is refused before any request', () => {
    expect(() =>
      enterpriseAuthProvider({
        idpTokenEndpoint: 'http://198.51.100.2/token',
        idToken: 'id',
        idpClientId: 'a',
        clientId: 'b',
        clientSecret: 'c',
      }),
    ).toThrow(/OAuth refused the identity provider's token endpoint/);
  });

  it('AR-8: a scope step-up asks for the scopes granted before and the one the 403 names (SEP-2350)', async () => {
    const server = await started({ scope: 'mcp:read', requiredScope: 'mcp:admin' });
    expect(await whoami(await connected(server.url))).toEqual({ output: 'mcp:read mcp:admin' });
    expect(server.requestedScopes).toEqual(['mcp:read', 'mcp:read mcp:admin']);
  });
});
