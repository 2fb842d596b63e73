/**
 * Issue 32 item 1 (integration tier: stdio servers are started): every server gets the newest
 * revision it speaks, in the same `connectServers`. Servers of the v2 SDK that speak only
 * 2026-07-28 (they refuse `initialize`) and servers of the v1 SDK (2025 only), over stdio and
 * Streamable HTTP on loopback, each reported in `status` on its own revision; a tool added on
 * either revision (`tools/list_changed`, on 2026-07-28 over `subscriptions/listen`) is in the
 * rebuilt set; a server that refuses both the probe and `initialize` is read with its own reason.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectServers, type ServerConnections } from '../../src/runtime/mcp/connect.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { type RunningHttpServer, startStreamableHttpServer } from '../support/http-servers.js';
import {
  MODERN_UNLOCK_STDIO,
  type RunningModernServer,
  startModernHttpServer,
  supportServerStdio,
} from '../support/modern-unlock-server.js';
import { UNLOCK_SERVER, UNLOCKED_TOOL } from '../support/unlock-server.js';

const SLOW = 60_000;

let connections: ServerConnections | undefined;
let modernHttp: RunningModernServer | undefined;
let legacyHttp: RunningHttpServer | undefined;
afterEach(async () => {
  await connections?.close();
  await modernHttp?.close();
  await legacyHttp?.close();
  connections = undefined;
  modernHttp = undefined;
  legacyHttp = undefined;
});

/** The four servers, two per revision, in one connectServers. */
async function connectAll(): Promise<ServerConnections> {
  modernHttp = await startModernHttpServer();
  legacyHttp = await startStreamableHttpServer();
  connections = await connectServers(
    {
      mcpServers: {
        modernStdio: MODERN_UNLOCK_STDIO,
        legacyStdio: UNLOCK_SERVER,
        modernHttp: { url: modernHttp.url },
        legacyHttp: { url: `${legacyHttp.origin}/mcp` },
      },
    },
    { stderr: 'ignore', timeoutMs: 20_000 },
  );
  return connections;
}

/** The names of one server's tools in the current set. */
function toolsOf(servers: ServerConnections, serverId: string): string[] {
  return servers.toolset.entries
    .filter((entry) => entry.serverId === serverId)
    .map((entry) => entry.tool.name)
    .sort();
}

