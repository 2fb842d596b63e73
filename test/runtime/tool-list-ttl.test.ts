/**
 * Issue 32 item 4 (unit tier: a v2 server on loopback HTTP): a tool list whose server says it
 * stays fresh (`ttlMs`, MCP 2026-07-28) is re-read by `refreshTools` only once that time has
 * passed; `tools/list_changed` re-reads it at once; a server without `ttlMs` is re-read on
 * every refresh.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectServers, type ServerConnections } from '../../src/runtime/mcp/connect.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import {
  type RunningModernServer,
  startModernHttpServer,
} from '../support/modern-unlock-server.js';
import { UNLOCKED_TOOL } from '../support/unlock-server.js';

let server: RunningModernServer | undefined;
let connections: ServerConnections | undefined;
afterEach(async () => {
  await connections?.close();
  await server?.close();
  connections = undefined;
  server = undefined;
});

async function connectTo(toolsTtlMs?: number): Promise<{ lists: () => number }> {
  server = await startModernHttpServer(toolsTtlMs === undefined ? {} : { toolsTtlMs });
  const running = server;
  connections = await connectServers(
    { mcpServers: { m: { url: running.url } } },
    { timeoutMs: 5000 },
  );
  return { lists: () => running.methods.filter((method) => method === 'tools/list').length };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('issue 32 item 4: tools/list kept for its ttlMs', () => {
  it('refreshTools within the ttlMs keeps the cached list; after it, the list is read again', async () => {
    const { lists } = await connectTo(400);
    expect(lists()).toBe(1);
    await connections?.refreshTools('m');
    await connections?.refreshTools();
    expect(lists()).toBe(1);
    await wait(500);
    await connections?.refreshTools('m');
    expect(lists()).toBe(2);
  });

  it('tools/list_changed re-reads a list that is still fresh', async () => {
    const { lists } = await connectTo(60_000);
    const servers = connections as ServerConnections;
    const changed = new Promise<void>((resolve) => servers.onToolsChanged(() => resolve()));
    const unlock = servers.toolset.entries.find((e) => e.tool.name === 'unlock');
    await answerCalls(
      {
        role: 'model',
        parts: [{ functionCall: { id: 'u', name: unlock?.exposedName, args: {} } }],
      },
      servers.toolset,
      servers.clients,
    );
    await changed;
    expect(lists()).toBe(2);
    expect(servers.toolset.entries.map((e) => e.tool.name)).toContain(UNLOCKED_TOOL);
  });

  it('a list without ttlMs is read again on every refresh', async () => {
    const { lists } = await connectTo();
    await connections?.refreshTools('m');
    await connections?.refreshTools('m');
    expect(lists()).toBe(3);
  });
});
