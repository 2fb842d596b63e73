/**
 * Issue 35 items 4 and 5: the approval hook (`onToolCall`) asked before each call runs, with
 * the tool's annotations, the server's trust and the arguments; the ready policies; trust read
 * from the entry. In process: an in-memory MCP server with annotated tools, the real
 * @google/genai client against the scripted endpoint, a server over loopback HTTP.
 */
import { GoogleGenAI } from '@google/genai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { toolSelection } from '../../src/adapter/selection/selection.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import type { ToolError } from '../../src/adapter/types.js';
import {
  allowReadOnly,
  composePolicies,
  confirmDestructive,
  confirmOpenWorld,
  type ToolCallCheck,
  type ToolCallHook,
} from '../../src/features.js';
import { connectServers, mcpCallableTool } from '../../src/index.js';
import { liveTools } from '../../src/live.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import { genaiGenerate } from '../../src/runtime/model/generate.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';
import { type ExecutedCall, executeToolCalls } from '../../src/runtime/turn/execute.js';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini.js';
import { type RunningHttpServer, startStreamableHttpServer } from '../support/http-servers.js';
import { inMemoryClient } from '../support/runtime-servers.js';

/** Every call the notes server ran, by tool and arguments. */
const ran: { tool: string; args: unknown }[] = [];

/** A notes server: one tool per kind of annotation (read-only, destructive, none). */
function notesServer(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  server.registerTool(
    'read_note',
    {
      title: 'Read a note',
      description: 'Reads one note.',
      inputSchema: { id: z.string() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      ran.push({ tool: 'read_note', args });
      return text(`note ${args.id}: buy milk`);
    },
  );
  server.registerTool(
    'delete_note',
    {
      description: 'Deletes one note for good.',
      inputSchema: { id: z.string() },
      annotations: { title: 'Delete a note', destructiveHint: true, openWorldHint: false },
    },
    async (args) => {
      ran.push({ tool: 'delete_note', args });
      return text(`deleted ${args.id}`);
    },
  );
  server.registerTool(
    'post_note',
    { description: 'Posts a note to the web.', inputSchema: { id: z.string() } },
    async (args) => {
      ran.push({ tool: 'post_note', args });
      return text(`posted ${args.id}`);
    },
  );
  return server;
}

let client: Client;
let toolset: ToolSet;
let clients: Map<string, Client>;
let fake: FakeGemini | undefined;

beforeAll(async () => {
  client = await inMemoryClient(notesServer());
  ({ toolset } = buildToolSet([{ serverId: 'notes', tools: await listAllTools(client) }]));
  clients = new Map([['notes', client]]);
});
afterAll(() => client.close());
afterEach(async () => {
  ran.length = 0;
  await fake?.close();
  fake = undefined;
});

const call = (name: string, args: Record<string, unknown>, id = `c-${name}`) => {
  const entry = toolset.resolve(name)!;
  return {
    serverId: 'notes',
    name,
    exposedName: name,
    callId: id,
    arguments: args,
    tool: entry.tool,
  };
};

const errorOf = (outcome: ExecutedCall | undefined): ToolError => outcome?.result as ToolError;

describe('issue 35: a destructive tool denied by the ready policy, through the real genai client', () => {
  it('issue 35: the model gets exactly one response per call: the read-only one run, the destructive one denied, saying so', async () => {
    const reply = (parts: object[]) => ({
      response: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] },
    });
    fake = await startFakeGemini([
      reply([
        { functionCall: { id: 'r1', name: 'read_note', args: { id: '7' } } },
        { functionCall: { id: 'd1', name: 'delete_note', args: { id: '7' } } },
      ]),
      reply([{ text: 'I read note 7; deleting it was not allowed.' }]),
    ]);
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.baseUrl } });
    const asked: ToolCallCheck[] = [];
    const result = await runConversation({
      generate: genaiGenerate(ai, { model: 'gemini-2.5-flash' }),
      toolset,
      clients,
      trustedServers: ['notes'],
      contents: [{ role: 'user', parts: [{ text: 'Read note 7, then delete it.' }] }],
      onToolCall: composePolicies(
        allowReadOnly(),
        confirmDestructive((check) => {
          asked.push(check);
          return false;
        }),
      ),
    });
    expect(result.stop).toMatchObject({ reason: 'answered' });
    expect(ran).toEqual([{ tool: 'read_note', args: { id: '7' } }]);
    expect(asked).toEqual([
      {
        serverId: 'notes',
        name: 'delete_note',
        exposedName: 'delete_note',
        callId: 'd1',
        title: 'Delete a note',
        annotations: { title: 'Delete a note', destructiveHint: true, openWorldHint: false },
        trusted: true,
        arguments: { id: '7' },
        signal: expect.any(AbortSignal),
      },
    ]);
    const answer = (fake.requests[1]!.body as { contents: { parts: object[] }[] }).contents[2]!;
    expect(answer.parts).toEqual([
      {
        functionResponse: { id: 'r1', name: 'read_note', response: { output: 'note 7: buy milk' } },
      },
      {
        functionResponse: {
          id: 'd1',
          name: 'delete_note',
          response: {
            error:
              'DENIED: tool "delete_note" on server "notes" was not run: denied (the user did not confirm this possibly destructive call)',
          },
        },
      },
    ]);
  });

  it('issue 35: mcpCallableTool asks the hook too: the denied call is answered, once, in its place', async () => {
    const tool = mcpCallableTool(
      { toolset, clients },
      { onToolCall: () => ({ action: 'deny', reason: 'read-only session' }) },
    );
    await tool.tool();
    const parts = await tool.callTool([{ id: 'p1', name: 'post_note', args: { id: '1' } }]);
    expect(parts).toEqual([
      {
        functionResponse: {
          id: 'p1',
          name: 'post_note',
          response: {
            error:
              'DENIED: tool "post_note" on server "notes" was not run: denied (read-only session)',
          },
        },
      },
    ]);
    expect(ran).toEqual([]);
  });

  it("issue 35: liveTools asks the hook before a Live call runs; a denial is the call's response", async () => {
    const sent: unknown[] = [];
    type Params = { callbacks: { onmessage: (m: unknown) => void } };
    let params: Params | undefined;
    const live = {
      connect: async (given: Params) => {
        params = given;
        return {
          sendToolResponse: ({ functionResponses }: { functionResponses: unknown[] }) =>
            sent.push(...functionResponses),
        };
      },
    };
    await liveTools({ toolset, clients }, { onToolCall: confirmOpenWorld(() => false) }).connect(
      live,
      { callbacks: { onmessage: () => {} } },
    );
    params!.callbacks.onmessage({
      toolCall: { functionCalls: [{ id: 'l1', name: 'post_note', args: { id: '2' } }] },
    });
    await expect.poll(() => sent.length).toBe(1);
    expect(sent).toEqual([
      {
        id: 'l1',
        name: 'post_note',
        response: {
          error:
            'DENIED: tool "post_note" on server "notes" was not run: denied (the user did not confirm this open-world call)',
        },
      },
    ]);
    expect(ran).toEqual([]);
  });
});

