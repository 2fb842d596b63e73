/**
 * Authorization of Streamable HTTP servers (AU): a real OAuth-protected MCP server on
 * 127.0.0.1 (test/support/oauth-server.ts), `connectServers` with the public options, and the
 * test playing the user's browser.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import {
  DEFAULT_MAX_STEP_UPS,
  MAX_AUTH_RESPONSE_BYTES,
} from '../../src/runtime/mcp/auth/authorize.js';
import { fileTokenStore, MAX_STORED_BYTES } from '../../src/runtime/mcp/auth/file-store.js';
import { oauthFromConfig } from '../../src/runtime/mcp/auth/resolve.js';
import { JWT_BEARER_GRANT } from '../../src/runtime/mcp/auth/settings.js';
import { memoryTokenStore } from '../../src/runtime/mcp/auth/store.js';
import { parseServersConfig } from '../../src/runtime/mcp/config/index.js';
import { connectServers, type ServerConnections } from '../../src/runtime/mcp/connect.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { type OAuthServer, playBrowser, startOAuthServer } from '../support/oauth-server.js';

let server: OAuthServer | undefined;
let connections: ServerConnections | undefined;
const temporary: string[] = [];

afterEach(async () => {
  await connections?.close();
  connections = undefined;
  await server?.close();
  server = undefined;
  for (const dir of temporary.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<GeminiMcpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GeminiMcpError);
  return error as GeminiMcpError;
}

/** Calls `whoami` through a scripted model turn; the text it answered (the token's scope). */
async function whoami(servers: ServerConnections): Promise<unknown> {
  const answer = await answerCalls(
    { role: 'model', parts: [{ functionCall: { name: 'whoami', args: {} } }] },
    servers.toolset,
    servers.clients,
  );
  return answer.parts[0]?.functionResponse.response;
}