describe('issue 32 item 1: each server on the newest revision it speaks', () => {
  it(
    'modern-only and legacy servers, over stdio and HTTP, in one connectServers: each reported on its own revision, and called',
    async () => {
      const servers = await connectAll();
      expect(Object.fromEntries(servers.status)).toEqual({
        modernStdio: { protocolVersion: '2026-07-28', era: 'modern', transport: 'stdio' },
        legacyStdio: {
          protocolVersion: expect.stringMatching(/^2025-/),
          era: 'legacy',
          transport: 'stdio',
        },
        modernHttp: { protocolVersion: '2026-07-28', era: 'modern', transport: 'streamable-http' },
        legacyHttp: {
          protocolVersion: expect.stringMatching(/^2025-/),
          era: 'legacy',
          transport: 'streamable-http',
        },
      });
      // The modern server was asked server/discover first, and never initialize.
      expect(modernHttp?.methods[0]).toBe('server/discover');
      expect(modernHttp?.methods).not.toContain('initialize');
      expect(toolsOf(servers, 'modernHttp')).toEqual(['echo', 'unlock']);
      expect(toolsOf(servers, 'legacyHttp')).toEqual(['bitcoin_price', 'hello']);
      const echo = (serverId: string) =>
        servers.toolset.entries.find((e) => e.serverId === serverId && e.tool.name === 'echo');
      const hello = servers.toolset.entries.find(
        (e) => e.serverId === 'legacyHttp' && e.tool.name === 'hello',
      );
      const answer = await answerCalls(
        {
          role: 'model',
          parts: [
            {
              functionCall: {
                id: 'm',
                name: echo('modernHttp')?.exposedName,
                args: { text: 'hi' },
              },
            },
            {
              functionCall: {
                id: 's',
                name: echo('modernStdio')?.exposedName,
                args: { text: 'yo' },
              },
            },
            { functionCall: { id: 'l', name: hello?.exposedName, args: { name: 'Ada' } } },
          ],
        },
        servers.toolset,
        servers.clients,
        { timeoutMs: 10_000 },
      );
      const [modern, stdio, legacy] = answer.parts.map((part) => part.functionResponse.response);
      expect(modern).toEqual({ output: 'hi' });
      expect(stdio).toEqual({ output: 'yo' });
      expect(legacy).toEqual({ output: 'Hello, Ada!' });
    },
    SLOW,
  );

  it(
    'tools/list_changed rebuilds the set on both revisions (on 2026-07-28 over subscriptions/listen)',
    async () => {
      const servers = await connectAll();
      const vaulted = ['modernStdio', 'legacyStdio', 'modernHttp'];
      const heard = new Set<string>();
      const allHeard = new Promise<void>((resolve) => {
        servers.onToolsChanged((change) => {
          if (toolsOf(servers, change.serverId).includes(UNLOCKED_TOOL)) heard.add(change.serverId);
          if (vaulted.every((id) => heard.has(id))) resolve();
        });
      });
      const unlock = (serverId: string) =>
        servers.toolset.entries.find((e) => e.serverId === serverId && e.tool.name === 'unlock');
      await answerCalls(
        {
          role: 'model',
          parts: vaulted.map((serverId) => ({
            functionCall: { id: serverId, name: unlock(serverId)?.exposedName, args: {} },
          })),
        },
        servers.toolset,
        servers.clients,
        { timeoutMs: 10_000 },
      );
      await allHeard;
      for (const serverId of vaulted) expect(toolsOf(servers, serverId)).toContain(UNLOCKED_TOOL);
    },
    SLOW,
  );
});

describe('issue 32 item 1: a 2025 stdio server that does not take the probe still connects', () => {
  for (const mode of ['exit', 'ignore'] as const) {
    it(
      `one that ${mode === 'exit' ? 'exits on' : 'never answers'} server/discover is asked initialize and spoken to on its revision`,
      async () => {
        const started = performance.now();
        connections = await connectServers(
          { mcpServers: { shy: supportServerStdio('probe-shy-server.ts', [mode]) } },
          { stderr: 'ignore', timeoutMs: 20_000, probeTimeoutMs: 1000 },
        );
        expect(connections.status.get('shy')).toMatchObject({ era: 'legacy', transport: 'stdio' });
        expect(toolsOf(connections, 'shy')).toEqual(['bitcoin_price', 'hello']);
        // The silent one costs the probe timeout, not the connection's.
        if (mode === 'ignore') expect(performance.now() - started).toBeLessThan(15_000);
      },
      SLOW,
    );
  }
});

describe('issue 32: a server that refuses both revisions is read with its own reason', () => {
  it('the refusal of initialize is quoted (status, escaped body excerpt) before the failed SSE fallback', async () => {
    const reason = 'this endpoint speaks only 2026-07-28 \u001b[31m(ask server/discover)';
    const http = createServer((request, response) => {
      if (request.method !== 'POST') {
        response.writeHead(405).end();
        return;
      }
      request.resume();
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: reason } }),
        );
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    try {
      const failure = await connectServers(
        { mcpServers: { strict: { url: `http://127.0.0.1:${port}/mcp` } } },
        { timeoutMs: 5_000 },
      ).catch((error: unknown) => error as Error);
      expect(failure).toBeInstanceOf(Error);
      const { message } = failure as Error;
      expect(message).toContain('initialize refused over Streamable HTTP (HTTP 400: "');
      expect(message).toContain('this endpoint speaks only 2026-07-28 \\\\u001b[31m');
      expect(message).not.toContain('\u001b');
      expect(message.indexOf('initialize refused')).toBeLessThan(message.indexOf('then SSE'));
    } finally {
      http.closeAllConnections();
      http.close();
    }
  });
});