describe('issue 35: the ready policies read trust, not the hints alone', () => {
  it("issue 35: an untrusted server's read-only claim is not believed: allowReadOnly passes, confirmDestructive asks", async () => {
    const asked: string[] = [];
    const onToolCall = composePolicies(
      allowReadOnly(),
      confirmDestructive((check) => {
        asked.push(check.name);
        return true;
      }),
    );
    const outcomes = await executeToolCalls([call('read_note', { id: '1' })], clients, {
      onToolCall,
    });
    expect(asked).toEqual(['read_note']);
    expect(outcomes[0]?.result).toEqual({
      content: [{ type: 'text', text: 'note 1: buy milk' }],
    });
  });

  it.each([
    // [tool, trusted, destructive asks, open-world asks]
    ['read_note', true, false, false],
    ['delete_note', true, true, false],
    ['post_note', true, true, true],
    ['read_note', false, true, true],
  ] as const)(
    'issue 35: %s (trusted %s): confirmDestructive asks %s, confirmOpenWorld asks %s',
    async (name, trusted, destructive, openWorld) => {
      const asks = async (policy: (confirm: () => boolean) => ToolCallHook) => {
        let asked = false;
        await executeToolCalls([call(name, { id: '1' })], clients, {
          onToolCall: policy(() => {
            asked = true;
            return true;
          }),
          ...(trusted ? { trustedServers: ['notes'] } : {}),
        });
        return asked;
      };
      expect(await asks(confirmDestructive)).toBe(destructive);
      expect(await asks(confirmOpenWorld)).toBe(openWorld);
    },
  );

  it('issue 35: composePolicies takes the first decision; none at all lets the call run', async () => {
    const order: string[] = [];
    const note =
      (name: string, decision?: 'deny'): ToolCallHook =>
      () => {
        order.push(name);
        return decision === undefined ? undefined : { action: decision, reason: name };
      };
    const [denied] = await executeToolCalls([call('post_note', { id: '1' })], clients, {
      onToolCall: composePolicies(note('a'), note('b', 'deny'), note('c')),
    });
    expect(order).toEqual(['a', 'b']);
    expect(errorOf(denied).message).toContain('denied (b)');
    const [ranAnyway] = await executeToolCalls([call('post_note', { id: '1' })], clients, {
      onToolCall: composePolicies(note('d')),
    });
    expect(ranAnyway?.result).toMatchObject({ content: [{ text: 'posted 1' }] });
  });
});