describe('authorization (AU)', () => {
  it('AU-1: a 401 with no authorization configured is UNAUTHORIZED naming the server, the scope and the resource metadata', async () => {
    server = await startOAuthServer({ scope: 'mcp:read' });
    const error = await refusal(connectServers({ mcpServers: { docs: { url: server.url } } }));
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain('server "docs" answered HTTP 401');
    expect(error.data).toMatchObject({
      serverId: 'docs',
      status: 401,
      scope: 'mcp:read',
      resourceMetadata: expect.stringContaining('/.well-known/oauth-protected-resource/mcp'),
    });
  });

  it('AU-1: a 403 that is not insufficient_scope is UNAUTHORIZED at once (no authorization loop)', async () => {
    server = await startOAuthServer({ forbidden: true });
    const shown: URL[] = [];
    const error = await refusal(
      connectServers(
        { mcpServers: { docs: { url: server.url } } },
        {
          auth: oauthFromConfig({
            onAuthorizationUrl: async (url) => {
              shown.push(url);
              await playBrowser(url);
            },
          }),
        },
      ),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.data).toMatchObject({ status: 403, error: 'access_denied' });
    expect(shown).toHaveLength(1);
  });

  it('AU-2: the authorization code flow (discovery, registration, PKCE S256) through the loopback listener; tokens kept in the store', async () => {
    server = await startOAuthServer({ scope: 'mcp:read' });
    const store = memoryTokenStore();
    const shown: URL[] = [];
    const auth = oauthFromConfig({
      store,
      onAuthorizationUrl: async (url, target) => {
        expect(target.serverId).toBe('docs');
        shown.push(url);
        await playBrowser(url);
      },
    });
    connections = await connectServers({ mcpServers: { docs: { url: server.url } } }, { auth });
    expect(connections.toolset.entries.map((e) => e.exposedName)).toEqual(['whoami']);
    expect(await whoami(connections)).toEqual({ output: 'mcp:read' });
    const [url] = shown;
    expect(url?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url?.searchParams.get('scope')).toBe('mcp:read');
    expect(url?.searchParams.get('redirect_uri')).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/,
    );
    expect(server.counts).toMatchObject({ register: 1, authorize: 1, code: 1 });
    expect((await store.load(server.url))?.tokens?.access_token).toMatch(/^[0-9a-f]+$/);
    await connections.close();

    // Next time the stored token is used: no browser, no registration.
    connections = await connectServers({ mcpServers: { docs: { url: server.url } } }, { auth });
    expect(shown).toHaveLength(1);
    expect(server.counts).toMatchObject({ register: 1, authorize: 1 });
  });

  it('AU-2: a redirect that comes back with another state is refused, and no code is exchanged', async () => {
    server = await startOAuthServer();
    const error = await refusal(
      connectServers(
        { mcpServers: { docs: { url: server.url } } },
        {
          auth: oauthFromConfig({
            onAuthorizationUrl: async (url) => {
              const back = new URL(url.searchParams.get('redirect_uri') ?? '');
              back.searchParams.set('code', 'forged');
              back.searchParams.set('state', 'not-the-one');
              expect((await fetch(back)).status).toBe(400);
            },
          }),
        },
      ),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain('another state');
    expect(server.counts.code).toBe(0);
  });

  it('AU-2: the loopback listener gives up after authorizationTimeoutMs, typed', async () => {
    server = await startOAuthServer();
    const error = await refusal(
      connectServers(
        { mcpServers: { docs: { url: server.url } } },
        {
          auth: oauthFromConfig({
            authorizationTimeoutMs: 300,
            onAuthorizationUrl: () => undefined,
          }),
        },
      ),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain('no authorization came back');
  });

  it('AU-2: without onAuthorizationUrl a flow that needs the browser is UNAUTHORIZED naming the authorization server', async () => {
    server = await startOAuthServer();
    const error = await refusal(
      connectServers({ mcpServers: { docs: { url: server.url } } }, { auth: oauthFromConfig() }),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toMatch(
      /needs the user to authorize in a browser \(http:\/\/127\.0\.0\.1:\d+\/authorize\)/,
    );
  });

  it('AU-3: an access token that expired is refreshed on the 401, without the browser', async () => {
    server = await startOAuthServer({ scope: 'mcp:read' });
    const shown: URL[] = [];
    connections = await connectServers(
      { mcpServers: { docs: { url: server.url } } },
      {
        auth: oauthFromConfig({
          onAuthorizationUrl: async (url) => {
            shown.push(url);
            await playBrowser(url);
          },
        }),
      },
    );
    server.expireAccessTokens();
    expect(await whoami(connections)).toEqual({ output: 'mcp:read' });
    expect(server.counts).toMatchObject({ authorize: 1, refresh: 1 });
    expect(shown).toHaveLength(1);
  });

  it(`AU-4: 403 insufficient_scope is answered by a step-up, at most ${DEFAULT_MAX_STEP_UPS} in a row, then UNAUTHORIZED`, async () => {
    server = await startOAuthServer({ refuseEveryScope: true });
    const error = await refusal(
      connectServers(
        { mcpServers: { docs: { url: server.url } } },
        { auth: oauthFromConfig({ onAuthorizationUrl: playBrowser }) },
      ),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain(`still refused after ${DEFAULT_MAX_STEP_UPS} scope step-ups`);
    expect(error.data).toMatchObject({
      status: 403,
      error: 'insufficient_scope',
      scope: 'mcp:admin',
    });
    // The first authorization, then one per step-up, each asking the scope the 403 named.
    expect(server.counts.authorize).toBe(1 + DEFAULT_MAX_STEP_UPS);
    expect(server.requestedScopes.slice(1)).toEqual(Array(DEFAULT_MAX_STEP_UPS).fill('mcp:admin'));
  });

  it("AU-5: client credentials (machine-to-machine) from the entry's oauth section, no browser", async () => {
    server = await startOAuthServer({ machineClient: { id: 'bot', secret: 's3cret' } });
    connections = await connectServers({
      mcpServers: {
        docs: {
          url: server.url,
          oauth: {
            grantType: 'client_credentials',
            clientId: 'bot',
            clientSecret: 's3cret',
            scopes: ['mcp:tools'],
          },
        },
      },
    });
    expect(await whoami(connections)).toEqual({ output: 'mcp:tools' });
    expect(server.counts).toMatchObject({ machine: 1, authorize: 0, register: 0 });
  });

  it('AU-5: an oauth section with "enabled": false gets no authorization', async () => {
    server = await startOAuthServer({ machineClient: { id: 'bot', secret: 's3cret' } });
    const error = await refusal(
      connectServers({
        mcpServers: {
          docs: {
            url: server.url,
            oauth: {
              enabled: false,
              grantType: 'client_credentials',
              clientId: 'bot',
              clientSecret: 's3cret',
            },
          },
        },
      }),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    expect(server.counts.machine).toBe(0);
  });

  it(`AU-6: the file store keeps one 0600 file per server in a 0700 folder; a file over ${MAX_STORED_BYTES} bytes or not ours reads as nothing`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-tokens-'));
    temporary.push(dir);
    const folder = join(dir, 'oauth');
    const store = fileTokenStore({ dir: folder });
    await store.save('https://a.example/mcp', {
      tokens: { access_token: 'a', token_type: 'Bearer' },
    });
    // A new store (another process) reads the file.
    const reread = () => fileTokenStore({ dir: folder }).load('https://a.example/mcp');
    expect(await reread()).toEqual({ tokens: { access_token: 'a', token_type: 'Bearer' } });
    expect(await store.load('https://b.example/mcp')).toBeUndefined();
    const names = await readdir(folder);
    expect(names).toHaveLength(1);
    const path = join(folder, names[0]!);
    if (process.platform !== 'win32') {
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect((await stat(folder)).mode & 0o777).toBe(0o700);
    }
    expect(await readFile(path, 'utf8')).not.toContain('b.example');
    await writeFile(
      path,
      JSON.stringify({
        key: 'https://a.example/mcp',
        stored: {},
        pad: 'x'.repeat(MAX_STORED_BYTES),
      }),
    );
    expect(await reread()).toBeUndefined();
    await writeFile(path, 'not json');
    expect(await reread()).toBeUndefined();
    await store.save('https://a.example/mcp', {});
    expect(await readdir(folder)).toEqual([]);
  });

  it('AU-7: the oauth section of an entry is checked: wrong types, a URL that does not parse, a redirect that is not loopback, a grant without what it needs', () => {
    const entry = (oauth: unknown) => ({
      mcpServers: { docs: { url: 'https://docs.example.com/mcp', oauth } },
    });
    expect(
      parseServersConfig(entry({ clientId: 'app', scopes: ['read'], audiences: ['x'] }))[0],
    ).toMatchObject({
      config: { oauth: { clientId: 'app', scopes: ['read'] } },
    });
    // Any loopback address may take the redirect (127.0.0.0/8, the one loopback rule).
    expect(parseServersConfig(entry({ redirectUri: 'http://127.0.0.5:7777/cb' }))[0]).toMatchObject(
      { config: { oauth: { redirectUri: 'http://127.0.0.5:7777/cb' } } },
    );
    for (const [oauth, path, message] of [
      ['yes', '/mcpServers/docs/oauth', 'must be an object'],
      [{ clientId: 7 }, '/mcpServers/docs/oauth/clientId', 'must be a string'],
      [{ scopes: 'read' }, '/mcpServers/docs/oauth/scopes', 'must be an array of strings'],
      [{ tokenUrl: 'not a url' }, '/mcpServers/docs/oauth/tokenUrl', 'is not a URL'],
      [
        { redirectUri: 'https://evil.example/cb' },
        '/mcpServers/docs/oauth/redirectUri',
        'must be a loopback',
      ],
      [{ grantType: 'password' }, '/mcpServers/docs/oauth/grantType', 'must be'],
      [
        { grantType: 'client_credentials', clientId: 'x' },
        '/mcpServers/docs/oauth',
        'grantType "client_credentials" needs clientId and clientSecret',
      ],
      [
        { grantType: JWT_BEARER_GRANT, clientId: 'workload' },
        '/mcpServers/docs/oauth',
        `grantType "${JWT_BEARER_GRANT}" needs clientId and assertionFile`,
      ],
      [{ assertionFile: 7 }, '/mcpServers/docs/oauth/assertionFile', 'must be a string'],
    ] as const) {
      expect(() => parseServersConfig(entry(oauth)), JSON.stringify(oauth)).toThrow(
        expect.objectContaining({
          code: 'CONFIG_INVALID',
          path,
          message: expect.stringContaining(`${path}: ${message}`),
        }),
      );
    }
  });

  it(`AU-8: an authorization server's answer over ${MAX_AUTH_RESPONSE_BYTES} bytes is refused, typed (bounded read)`, async () => {
    server = await startOAuthServer({ metadataPadding: MAX_AUTH_RESPONSE_BYTES });
    const error = await refusal(
      connectServers(
        { mcpServers: { docs: { url: server.url } } },
        { auth: oauthFromConfig({ onAuthorizationUrl: playBrowser }) },
      ),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain(`more than ${MAX_AUTH_RESPONSE_BYTES} bytes`);
    expect(server.counts.authorize).toBe(0);
  });
});
