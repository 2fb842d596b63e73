/**
 * Issue 32 item 2: multi round-trip requests (MCP 2026-07-28). A server of the v2 SDK answers
 * `tools/call` with `input_required`; a v2 client that negotiated 2026-07-28, equipped with our
 * features (`equipClient`: elicitation, sampling, roots), answers the input requests through
 * them and retries; the bounds (rounds, bytes, time) end a server that keeps asking, answered to
 * the model. The server's HTTP entry is called in process (its fetch face, no socket); the model
 * is the real @google/genai client against the scripted local endpoint.
 */
import { GoogleGenAI } from '@google/genai';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  inputResponse,
  McpServer,
} from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import type { ToolError, ToolResult } from '../../src/adapter/types.js';
import { type ClientFeature, equipClient } from '../../src/runtime/mcp/features/capabilities.js';
import {
  type ElicitationQuery,
  elicitationFeature,
} from '../../src/runtime/mcp/features/elicitation.js';
import { ServerRoots } from '../../src/runtime/mcp/features/roots.js';
import { samplingFeature } from '../../src/runtime/mcp/features/sampling.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import type { McpClientWithHandlers } from '../../src/runtime/mcp/mcp-client.js';
import { genaiGenerate } from '../../src/runtime/model/generate.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';
import { type ExecuteOptions, executeToolCalls } from '../../src/runtime/turn/execute.js';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini.js';

const CONFIRM = z.object({ confirm: z.boolean() });

/** What each tool's handler saw of the retries, by tool. */
const seen: { requestStates: unknown[]; rounds: number } = { requestStates: [], rounds: 0 };