describe('issue 35: the hook may edit the arguments; what goes wrong is answered, bounded', () => {
  it('issue 35: edited arguments are what the server gets', async () => {
    const [outcome] = await executeToolCalls([call('read_note', { id: '1' })], clients, {
      onToolCall: (check) => ({ action: 'edit', arguments: { ...check.arguments, id: '2' } }),
    });
    expect(ran).toEqual([{ tool: 'read_note', args: { id: '2' } }]);
    expect(outcome?.call.arguments).toEqual({ id: '2' });
  });

  it('issue 35: an edit that fails the inputSchema, or is no object, is INVALID_EDIT with the pointer: not run', async () => {
    const [bad] = await executeToolCalls([call('read_note', { id: '1' })], clients, {
      onToolCall: () => ({ action: 'edit', arguments: { id: 3 } }),
    });
    expect(errorOf(bad)).toMatchObject({
      code: 'INVALID_EDIT',
      message: expect.stringMatching(/fail the inputSchema \(\/id: /),
      data: { violations: [expect.objectContaining({ path: '/id' })] },
    });
    const [notObject] = await executeToolCalls([call('read_note', { id: '1' })], clients, {
      onToolCall: () => ({ action: 'edit', arguments: ['x'] as never }),
    });
    expect(errorOf(notObject).code).toBe('INVALID_EDIT');
    expect(ran).toEqual([]);
  });

  it('issue 35: a hook that throws, rejects or returns no decision is APPROVAL_FAILED, never a crash', async () => {
    const hooks: ToolCallHook[] = [
      () => {
        throw new Error('policy store offline');
      },
      async () => Promise.reject(new Error('nope')),
      () => ({ action: 'maybe' }) as never,
    ];
    const messages: string[] = [];
    for (const onToolCall of hooks) {
      const [outcome] = await executeToolCalls([call('post_note', { id: '1' })], clients, {
        onToolCall,
      });
      expect(errorOf(outcome).code).toBe('APPROVAL_FAILED');
      messages.push(errorOf(outcome).message);
    }
    expect(messages[0]).toContain('its approval check threw: policy store offline');
    expect(messages[1]).toContain('threw: nope');
    expect(messages[2]).toContain('returned no decision');
    expect(ran).toEqual([]);
  });

  it('issue 35: a hook that hangs is given up after approvalTimeoutMs (its signal fires); one that is cancelled is CANCELLED', async () => {
    let signal: AbortSignal | undefined;
    const [late] = await executeToolCalls([call('post_note', { id: '1' })], clients, {
      onToolCall: (check) => {
        signal = check.signal;
        return new Promise(() => {});
      },
      approvalTimeoutMs: 50,
    });
    expect(errorOf(late)).toMatchObject({
      code: 'APPROVAL_FAILED',
      message: expect.stringContaining('gave no decision within 50 ms'),
    });
    expect(signal?.aborted).toBe(true);
    const controller = new AbortController();
    const pending = executeToolCalls([call('post_note', { id: '1' })], clients, {
      onToolCall: () => {
        controller.abort();
        return new Promise(() => {});
      },
      signal: controller.signal,
    });
    expect(errorOf((await pending)[0]).code).toBe('CANCELLED');
    expect(ran).toEqual([]);
    await expect(
      executeToolCalls([call('post_note', { id: '1' })], clients, { approvalTimeoutMs: 0 }),
    ).rejects.toThrow(/approvalTimeoutMs/);
  });

  it("issue 35: gemini-mcp-kit's own functions (gmk__search_tools) are never sent to the hook", async () => {
    const asked: string[] = [];
    const reply = (parts: object[]) => ({
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }],
    });
    const script = [
      reply([{ functionCall: { id: 's', name: 'gmk__search_tools', args: { query: 'read' } } }]),
      reply([{ functionCall: { id: 'r', name: 'read_note', args: { id: '1' } } }]),
      reply([{ text: 'done' }]),
    ];
    const result = await runConversation({
      generate: async () => script.shift()!,
      toolset,
      clients,
      selection: toolSelection({ maxTools: 2 }),
      contents: [{ role: 'user', parts: [{ text: 'read note 1' }] }],
      onToolCall: (check) => {
        asked.push(check.exposedName);
        return undefined;
      },
    });
    expect(result.stop).toMatchObject({ reason: 'answered', text: 'done' });
    expect(asked).toEqual(['read_note']);
  });
});

describe('issue 35: trust comes from the entry', () => {
  let http: RunningHttpServer;
  beforeAll(async () => {
    http = await startStreamableHttpServer();
  });
  afterAll(() => http.close());

  it("issue 35: an entry's trust: true is the hook's `trusted`; an entry without it is untrusted", async () => {
    const url = `${http.origin}/mcp`;
    const connections = await connectServers({
      mcpServers: { mine: { url, trust: true }, theirs: { url } },
    });
    try {
      const seen: [string, boolean][] = [];
      const calls = ['mine', 'theirs'].map((serverId) => {
        const exposedName = connections.toolset.exposedName(serverId, 'hello')!;
        return {
          serverId,
          name: 'hello',
          exposedName,
          callId: null,
          arguments: { name: 'Ada' },
          tool: connections.toolset.resolve(exposedName)!.tool,
        };
      });
      await executeToolCalls(calls, connections.clients, {
        onToolCall: (check) => {
          seen.push([check.serverId, check.trusted]);
          return undefined;
        },
      });
      expect(seen.sort()).toEqual([
        ['mine', true],
        ['theirs', false],
      ]);
    } finally {
      await connections.close();
    }
  });
});
