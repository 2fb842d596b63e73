/**
 * MCP sampling served by Gemini, end to end: real MCP servers (server-everything over stdio, a
 * server written here in memory) ask the client for completions while the agent runs their
 * tools through `answerCalls`; the real @google/genai client answers them from the local
 * scripted Gemini endpoint. Every request and result on both sides is checked by its validator.
 */
import { GoogleGenAI } from '@google/genai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CreateMessageRequestParams,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { SamplingWarning } from '../../src/adapter/sampling/types.js';
import type { ResponseInput } from '../../src/adapter/shapes.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import {
  checkGenerateContentRequest,
  checkMcpCreateMessageRequestParams,
  checkMcpCreateMessageResult,
} from '../../src/generated/guards.js';
import type { Content, Part } from '../../src/generated/types.js';
import {
  SAMPLING_ERROR_CODES,
  type SamplingOptions,
  serveSampling,
} from '../../src/runtime/mcp/features/sampling.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import { genaiGenerate } from '../../src/runtime/model/generate.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { type FakeGemini, type ScriptedReply, startFakeGemini } from '../support/fake-gemini.js';
import { connectReapedAfterEach, EVERYTHING_SERVER } from '../support/runtime-servers.js';

const MODEL = 'gemini-2.5-flash';
const whole = (parts: Part[], finishReason = 'STOP'): ScriptedReply => ({
  response: {
    candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
    modelVersion: MODEL,
  },
});
const callTurn = (...calls: [id: string, name: string, args: object][]): Content => ({
  role: 'model',
  parts: calls.map(([id, name, args]) => ({
    functionCall: { id, name, args: args as Record<string, unknown> },
  })),
});

interface Body {
  contents: Content[];
  systemInstruction?: Content;
  generationConfig?: Record<string, unknown>;
  toolConfig?: unknown;
  tools?: { functionDeclarations: { name: string }[] }[];
}

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function gemini(script: ScriptedReply[]) {
  fake = await startFakeGemini(script);
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.baseUrl } });
  return { generate: genaiGenerate(ai, { model: MODEL }), fake };
}

function bodiesOf(server: FakeGemini): Body[] {
  const bodies = server.requests.map((request) => request.body as Body);
  for (const body of bodies) expect(checkGenerateContentRequest(body)).toEqual([]);
  return bodies;
}

function outputOf(answer: {
  parts: { functionResponse: { response: Record<string, unknown> } }[];
}) {
  return answer.parts.map((part) => part.functionResponse.response);
}

describe('server-everything asks for sampling over stdio (SA-6)', () => {
  const connect = connectReapedAfterEach();

  it('SA-6: trigger-sampling-request, called through answerCalls, gets its completion from Gemini', async () => {
    const { generate, fake: endpoint } = await gemini([whole([{ text: 'Four.' }])]);
    const warnings: SamplingWarning[] = [];
    const connections = await connect(
      { mcpServers: { everything: EVERYTHING_SERVER } },
      { sampling: { generate, onWarning: (warning) => warnings.push(warning) } },
    );
    // The tool is registered once the server sees the sampling capability (then list_changed).
    for (let i = 0; i < 50 && !connections.toolset.resolve('trigger-sampling-request'); i++) {
      await connections.refreshTools('everything');
    }
    const answer = await answerCalls(
      callTurn(['a1', 'trigger-sampling-request', { prompt: 'What is 2+2?', maxTokens: 50 }]),
      connections.toolset,
      connections.clients,
    );
    const [response] = outputOf(answer);
    const text = String(response?.output);
    expect(text).toMatch(/^LLM sampling result:/);
    const result: unknown = JSON.parse(text.slice(text.indexOf('{')));
    expect(checkMcpCreateMessageResult(result)).toEqual([]);
    expect(result).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Four.' },
      model: MODEL,
      stopReason: 'endTurn',
    });
    const [body] = bodiesOf(endpoint);
    expect(endpoint.requests[0]?.path).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(body?.contents).toEqual([
      {
        role: 'user',
        parts: [{ text: 'Resource trigger-sampling-request context: What is 2+2?' }],
      },
    ]);
    expect(body?.systemInstruction).toMatchObject({
      parts: [{ text: 'You are a helpful test server.' }],
    });
    expect(body?.generationConfig).toEqual({ maxOutputTokens: 50, temperature: 0.7 });
    expect(warnings).toEqual([]);
  }, 60_000);
});

/** What the server written here sent and received. */
interface Exchange {
  params: CreateMessageRequestParams[];
  results: unknown[];
}

