import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { parseServersConfig } from '../../src/runtime/mcp/config/index.js';
import { connectServers, type ToolsChange } from '../../src/runtime/mcp/connect.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import { executeToolCalls } from '../../src/runtime/turn/execute.js';
import { startStreamableHttpServer } from '../support/http-servers.js';
import {
  BITCOIN_SERVER,
  EVERYTHING_SERVER,
  exited,
  FAULT_SERVER,
  pidOf,
} from '../support/runtime-servers.js';

const SLOW = 30_000;

describe('EX-5: mcpServers configuration', () => {
  it('EX-5: reads stdio and Streamable HTTP entries, skips disabled ones', () => {
    const entries = parseServersConfig({
      mcpServers: {
        local: { command: 'node', args: ['server.js'], env: { A: '1' }, cwd: '/tmp' },
        remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
        typed: { type: 'http', url: 'http://127.0.0.1:1/mcp' },
        off: { command: 'node', disabled: true },
      },
    });
    expect(entries.map((e) => [e.serverId, e.transport])).toEqual([
      ['local', 'stdio'],
      ['remote', 'http'],
      ['typed', 'http'],
    ]);
  });

  it.each([
    ['not an object', 42],
    ['no mcpServers nor servers', { other: {} }],
    ['neither command nor url', { mcpServers: { a: { args: [] } } }],
    ['both command and url', { mcpServers: { a: { command: 'x', url: 'http://a' } } }],
    ['args not strings', { mcpServers: { a: { command: 'x', args: [1] } } }],
    ['env not strings', { mcpServers: { a: { command: 'x', env: { A: 1 } } } }],
    ['bad url', { mcpServers: { a: { url: 'not a url' } } }],
    ['an unknown transport type', { mcpServers: { a: { type: 'websocket', url: 'http://a' } } }],
  ])('EX-5: rejects a configuration with %s', (_name, config) => {
    expect(() => parseServersConfig(config)).toThrow(GeminiMcpError);
    try {
      parseServersConfig(config);
    } catch (error) {
      expect((error as GeminiMcpError).code).toBe('CONFIG_INVALID');
    }
  });
});

describe('EX-5: connectServers over stdio', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-connect-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(
    'EX-5: connects from a config file, pages tool lists, builds one set, close() ends every child',
    async () => {
      const file = join(dir, 'mcp.json');
      await writeFile(
        file,
        JSON.stringify({
          mcpServers: {
            bitcoin: BITCOIN_SERVER,
            faults: FAULT_SERVER,
            everything: EVERYTHING_SERVER,
          },
        }),
      );
      const connections = await connectServers(file, { stderr: 'ignore' });
      const pids = [...connections.clients.values()].map(pidOf);
      try {
        expect([...connections.clients.keys()]).toEqual(['bitcoin', 'faults', 'everything']);
        const names = connections.toolset.entries.map((e) => `${e.serverId}/${e.tool.name}`);
        expect(names).toContain('bitcoin/hello');
        expect(names).toContain('bitcoin/bitcoin_price');
        // The fault server lists 3 tools per page: all 15 arrive only by following nextCursor.
        expect(names.filter((n) => n.startsWith('faults/'))).toHaveLength(15);
        expect(names).toContain('everything/trigger-long-running-operation');
        expect(connections.toolset.resolve('bitcoin_price')?.serverId).toBe('bitcoin');
      } finally {
        await connections.close();
      }
      for (const pid of pids) {
        expect(pid).toBeTypeOf('number');
        expect(await exited(pid as number)).toBe(true);
      }
    },
    SLOW,
  );

  it(
    'EX-5: rebuilds the tool set on notifications/tools/list_changed',
    async () => {
      const connections = await connectServers(
        { mcpServers: { faults: FAULT_SERVER } },
        { stderr: 'ignore' },
      );
      try {
        const changed = new Promise<ToolsChange>((resolve) => connections.onToolsChanged(resolve));
        const before = connections.toolset;
        expect(before.resolve('extra_1')).toBeUndefined();
        const [outcome] = await executeToolCalls(
          [
            {
              serverId: 'faults',
              name: 'add_tool',
              exposedName: 'add_tool',
              callId: null,
              arguments: {},
              tool: { name: 'tool', inputSchema: { type: 'object' } },
            },
          ],
          connections.clients,
        );
        expect(outcome?.result).toMatchObject({ content: [{ type: 'text', text: 'extra_1' }] });
        const change = await changed;
        expect('toolset' in change && change.toolset.resolve('extra_1')?.tool.name).toBe('extra_1');
        expect(connections.toolset.resolve('extra_1')?.serverId).toBe('faults');
        expect(before.resolve('extra_1')).toBeUndefined();
      } finally {
        await connections.close();
      }
    },
    SLOW,
  );

  it(
    'EX-5: a server that cannot start fails the whole connection and closes the others',
    async () => {
      const error = await connectServers(
        {
          mcpServers: {
            faults: FAULT_SERVER,
            missing: { command: join(dir, 'no-such-server') },
          },
        },
        { stderr: 'ignore' },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GeminiMcpError);
      expect((error as GeminiMcpError).code).toBe('CONFIG_INVALID');
      expect((error as GeminiMcpError).message).toContain('"missing"');
    },
    SLOW,
  );
});