/** A v2 server whose tools need the client's input, the 2026-07-28 way. */
function server(): McpServer {
  const mcp = new McpServer({ name: 'asking-server', version: '1.0.0' });
  mcp.registerTool(
    'transfer',
    { inputSchema: z.object({ amount: z.number() }) },
    async ({ amount }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
      if (answer.kind !== 'elicit') {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Transfer ${amount} EUR?`,
              requestedSchema: CONFIRM,
            }),
          },
          requestState: 'transfer-1',
        });
      }
      seen.requestStates.push(ctx.mcpReq.requestState());
      const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', CONFIRM)?.confirm;
      return {
        content: [
          {
            type: 'text',
            text: confirmed === true ? `transferred ${amount} EUR` : 'not transferred',
          },
        ],
      };
    },
  );
  mcp.registerTool('pester', { inputSchema: z.object({}) }, async () => {
    seen.rounds += 1;
    return inputRequired({
      inputRequests: {
        [`again-${seen.rounds}`]: inputRequired.elicit({
          message: 'And once more?',
          requestedSchema: CONFIRM,
        }),
      },
    });
  });
  mcp.registerTool(
    'open_link',
    { inputSchema: z.object({ url: z.string() }) },
    async ({ url }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'login');
      if (answer.kind === 'elicit') {
        return { content: [{ type: 'text', text: `login ${answer.action}` }] };
      }
      return inputRequired({
        inputRequests: {
          login: {
            method: 'elicitation/create',
            params: { mode: 'url', message: 'Sign in', url, elicitationId: 'e-1' },
          },
        },
      });
    },
  );
  mcp.registerTool('bulky', { inputSchema: z.object({}) }, async () =>
    inputRequired({
      inputRequests: {
        big: inputRequired.elicit({ message: 'x'.repeat(4096), requestedSchema: CONFIRM }),
      },
    }),
  );
  mcp.registerTool('gather', { inputSchema: z.object({}) }, async (_args, ctx) => {
    const roots = inputResponse(ctx.mcpReq.inputResponses, 'roots');
    const sampled = inputResponse(ctx.mcpReq.inputResponses, 'summary');
    if (roots.kind === 'roots' && sampled.kind === 'sampling') {
      const text = sampled.result.content as { type: 'text'; text: string };
      return {
        content: [
          { type: 'text', text: `${roots.roots.map((r) => r.uri).join(',')} | ${text.text}` },
        ],
      };
    }
    return inputRequired({
      inputRequests: {
        roots: inputRequired.listRoots(),
        summary: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarise.' } }],
          maxTokens: 50,
        }),
      },
    });
  });
  return mcp;
}

const opened: Client[] = [];
let fake: FakeGemini | undefined;
afterEach(async () => {
  for (const client of opened.splice(0)) await client.close();
  await fake?.close();
  fake = undefined;
  seen.requestStates = [];
  seen.rounds = 0;
});

/** A v2 client on 2026-07-28 (negotiated), equipped with `features`, and the tool set. */
async function connected(
  features: readonly ClientFeature[],
): Promise<{ client: Client; toolset: ToolSet }> {
  const handler = createMcpHandler(() => server());
  const transport = new StreamableHTTPClientTransport(new URL('http://in-process.test/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  const client = new Client(
    { name: 'gemini-mcp-tests', version: '0.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  equipClient(client as McpClientWithHandlers, 'srv', features);
  await client.connect(transport);
  opened.push(client);
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  const { toolset } = buildToolSet([{ serverId: 'srv', tools: await listAllTools(client) }]);
  return { client, toolset };
}

/** What came of calling `name` with `args`: the result, or the ToolError the model is answered. */
async function callOf(
  client: Client,
  toolset: ToolSet,
  name: string,
  args: Record<string, unknown>,
  options: ExecuteOptions = {},
): Promise<ToolResult | ToolError | undefined> {
  const entry = toolset.entries.find((candidate) => candidate.exposedName === name);
  const [outcome] = await executeToolCalls(
    [
      {
        callId: 'c1',
        exposedName: name,
        serverId: 'srv',
        name,
        arguments: args,
        tool: entry!.tool,
      },
    ],
    { srv: client },
    options,
  );
  return outcome?.result;
}

/** The text a call's result carries. */
const textOf = (result: ToolResult | ToolError | undefined) =>
  (result as ToolResult | undefined)?.content
    ?.map((block) => (block as { text: string }).text)
    .join('');

const accept = (confirm: boolean) => ({ action: 'accept' as const, content: { confirm } });

describe('issue 32 item 2: input_required answered through our features', () => {
  it('an input_required elicitation goes to onElicitation in a runConversation turn, and the retried call (requestState echoed) answers the model', async () => {
    const queries: ElicitationQuery[] = [];
    const { client, toolset } = await connected([
      elicitationFeature({
        onElicitation: (query) => {
          queries.push(query);
          return accept(true);
        },
      }),
    ]);
    fake = await startFakeGemini([
      {
        response: {
          candidates: [
            {
              content: {
                role: 'model',
                parts: [{ functionCall: { id: 't1', name: 'transfer', args: { amount: 25 } } }],
              },
            },
          ],
        },
      },
      { response: { candidates: [{ content: { role: 'model', parts: [{ text: 'Done.' }] } }] } },
    ]);
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.baseUrl } });
    const result = await runConversation({
      generate: genaiGenerate(ai, { model: 'gemini-2.5-flash' }),
      toolset,
      clients: { srv: client },
      contents: [{ role: 'user', parts: [{ text: 'Send Ada 25 EUR.' }] }],
    });
    expect(queries).toEqual([
      expect.objectContaining({
        mode: 'form',
        message: 'Transfer 25 EUR?',
        fields: [{ name: 'confirm', kind: 'boolean', required: true }],
      }),
    ]);
    expect(seen.requestStates).toEqual(['transfer-1']);
    const second = fake.requests[1]?.body as { contents: { parts: unknown[] }[] };
    expect(second.contents.at(-1)?.parts).toEqual([
      {
        functionResponse: {
          id: 't1',
          name: 'transfer',
          response: { output: 'transferred 25 EUR' },
        },
      },
    ]);
    expect(result.contents.at(-1)?.parts).toEqual([{ text: 'Done.' }]);
  });

  it('sampling and roots requests in one round go to the sampling and roots features', async () => {
    const roots = new ServerRoots([{ uri: 'file:///work/project', name: 'project' }]);
    const generate = async () => ({
      candidates: [{ content: { role: 'model', parts: [{ text: 'a summary' }] } }],
    });
    const { client, toolset } = await connected([
      roots.feature,
      samplingFeature('srv', { generate }),
    ]);
    expect(textOf(await callOf(client, toolset, 'gather', {}))).toBe(
      'file:///work/project | a summary',
    );
  });

  it('a server that keeps asking is ended after maxRounds, answered to the model as INPUT_LIMIT naming the limit', async () => {
    let asked = 0;
    const { client, toolset } = await connected([
      elicitationFeature({
        requestsPerMinute: 100,
        onElicitation: () => {
          asked += 1;
          return accept(true);
        },
      }),
    ]);
    const response = await callOf(
      client,
      toolset,
      'pester',
      {},
      { inputRequired: { maxRounds: 3 } },
    );
    expect(response).toEqual({
      code: 'INPUT_LIMIT',
      message:
        'tool "pester" on server "srv" still asked for input after 3 round(s) (limit inputRequired.maxRounds); the call was ended',
      data: { limit: 'maxRounds', rounds: 3 },
    });
    expect(asked).toBe(3);
    expect(seen.rounds).toBe(4);
  });

  it('a round larger than maxRequestBytes is ended before onElicitation sees it', async () => {
    let asked = 0;
    const { client, toolset } = await connected([
      elicitationFeature({
        onElicitation: () => {
          asked += 1;
          return accept(true);
        },
      }),
    ]);
    const response = await callOf(
      client,
      toolset,
      'bulky',
      {},
      {
        inputRequired: { maxRequestBytes: 1024 },
      },
    );
    expect(response).toMatchObject({
      code: 'INPUT_LIMIT',
      data: { limit: 'maxRequestBytes', maxRequestBytes: 1024 },
    });
    expect((response as ToolError).message).toMatch(/limit inputRequired\.maxRequestBytes/);
    expect(asked).toBe(0);
  });

  it('timeoutMs bounds the whole call: an answer that never comes ends it as TIMEOUT naming the limit, and the handler is told', async () => {
    let signal: AbortSignal | undefined;
    const { client, toolset } = await connected([
      elicitationFeature({
        onElicitation: (_query, context) => {
          signal = context.signal;
          return new Promise(() => {});
        },
      }),
    ]);
    const response = await callOf(client, toolset, 'transfer', { amount: 1 }, { timeoutMs: 300 });
    expect(response).toMatchObject({
      code: 'TIMEOUT',
      data: { limit: 'timeoutMs', timeoutMs: 300, rounds: 1 },
    });
    expect(signal?.aborted).toBe(true);
  });

  it('URL mode follows the same URL rules: an https link reaches onElicitation, a javascript: one ends the call as INPUT_REFUSED', async () => {
    const queries: ElicitationQuery[] = [];
    const { client, toolset } = await connected([
      elicitationFeature({
        url: true,
        onElicitation: (query) => {
          queries.push(query);
          return { action: 'accept' };
        },
      }),
    ]);
    expect(
      textOf(await callOf(client, toolset, 'open_link', { url: 'https://login.example.com/x' })),
    ).toBe('login accept');
    expect(queries).toEqual([
      {
        mode: 'url',
        message: 'Sign in',
        url: 'https://login.example.com/x',
        elicitationId: 'e-1',
      },
    ]);
    const refused = await callOf(client, toolset, 'open_link', { url: 'javascript:alert(1)' });
    expect(refused as ToolError).toMatchObject({
      code: 'INPUT_REFUSED',
      data: { key: 'login', method: 'elicitation/create', code: 'INVALID_INPUT' },
    });
    expect((refused as ToolError)?.message).toMatch(/elicitation URL refused/);
    expect(queries).toHaveLength(1);
  });

  it('a declined elicitation is no error: the server hears the decline on the retry and answers', async () => {
    const { client, toolset } = await connected([
      elicitationFeature({ onElicitation: () => ({ action: 'decline' }) }),
    ]);
    expect(textOf(await callOf(client, toolset, 'transfer', { amount: 5 }))).toBe(
      'not transferred',
    );
  });
});