const WEATHER = {
  name: 'get_weather',
  description: 'The weather of a city',
  inputSchema: {
    type: 'object' as const,
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
};

/**
 * A server whose tools ask for sampling: `plan` runs a tool loop (tools, `toolChoice:
 * required`, then the tool_result), `ask` one plain request. A failed request becomes an
 * `isError` result naming the JSON-RPC error code.
 */
function askingServer(exchange: Exchange): Server {
  const server = new Server({ name: 'asker', version: '1.0.0' }, { capabilities: { tools: {} } });
  const ask = async (params: CreateMessageRequestParams) => {
    expect(checkMcpCreateMessageRequestParams(params)).toEqual([]);
    exchange.params.push(params);
    const result = await server.createMessage(params);
    exchange.results.push(result);
    return result;
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name: 'plan', inputSchema: { type: 'object' } },
      { name: 'ask', inputSchema: { type: 'object' } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      if (request.params.name === 'ask') {
        const result = await ask({
          messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
          maxTokens: 20,
        });
        return { content: [result.content as { type: 'text'; text: string }] };
      }
      const first: CreateMessageRequestParams = {
        messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Paris?' } }],
        maxTokens: 200,
        tools: [WEATHER],
        toolChoice: { mode: 'required' },
      };
      const asked = await ask(first);
      const blocks = Array.isArray(asked.content) ? asked.content : [asked.content];
      const uses = blocks.flatMap((block) => (block.type === 'tool_use' ? [block] : []));
      const final = await ask({
        ...first,
        toolChoice: { mode: 'auto' },
        messages: [
          ...first.messages,
          { role: 'assistant', content: blocks },
          {
            role: 'user',
            content: uses.map((use) => ({
              type: 'tool_result' as const,
              toolUseId: use.id,
              content: [{ type: 'text' as const, text: '18 C' }],
            })),
          },
        ],
      });
      const text = [final.content].flat().flatMap((b) => (b.type === 'text' ? [b.text] : []));
      return { content: [{ type: 'text', text: text.join('') }] };
    } catch (error) {
      const code = error instanceof McpError ? error.code : 'none';
      const message = error instanceof Error ? error.message : String(error);
      return {
        content: [{ type: 'text', text: `sampling failed: ${code} ${message}` }],
        isError: true,
      };
    }
  });
  return server;
}

async function askingClient<R extends ResponseInput>(options: SamplingOptions<R>) {
  const exchange: Exchange = { params: [], results: [] };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await askingServer(exchange).connect(serverSide);
  const client = new Client({ name: 'gemini-mcp-tests', version: '0.0.0' });
  serveSampling(client, 'asker', options);
  await client.connect(clientSide);
  const { toolset } = buildToolSet([{ serverId: 'asker', tools: await listAllTools(client) }]);
  return { client, toolset, exchange, clients: new Map([['asker', client]]) };
}