describe('EX-5: connectServers over Streamable HTTP', () => {
  it('EX-5: connects to a url with its headers, lists and calls tools', async () => {
    const http = await startStreamableHttpServer();
    const connections = await connectServers({
      mcpServers: {
        web: { url: `${http.origin}/mcp`, headers: { Authorization: 'Bearer t0k' } },
      },
    });
    try {
      expect(connections.toolset.entries.map((e) => e.exposedName)).toEqual([
        'hello',
        'bitcoin_price',
      ]);
      const [outcome] = await executeToolCalls(
        [
          {
            serverId: 'web',
            name: 'hello',
            exposedName: 'hello',
            callId: null,
            arguments: { name: 'Web' },
            tool: { name: 'tool', inputSchema: { type: 'object' } },
          },
        ],
        connections.clients,
      );
      expect(outcome?.result).toEqual({ content: [{ type: 'text', text: 'Hello, Web!' }] });
      expect(http.requests.length).toBeGreaterThan(0);
      expect(new Set(http.requests.map((r) => r.split(' ').slice(2).join(' ')))).toEqual(
        new Set(['Bearer t0k']),
      );
    } finally {
      await connections.close();
      await http.close();
    }
  }, 30_000);
});

describe('EX-5: listAllTools', () => {
  async function pagedClient(pages: Record<string, { tools: unknown; nextCursor?: unknown }>) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    serverSide.onmessage = (message) => {
      if (!('id' in message) || !('method' in message)) return;
      const { id, method } = message;
      const params = (message.params ?? {}) as { cursor?: string; protocolVersion?: string };
      const result =
        method === 'initialize'
          ? {
              protocolVersion: params.protocolVersion,
              capabilities: { tools: {} },
              serverInfo: { name: 'paged', version: '0' },
            }
          : pages[params.cursor ?? ''];
      void serverSide.send({ jsonrpc: '2.0', id, result: result as Record<string, unknown> });
    };
    await serverSide.start();
    const client = new Client({ name: 'pager', version: '0' });
    await client.connect(clientSide);
    return client;
  }
  const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

  it('EX-5: follows nextCursor to the last page and keeps tools unchecked', async () => {
    const client = await pagedClient({
      '': { tools: [tool('a'), tool('b')], nextCursor: 'p2' },
      p2: { tools: [{ name: 'broken' }], nextCursor: 'p3' },
      p3: { tools: [tool('c')] },
    });
    expect(await listAllTools(client)).toEqual([
      tool('a'),
      tool('b'),
      { name: 'broken' },
      tool('c'),
    ]);
    await client.close();
  });

  it.each([
    [
      'a repeated cursor',
      { '': { tools: [], nextCursor: 'x' }, x: { tools: [], nextCursor: 'x' } },
    ],
    ['a page without tools', { '': { tools: 'none' } }],
    ['a cursor that is not a string', { '': { tools: [], nextCursor: 7 } }],
  ])('EX-5: refuses %s with INVALID_PAYLOAD', async (_name, pages) => {
    const client = await pagedClient(pages);
    await expect(listAllTools(client)).rejects.toMatchObject({ code: 'INVALID_PAYLOAD' });
    await client.close();
  });
});
