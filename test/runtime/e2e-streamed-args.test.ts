/**
 * Issue 37 item 2, end to end: the real @google/genai client in Vertex AI mode (v1beta1),
 * pointed at a local fake that streams a model turn whose two calls arrive with their
 * arguments in interleaved pieces (`streamFunctionCallArguments`), drives runConversation
 * against the example MCP server (in memory): each call runs with its assembled arguments, and
 * the next request carries the assembled Content with the first call's thought signature.
 */
import { type Content as GenAiContent, GoogleGenAI } from '@google/genai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import { checkRequest } from '../../src/adapter/turn/request-checks.js';
import type { ReadNotice } from '../../src/generated/guards-common.js';
import { checkVertexV1Beta1GenerateContentRequest } from '../../src/generated/guards-vertex-v1beta1.js';
import type { Content } from '../../src/generated/types.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import { genaiGenerateStream } from '../../src/runtime/model/generate.js';
import type { PartialArgsUpdate } from '../../src/runtime/model/streamed-calls.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini.js';
import { EUR_QUOTE, inMemoryBitcoinClient } from '../support/runtime-servers.js';

const MODEL = 'gemini-3-pro-preview';
const SIGNATURE = 'CmAB4/H/XjMJHE7D6md5DkxjVQTcNUDFEWnlqRvmkBdT';
const USER: GenAiContent = {
  role: 'user',
  parts: [{ text: 'Greet Ada, and the bitcoin price in EUR?' }],
};

const chunk = (parts: object[], extra: object = {}) => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
  modelVersion: MODEL,
  createTime: '2026-12-03T10:00:00Z',
  responseId: 'r-1',
});
const piece = (id: string, jsonPath: string, stringValue: string, more: boolean) => ({
  functionCall: {
    id,
    partialArgs: [{ jsonPath, stringValue, ...(more ? { willContinue: true } : {}) }],
    willContinue: true,
  },
});

/** The recorded shape: each call opens with its name, pieces interleave by id, each closes with an empty call. */
const STREAMED_TURN = [
  chunk([
    { functionCall: { id: 'c1', name: 'hello', willContinue: true }, thoughtSignature: SIGNATURE },
  ]),
  chunk([{ functionCall: { id: 'c2', name: 'bitcoin_price', willContinue: true } }]),
  chunk([piece('c1', '$.name', 'A', true)]),
  chunk([piece('c2', '$.currency', 'E', true)]),
  chunk([piece('c1', '$.name', 'da', true)]),
  chunk([piece('c2', '$.currency', 'UR', true)]),
  chunk([piece('c1', '$.name', '', false)]),
  chunk([piece('c2', '$.currency', '', false)]),
  chunk([{ functionCall: { id: 'c1' } }]),
  chunk([{ functionCall: { id: 'c2' } }], { finishReason: 'STOP' }),
];
const FINAL = chunk([{ text: 'Hello, Ada! 1 BTC is €90,310.55.' }], { finishReason: 'STOP' });

interface Body {
  contents: Content[];
  toolConfig?: unknown;
}

let client: Client;
let toolset: ToolSet;
let fake: FakeGemini | undefined;

beforeAll(async () => {
  client = await inMemoryBitcoinClient();
  ({ toolset } = buildToolSet([{ serverId: 'bitcoin', tools: await listAllTools(client) }]));
});
afterAll(() => client.close());
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('issue 37: streamed function-call arguments through the real @google/genai client (Vertex AI v1beta1)', () => {
  it('the calls run on the MCP server with the assembled arguments; the next request carries the assembled Content, signature kept', async () => {
    fake = await startFakeGemini([{ chunks: STREAMED_TURN }, { chunks: [FINAL] }]);
    const ai = new GoogleGenAI({
      vertexai: true,
      apiKey: 'test-key',
      apiVersion: 'v1beta1',
      httpOptions: { baseUrl: fake.baseUrl },
    });
    const notices: ReadNotice[] = [];
    const updates: PartialArgsUpdate[] = [];
    const result = await runConversation({
      generate: genaiGenerateStream(ai, {
        model: MODEL,
        dialect: 'vertex-v1beta1',
        config: { toolConfig: { functionCallingConfig: { streamFunctionCallArguments: true } } },
      }),
      toolset,
      clients: new Map([['bitcoin', client]]),
      contents: [USER],
      dialect: 'vertex-v1beta1',
      onNotice: (notice) => notices.push(notice),
      onPartialArgs: (update) => updates.push({ ...update, args: { ...update.args } }),
    });

    expect(notices).toEqual([]);
    expect(result.stop).toEqual({
      reason: 'answered',
      text: 'Hello, Ada! 1 BTC is €90,310.55.',
      finishReason: 'STOP',
    });
    expect(fake.requests.map((r) => [r.path, r.query.get('alt')])).toEqual([
      [`/v1beta1/publishers/google/models/${MODEL}:streamGenerateContent`, 'sse'],
      [`/v1beta1/publishers/google/models/${MODEL}:streamGenerateContent`, 'sse'],
    ]);
    const bodies = fake.requests.map((r) => r.body as Body);
    expect(bodies[0]?.toolConfig).toEqual({
      functionCallingConfig: { streamFunctionCallArguments: true },
    });
    const [, model, answer] = bodies[1]?.contents ?? [];
    // The assembled Content: one part per call, at its first piece's place, that piece's signature.
    expect(model).toEqual({
      role: 'model',
      parts: [
        {
          functionCall: { id: 'c1', name: 'hello', args: { name: 'Ada' } },
          thoughtSignature: SIGNATURE,
        },
        { functionCall: { id: 'c2', name: 'bitcoin_price', args: { currency: 'EUR' } } },
      ],
    });
    // Run on the real server with those arguments: its answers say so.
    expect(answer).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'c1', name: 'hello', response: { output: 'Hello, Ada!' } } },
        {
          functionResponse: {
            id: 'c2',
            name: 'bitcoin_price',
            response: {
              output: EUR_QUOTE,
            },
          },
        },
      ],
    });
    for (const body of bodies) expect(checkVertexV1Beta1GenerateContentRequest(body)).toEqual([]);
    expect(
      checkRequest(bodies[1], {
        model: MODEL,
        streamed: true,
        budget: { dialect: 'vertex-v1beta1' },
      }),
    ).toEqual([]);
    // The caller heard the arguments grow, piece by piece, call by call.
    expect(updates.filter((u) => u.id === 'c1').map((u) => [u.phase, u.args.name ?? null])).toEqual(
      [
        ['open', null],
        ['piece', 'A'],
        ['piece', 'Ada'],
        ['piece', 'Ada'],
        ['closed', 'Ada'],
      ],
    );
    expect(updates.filter((u) => u.phase === 'closed').map((u) => u.name)).toEqual([
      'hello',
      'bitcoin_price',
    ]);
  }, 30_000);
});