describe('a server asks for sampling with tools (SA-6)', () => {
  it('SA-6: tools + toolChoice required -> tool_use; the tool_result goes back; the final text arrives', async () => {
    const { generate, fake: endpoint } = await gemini([
      whole([
        {
          functionCall: { id: 'g1', name: 'get_weather', args: { city: 'Paris' } },
          thoughtSignature: 'U0lHLTE=',
        },
      ]),
      whole([{ text: 'It is 18 C in Paris.' }]),
    ]);
    const { toolset, clients, exchange, client } = await askingClient({ generate });
    try {
      const answer = await answerCalls(callTurn(['p1', 'plan', {}]), toolset, clients);
      expect(outputOf(answer)).toEqual([{ output: 'It is 18 C in Paris.' }]);

      for (const result of exchange.results)
        expect(checkMcpCreateMessageResult(result)).toEqual([]);
      expect(exchange.results[0]).toEqual({
        role: 'assistant',
        model: MODEL,
        stopReason: 'toolUse',
        content: [
          {
            type: 'tool_use',
            id: 'g1',
            name: 'get_weather',
            input: { city: 'Paris' },
            _meta: { 'gemini-mcp/thoughtSignature': 'U0lHLTE=' },
          },
        ],
      });
      const [first, second] = bodiesOf(endpoint);
      expect(first?.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
      expect(first?.tools?.[0]?.functionDeclarations.map((d) => d.name)).toEqual(['get_weather']);
      expect(second?.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
      expect(second?.contents.slice(1)).toEqual([
        {
          role: 'model',
          parts: [
            {
              functionCall: { id: 'g1', name: 'get_weather', args: { city: 'Paris' } },
              thoughtSignature: 'U0lHLTE=',
            },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'g1', name: 'get_weather', response: { output: '18 C' } } },
          ],
        },
      ]);
    } finally {
      await client.close();
    }
  });

  it('SA-6: the approval hook sees the request and may edit it', async () => {
    const { generate, fake: endpoint } = await gemini([whole([{ text: 'Hello!' }])]);
    const seen: string[] = [];
    const { toolset, clients, client } = await askingClient({
      generate,
      model: 'gemini-2.5-pro',
      onSamplingRequest: ({ serverId, params }) => {
        seen.push(serverId);
        return { action: 'accept', params: { ...params, systemPrompt: 'Answer in one word.' } };
      },
    });
    try {
      const answer = await answerCalls(callTurn(['a1', 'ask', {}]), toolset, clients);
      expect(outputOf(answer)).toEqual([{ output: 'Hello!' }]);
      expect(seen).toEqual(['asker']);
      const [body] = bodiesOf(endpoint);
      expect(body?.systemInstruction).toMatchObject({ parts: [{ text: 'Answer in one word.' }] });
      expect(endpoint.requests[0]?.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    } finally {
      await client.close();
    }
  });

  it.each([
    [
      'a refusal by the approval hook',
      { onSamplingRequest: () => ({ action: 'decline' as const }) },
      [] as ScriptedReply[],
      SAMPLING_ERROR_CODES.declined,
      0,
    ],
    ['a model error (HTTP 500)', {}, [] as ScriptedReply[], SAMPLING_ERROR_CODES.modelError, 1],
    [
      'a reply without content',
      {},
      [{ response: { promptFeedback: { blockReason: 'SAFETY' } } }],
      SAMPLING_ERROR_CODES.modelError,
      1,
    ],
  ])(
    'SA-6: %s gives the server a JSON-RPC error; the agent turn goes on',
    async (_label, extra, script, code, sent) => {
      const { generate, fake: endpoint } = await gemini(script);
      const { toolset, clients, client } = await askingClient({ generate, ...extra });
      try {
        const answer = await answerCalls(callTurn(['a1', 'ask', {}]), toolset, clients);
        const [response] = outputOf(answer);
        expect(String(response?.error)).toMatch(new RegExp(`^sampling failed: ${code} `));
        expect(endpoint.requests).toHaveLength(sent);
      } finally {
        await client.close();
      }
    },
  );

  it('SA-6: over the per-minute limit, a request is refused (overLimit); the others are served', async () => {
    const { generate, fake: endpoint } = await gemini([whole([{ text: 'Hi!' }])]);
    const { toolset, clients, client } = await askingClient({
      generate,
      limits: { requestsPerMinute: 1 },
    });
    try {
      const answer = await answerCalls(
        callTurn(['a1', 'ask', {}], ['a2', 'ask', {}]),
        toolset,
        clients,
      );
      const responses = outputOf(answer);
      expect(responses).toHaveLength(2);
      expect(responses.filter((r) => r.output === 'Hi!')).toHaveLength(1);
      const refused = responses.find((r) => r.error !== undefined);
      expect(String(refused?.error)).toMatch(
        new RegExp(`^sampling failed: ${SAMPLING_ERROR_CODES.overLimit} .*rate limit`),
      );
      expect(endpoint.requests).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('SA-6: serverLimits override limits for that server', async () => {
    const { generate, fake: endpoint } = await gemini([
      whole([{ text: 'Hi!' }]),
      whole([{ text: 'Hi!' }]),
    ]);
    const { toolset, clients, client } = await askingClient({
      generate,
      limits: { requestsPerMinute: 1 },
      serverLimits: { asker: { requestsPerMinute: 2 }, other: { requestsPerMinute: 1 } },
    });
    try {
      const answer = await answerCalls(
        callTurn(['a1', 'ask', {}], ['a2', 'ask', {}]),
        toolset,
        clients,
      );
      expect(outputOf(answer)).toEqual([{ output: 'Hi!' }, { output: 'Hi!' }]);
      expect(endpoint.requests).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('SA-6: a request over maxMessages is refused (overLimit) before the model is asked', async () => {
    const { generate, fake: endpoint } = await gemini([
      whole([{ functionCall: { id: 'g1', name: 'get_weather', args: { city: 'Oslo' } } }]),
    ]);
    const { toolset, clients, client } = await askingClient({
      generate,
      limits: { maxMessages: 2 },
    });
    try {
      const answer = await answerCalls(callTurn(['p1', 'plan', {}]), toolset, clients);
      expect(String(outputOf(answer)[0]?.error)).toMatch(
        new RegExp(
          `^sampling failed: ${SAMPLING_ERROR_CODES.overLimit} .*3 message\\(s\\) \\(limit 2\\)`,
        ),
      );
      expect(endpoint.requests).toHaveLength(1); // the first request (1 message) was served
    } finally {
      await client.close();
    }
  });

  it('SA-6: a model that does not answer within timeoutMs is a modelError; its request is aborted', async () => {
    let aborted = false;
    const generate = ({ signal }: { signal?: AbortSignal }) =>
      new Promise<never>((_resolve, reject) => {
        signal?.addEventListener('abort', () => {
          aborted = true;
          reject(signal.reason);
        });
      });
    const { toolset, clients, client } = await askingClient({
      generate,
      limits: { timeoutMs: 50 },
    });
    try {
      const answer = await answerCalls(callTurn(['a1', 'ask', {}]), toolset, clients);
      expect(String(outputOf(answer)[0]?.error)).toMatch(
        new RegExp(`^sampling failed: ${SAMPLING_ERROR_CODES.modelError} .*the model failed`),
      );
      expect(aborted).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('SA-6: limits out of range are refused before anything runs', () => {
    const client = new Client({ name: 't', version: '0' });
    const generate = async () => ({ candidates: [] });
    expect(() =>
      serveSampling(client, 's', { generate, limits: { requestsPerMinute: 0 } }),
    ).toThrow(/requestsPerMinute/);
    expect(() => serveSampling(client, 's', { generate, limits: { timeoutMs: -1 } })).toThrow(
      /timeoutMs/,
    );
  });
});
