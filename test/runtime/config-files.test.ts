/**
 * A configuration file of each format, as its client writes it (test/fixtures/configs/),
 * connects the same real servers: filesystem, memory and everything over stdio (through npx, as
 * the files say), the example server over Streamable HTTP and over the legacy SSE transport
 * (the SDK's own server transports on 127.0.0.1).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { connectServers, type ServerConnections } from '../../src/runtime/mcp/connect.js';
import { executeToolCalls } from '../../src/runtime/turn/execute.js';
import {
  CONFIG_FILES,
  type ConfigWorld,
  JSONC_FILES,
  MISSING_COMMA,
  openConfigWorld,
} from '../support/config-files.js';

const SLOW = 120_000;

let world: ConfigWorld;
beforeAll(async () => {
  world = await openConfigWorld();
});
afterAll(() => world?.close());

const names = (connections: ServerConnections): string[] =>
  connections.toolset.entries.map((e) => `${e.serverId}/${e.tool.name}`);

async function hello(connections: ServerConnections, serverId: string): Promise<unknown> {
  const [outcome] = await executeToolCalls(
    [
      {
        serverId,
        name: 'hello',
        exposedName: 'hello',
        callId: null,
        arguments: { name: serverId },
        tool: { name: 'hello', inputSchema: { type: 'object' } },
      },
    ],
    connections.clients,
  );
  return outcome?.result;
}

describe('EX-5: real configuration files connect real servers', () => {
  it.each(CONFIG_FILES)(
    'EX-5: %s (%s)',
    async (fixture, at) => {
      const { streamable, sse } = world;
      const path = await world.place(fixture, at);
      const before = { streamable: streamable.requests.length, sse: sse.requests.length };
      const connections = await connectServers(path, {
        stderr: 'ignore',
        configOptions: { env: { ...process.env, ...world.env } },
      });
      try {
        const servers = [...connections.clients.keys()];
        const all = names(connections);
        expect(all).toContain('filesystem/list_allowed_directories');
        expect(all).toContain('memory/read_graph');
        expect(all).toContain('everything/echo');
        if (fixture === 'claude_desktop_config.json') {
          expect(servers).toEqual(['filesystem', 'memory', 'everything']);
          expect(connections.configWarnings).toEqual([]);
          return;
        }
        expect(servers).toEqual(['filesystem', 'memory', 'everything', 'remote', 'legacy']);
        expect(all).toEqual(expect.arrayContaining(['remote/hello', 'legacy/hello']));
        expect(await hello(connections, 'remote')).toEqual({
          content: [{ type: 'text', text: 'Hello, remote!' }],
        });
        expect(await hello(connections, 'legacy')).toEqual({
          content: [{ type: 'text', text: 'Hello, legacy!' }],
        });
        // The headers reached the Streamable HTTP server, variables expanded.
        const remote = streamable.requests.slice(before.streamable);
        expect(remote.length).toBeGreaterThan(0);
        expect(remote.every((r) => r.endsWith(' Bearer t0k'))).toBe(true);
        // The SSE server saw the stream opened with GET and messages POSTed to its endpoint.
        const legacy = sse.requests.slice(before.sse);
        expect(legacy.some((r) => r.startsWith('GET /sse '))).toBe(true);
        expect(legacy.some((r) => r.startsWith('POST /messages?sessionId='))).toBe(true);
        // Cursor's url of unknown kind: the Streamable HTTP POST got a 404, then SSE.
        expect(legacy.some((r) => r.startsWith('POST /sse '))).toBe(fixture === 'cursor-mcp.json');
        if (fixture === 'gemini-cli-settings.json') {
          expect(all.filter((n) => n.startsWith('everything/'))).toEqual([
            'everything/echo',
            'everything/get-sum',
          ]);
          expect(all).toContain('memory/create_entities');
          expect(all).not.toContain('memory/delete_entities');
          expect(all).not.toContain('memory/delete_relations');
        }
        expect(connections.configWarnings).toEqual([]);
      } finally {
        await connections.close();
      }
    },
    SLOW,
  );
});

describe('EX-5: configuration files as editors write them (JSONC) connect', () => {
  it.each(JSONC_FILES)(
    'EX-5: %s (%s), with comments: the example server over stdio',
    async (fixture, at) => {
      const path = await world.place(fixture, at);
      const connections = await connectServers(path, { stderr: 'ignore' });
      try {
        expect(names(connections)).toEqual(['example/hello', 'example/bitcoin_price']);
        // The example server (the v2 server package) names itself in the result's _meta.
        expect(await hello(connections, 'example')).toMatchObject({
          content: [{ type: 'text', text: 'Hello, example!' }],
        });
        expect(connections.configWarnings).toEqual([]);
      } finally {
        await connections.close();
      }
    },
    SLOW,
  );

  it('EX-5: a missing comma at line 7: CONFIG_INVALID naming file:7:7 and the entry, no server started', async () => {
    const path = await world.place(MISSING_COMMA[0], MISSING_COMMA[1]);
    const error = (await connectServers(path).catch((e: unknown) => e)) as GeminiMcpError;
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toBe(`${path}:7:7: /servers/example: comma expected`);
    expect(error.path).toBe('/servers/example');
  });
});

describe('EX-5: HTTP failures name the URL and the cause', () => {
  it('EX-5: a refused connection: the URL, the transport and ECONNREFUSED with the address', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    for (const [type, kind] of [
      ['streamable-http', 'Streamable HTTP'],
      ['sse', 'SSE'],
    ] as const) {
      const url = `http://127.0.0.1:${port}/mcp`;
      const error = (await connectServers({ mcpServers: { down: { type, url } } }).catch(
        (e: unknown) => e,
      )) as GeminiMcpError;
      expect(error).toBeInstanceOf(GeminiMcpError);
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.path).toBe('/mcpServers/down');
      expect(error.message).toContain(`server "down" could not be started: ${url} (${kind}): `);
      expect(error.message).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    }
  });

  it('EX-5: Streamable HTTP only (no fallback) against an SSE server: the 404 with the URL', async () => {
    const url = `${world.sse.origin}/sse`;
    const error = (await connectServers({
      mcpServers: { strict: { type: 'streamable-http', url } },
    }).catch((e: unknown) => e)) as GeminiMcpError;
    expect(error.message).toContain(`${url} (Streamable HTTP): `);
    expect(error.message).toContain('HTTP 404: ');
  });
});

describe('EX-5: the fallback to SSE', () => {
  it('EX-5: a 401 to the first POST is not a reason to try SSE: no GET, UNAUTHORIZED naming the server', async () => {
    const seen: string[] = [];
    const guarded = createServer((request, response) => {
      seen.push(request.method ?? '');
      response.writeHead(401).end('unauthorized');
    });
    await new Promise<void>((done) => guarded.listen(0, '127.0.0.1', done));
    const { port } = guarded.address() as AddressInfo;
    try {
      const url = `http://127.0.0.1:${port}/mcp`;
      const error = (await connectServers({ mcpServers: { guarded: { url } } }).catch(
        (e: unknown) => e,
      )) as GeminiMcpError;
      expect(error).toMatchObject({
        code: 'UNAUTHORIZED',
        data: { serverId: 'guarded', status: 401 },
      });
      expect(error.message).toContain('server "guarded" answered HTTP 401');
      expect(seen).toEqual(['POST']);
    } finally {
      guarded.closeAllConnections();
      await new Promise((done) => guarded.close(done));
    }
  });
});

describe('EX-5: the SSE transport keeps the byte bound', () => {
  it('EX-5: an SSE event past maxMessageBytes closes the connection at once (no wait for the timeout)', async () => {
    const big = createServer((request, response) => {
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('event: endpoint\ndata: /messages\n\n');
        response.write(`event: message\ndata: ${'x'.repeat(4096)}\n\n`);
        return;
      }
      response.writeHead(202).end('Accepted');
    });
    await new Promise<void>((done) => big.listen(0, '127.0.0.1', done));
    const { port } = big.address() as AddressInfo;
    try {
      const started = Date.now();
      const error = (await connectServers(
        { mcpServers: { big: { type: 'sse', url: `http://127.0.0.1:${port}/sse` } } },
        { maxMessageBytes: 1024, timeoutMs: 60_000 },
      ).catch((e: unknown) => e)) as GeminiMcpError;
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain('passed 1024 bytes (maxMessageBytes)');
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      big.closeAllConnections();
      await new Promise((done) => big.close(done));
    }
  }, 40_000);

  it('EX-5: an SSE stream that never names its endpoint fails within timeoutMs', async () => {
    const mute = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(': nothing to say\n\n');
    });
    await new Promise<void>((done) => mute.listen(0, '127.0.0.1', done));
    const { port } = mute.address() as AddressInfo;
    try {
      const error = (await connectServers(
        { mcpServers: { mute: { type: 'sse', url: `http://127.0.0.1:${port}/sse` } } },
        { timeoutMs: 300 },
      ).catch((e: unknown) => e)) as GeminiMcpError;
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain('no endpoint event within 300 ms');
    } finally {
      mute.closeAllConnections();
      await new Promise((done) => mute.close(done));
    }
  }, 20_000);
});
