/**
 * Issue 32 item 8: the MCP client that crosses the API is structural, so the `Client` of either
 * SDK works in every public function that takes one: `listAllTools`, `executeToolCalls` (and
 * `answerCalls` over it) and `serveSampling`. Each SDK's client against a server of the same
 * SDK, in memory; the v2 client on the 2025 handshake (its default) and on 2026-07-28 (it
 * negotiates with `server/discover`).
 */

import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  createMcpHandler,
  InMemoryTransport as InMemoryV2,
  McpServer as McpServerV2,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import { connectServers } from '../../src/runtime/mcp/connect.js';
import { serveSampling } from '../../src/runtime/mcp/features/sampling.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import type { McpClientWithHandlers } from '../../src/runtime/mcp/mcp-client.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { executeToolCalls } from '../../src/runtime/turn/execute.js';
import { startModernHttpServer } from '../support/modern-unlock-server.js';

/** What the server's `ask` tool hears back from the client's sampling. */
const SAMPLED = 'sampled by the scripted model';

const generate = async () => ({
  candidates: [{ content: { role: 'model', parts: [{ text: SAMPLED }] }, finishReason: 'STOP' }],
});

/** A server of the v1 SDK: `echo`, and `ask` (asks the client for a completion). */
async function v1Pair() {
  const server = new McpServerV1({ name: 'v1-server', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('ask', {}, async () => {
    const reply = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: 'hello?' } }],
      maxTokens: 10,
    });
    return { content: [reply.content as { type: 'text'; text: string }] };
  });
  const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
  await server.connect(serverSide);
  const client = new ClientV1({ name: 'gemini-mcp-tests', version: '0.0.0' });
  return { client, connect: () => client.connect(clientSide), era: () => 'legacy' };
}

/** The same tools on a server of the v2 SDK. */
function v2Server(): McpServerV2 {
  const server = new McpServerV2({ name: 'v2-server', version: '2.0.0' });
  server.registerTool(
    'echo',
    { inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool('ask', {}, async (ctx) => {
    const reply = await ctx.mcpReq.requestSampling({
      messages: [{ role: 'user', content: { type: 'text', text: 'hello?' } }],
      maxTokens: 10,
    });
    return { content: [reply.content as { type: 'text'; text: string }] };
  });
  return server;
}

/** The v2 client and server in memory: the 2025 handshake (the v2 client's default). */
async function v2Pair() {
  const [clientSide, serverSide] = InMemoryV2.createLinkedPair();
  await v2Server().connect(serverSide);
  const client = new ClientV2({ name: 'gemini-mcp-tests', version: '0.0.0' });
  return { client, connect: () => client.connect(clientSide), era: () => client.getProtocolEra() };
}

/**
 * The v2 client negotiating (`server/discover` first) with the v2 SDK's HTTP entry, which
 * serves 2026-07-28: its fetch face called in process, no socket.
 */
async function v2ModernPair() {
  const handler = createMcpHandler(() => v2Server());
  const transport = new StreamableHTTPClientTransport(new URL('http://in-process.test/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  const client = new ClientV2(
    { name: 'gemini-mcp-tests', version: '0.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  return { client, connect: () => client.connect(transport), era: () => client.getProtocolEra() };
}

const pairs = [
  { sdk: '@modelcontextprotocol/sdk 1.x', era: 'legacy', make: v1Pair },
  { sdk: '@modelcontextprotocol/client 2.x', era: 'legacy', make: v2Pair },
  { sdk: '@modelcontextprotocol/client 2.x', era: 'modern', make: v2ModernPair },
];

describe('issue 32 item 8: either SDK client crosses the API', () => {
  for (const { sdk, era, make } of pairs) {
    it(`${sdk} (${era} era): listAllTools, executeToolCalls and answerCalls run on its Client`, async () => {
      const { client, connect, era: eraOf } = await make();
      await connect();
      try {
        expect(eraOf()).toBe(era);
        const tools = await listAllTools(client);
        const { toolset } = buildToolSet([{ serverId: 'srv', tools }]);
        expect(toolset.entries.map((entry) => entry.exposedName).sort()).toEqual(['ask', 'echo']);
        const echo = toolset.entries.find((entry) => entry.exposedName === 'echo');
        const [outcome] = await executeToolCalls(
          [
            {
              callId: 'c1',
              exposedName: 'echo',
              serverId: 'srv',
              name: 'echo',
              arguments: { text: 'hi' },
              tool: echo!.tool,
            },
          ],
          { srv: client },
        );
        expect(outcome?.result).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
        const answer = await answerCalls(
          {
            role: 'model',
            parts: [{ functionCall: { id: 'c2', name: 'echo', args: { text: 'yo' } } }],
          },
          toolset,
          new Map([['srv', client]]),
        );
        expect(answer.parts[0]?.functionResponse.response).toEqual({ output: 'yo' });
      } finally {
        await client.close();
      }
    });
  }

  for (const { sdk, make } of pairs.filter((pair) => pair.era === 'legacy')) {
    it(`${sdk}: serveSampling equips its Client, and the server's sampling request is answered`, async () => {
      const { client, connect } = await make();
      serveSampling(client as McpClientWithHandlers, 'srv', { generate });
      await connect();
      try {
        const tools = await listAllTools(client);
        const { toolset } = buildToolSet([{ serverId: 'srv', tools }]);
        const answer = await answerCalls(
          { role: 'model', parts: [{ functionCall: { id: 'a', name: 'ask', args: {} } }] },
          toolset,
          { srv: client },
        );
        expect(answer.parts[0]?.functionResponse.response).toEqual({ output: SAMPLED });
      } finally {
        await client.close();
      }
    });
  }
});

describe('issue 32 item 1: connectServers negotiates', () => {
  it('a 2026-07-28-only server (it refuses initialize) is reached with server/discover and spoken to on 2026-07-28 (it read "HTTP 405: SSE error")', async () => {
    const server = await startModernHttpServer();
    try {
      const connections = await connectServers(
        { mcpServers: { modern: { url: server.url } } },
        { timeoutMs: 5_000 },
      );
      try {
        expect(connections.status.get('modern')).toEqual({
          protocolVersion: '2026-07-28',
          era: 'modern',
          transport: 'streamable-http',
        });
        expect(server.methods).not.toContain('initialize');
        expect(connections.toolset.entries.map((e) => e.exposedName).sort()).toEqual([
          'echo',
          'unlock',
        ]);
      } finally {
        await connections.close();
      }
    } finally {
      await server.close();
    }
  });
});
