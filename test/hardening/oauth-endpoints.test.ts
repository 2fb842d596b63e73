/**
 * Issue 38 items 1-3 (unit tier: in process, every server on 127.0.0.1): what a hostile
 * authorization server's metadata points to never reaches a person, a callback or the network.
 * Only `https:` (or `http:` to a loopback host) for every endpoint of the flow and every URL shown
 * to open; the metadata's `issuer` must be the one its URL was formed from (RFC 8414 §3.3).
 * Addresses outside loopback (198.51.100.2, TEST-NET-2) are refused before any request, so no test
 * here sends a packet past loopback (the unit guard would fail one that tried).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { checkOAuthUrl, oauthDocumentChecker } from '../../src/runtime/mcp/auth/endpoint-rule.js';
import { oauthFromConfig } from '../../src/runtime/mcp/auth/resolve.js';
import { connectServers, type ServerConnections } from '../../src/runtime/mcp/connect.js';
import {
  type OAuthServer,
  type OAuthServerOptions,
  playBrowser,
  startOAuthServer,
} from '../support/oauth-server.js';

let server: OAuthServer | undefined;
let connections: ServerConnections | undefined;

afterEach(async () => {
  await connections?.close();
  connections = undefined;
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

/** Connects to a test server behaving as `options` says, playing the browser for every URL shown. */
async function refusedConnect(
  options: OAuthServerOptions,
): Promise<{ error: GeminiMcpError; shown: URL[] }> {
  server = await startOAuthServer(options);
  const shown: URL[] = [];
  const auth = oauthFromConfig({
    onAuthorizationUrl: async (url) => {
      shown.push(url);
      await playBrowser(url);
    },
  });
  const outcome = await connectServers(
    { mcpServers: { docs: { url: server.url } } },
    { auth },
  ).then(
    (connected) => {
      connections = connected;
      return undefined;
    },
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(GeminiMcpError);
  return { error: outcome as GeminiMcpError, shown };
}

describe('OAuth endpoints and URLs (issue 38 items 1-3)', () => {
  it.each([
    ['file:///etc/passwd', 'file:'],
    ['smb://host/share', 'smb:'],
    ['ms-msdt:/id PCWDiagnostic', 'ms-msdt:'],
    ['javascript:alert(1)', 'javascript:'],
  ])(
    'item 1: an authorization_endpoint of %s never reaches onAuthorizationUrl; UNAUTHORIZED names %s',
    async (endpoint, scheme) => {
      const { error, shown } = await refusedConnect({
        metadata: { authorization_endpoint: endpoint },
      });
      expect(shown).toEqual([]);
      expect(error.code).toBe('UNAUTHORIZED');
      expect(error.message).toContain(`the scheme ${scheme} is not allowed`);
      expect(server?.counts.register).toBe(0);
    },
  );

  it.each([
    ['token_endpoint', 'http://198.51.100.2/token'],
    ['registration_endpoint', 'http://198.51.100.2/register'],
    ['authorization_endpoint', 'http://198.51.100.2/authorize'],
  ])(
    'item 2: a %s over plain http to a host that is not loopback is refused before any request of the flow',
    async (field, endpoint) => {
      const { error, shown } = await refusedConnect({ metadata: { [field]: endpoint } });
      expect(shown).toEqual([]);
      expect(error.code).toBe('UNAUTHORIZED');
      expect(error.message).toContain('plain http: to 198.51.100.2, which is not a loopback host');
      expect(server?.counts).toMatchObject({ register: 0, authorize: 0, code: 0 });
    },
  );

  it('item 2: an authorization server advertised over plain http to another host is never asked (no request past loopback)', async () => {
    const { error, shown } = await refusedConnect({
      authorizationServers: ['http://198.51.100.2'],
    });
    expect(shown).toEqual([]);
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain('198.51.100.2');
  });

  it('item 3: metadata whose issuer is not where it was fetched from is not used (RFC 8414 section 3.3)', async () => {
    const { error, shown } = await refusedConnect({ metadata: { issuer: 'https://evil.example' } });
    expect(shown).toEqual([]);
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain('its issuer "https://evil.example" is not');
    expect(server?.counts.register).toBe(0);
  });

  it('the issuer a well-known URL was formed from: inserted (RFC 8414) and appended (OpenID Connect), one trailing slash tolerated; checked for an advertised authorization server', () => {
    const advertised = (server: string) => {
      const check = oauthDocumentChecker();
      check(
        new URL('https://mcp.example/.well-known/oauth-protected-resource'),
        JSON.stringify({ resource: 'https://mcp.example', authorization_servers: [server] }),
      );
      return (url: string, issuer: string) => () => check(new URL(url), JSON.stringify({ issuer }));
    };
    const tenant = advertised('https://a.example/tenant');
    expect(
      tenant(
        'https://a.example/.well-known/oauth-authorization-server/tenant',
        'https://a.example/tenant',
      ),
    ).not.toThrow();
    expect(
      tenant(
        'https://a.example/tenant/.well-known/openid-configuration',
        'https://a.example/tenant/',
      ),
    ).not.toThrow();
    expect(
      tenant(
        'https://a.example/.well-known/oauth-authorization-server/tenant',
        'https://a.example',
      ),
    ).toThrow(GeminiMcpError);
    expect(
      advertised('https://a.example')(
        'https://a.example/.well-known/oauth-authorization-server',
        'https://a.example/',
      ),
    ).not.toThrow();
    // Found the 2025-03-26 way (no resource metadata advertised it): its issuer is its own, its endpoints still checked.
    const legacy = oauthDocumentChecker();
    const metadata = (endpoint: string) =>
      JSON.stringify({ issuer: 'https://mcp.example/oauth', authorization_endpoint: endpoint });
    const at = new URL('https://mcp.example/.well-known/oauth-authorization-server');
    expect(() => legacy(at, metadata('https://mcp.example/authorize'))).not.toThrow();
    expect(() => legacy(at, metadata('file:///etc/passwd'))).toThrow(GeminiMcpError);
    // Not a metadata document: passes.
    expect(() => legacy(new URL('https://a.example/token'), '{"issuer": "x"}')).not.toThrow();
  });

  it('a development setup names a host in GEMINI_MCP_INSECURE_OAUTH_HOSTS: http to it passes, announced once by a process warning', () => {
    expect(() => checkOAuthUrl('http://auth.dev.internal/token', 'a request to')).toThrow(
      /GEMINI_MCP_INSECURE_OAUTH_HOSTS/,
    );
    vi.stubEnv('GEMINI_MCP_INSECURE_OAUTH_HOSTS', 'other.example, auth.dev.internal');
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      checkOAuthUrl('http://auth.dev.internal/token', 'a request to');
      checkOAuthUrl('http://auth.dev.internal/register', 'a request to');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain('auth.dev.internal');
      // Only http is let through, and only to the hosts named.
      expect(() => checkOAuthUrl('file:///etc/passwd', 'a request to')).toThrow(GeminiMcpError);
      expect(() => checkOAuthUrl('http://198.51.100.2/token', 'a request to')).toThrow(
        GeminiMcpError,
      );
    } finally {
      warn.mockRestore();
    }
  });
});
