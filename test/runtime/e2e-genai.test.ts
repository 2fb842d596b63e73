/**
 * End to end: the real @google/genai client, pointed at a local fake of the Gemini API that
 * plays scripted model turns, drives runConversation against the example server over stdio.
 * The requests the client really sent are checked field by field.
 */
import { type Content as GenAiContent, GoogleGenAI } from '@google/genai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { geminiTools } from '../../src/adapter/tools/declarations.js';
import { functionCalls } from '../../src/adapter/turn/calls.js';
import {
  checkGenerateContentRequest,
  checkVertexV1Beta1GenerateContentRequest,
  checkVertexV1GenerateContentRequest,
} from '../../src/generated/guards.js';
import type { Content, Part } from '../../src/generated/types.js';
import { connectServers, type ServerConnections } from '../../src/runtime/mcp/connect.js';
import { genaiGenerate, genaiGenerateStream } from '../../src/runtime/model/generate.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';
import { type FakeGemini, type ScriptedReply, startFakeGemini } from '../support/fake-gemini.js';
import { BITCOIN_SERVER, EUR_QUOTE } from '../support/runtime-servers.js';

const MODEL = 'gemini-2.5-flash';
const USER: GenAiContent = {
  role: 'user',
  parts: [{ text: 'Hello Ada, and the bitcoin price in EUR?' }],
};

const THOUGHT: Part = {
  text: 'Two tools, in parallel.',
  thought: true,
  thoughtSignature: 'U0lHLTE=',
};
const BITCOIN_CALL: Part = {
  functionCall: { id: 'c1', name: 'bitcoin_price', args: { currency: 'EUR' } },
  thoughtSignature: 'U0lHLTI=',
};
const HELLO_CALL: Part = { functionCall: { id: 'c2', name: 'hello', args: { name: 'Ada' } } };
const CALL_TURN: Content = { role: 'model', parts: [THOUGHT, BITCOIN_CALL, HELLO_CALL] };

const whole = (content: Content, finishReason = 'STOP'): ScriptedReply => ({
  response: { candidates: [{ content, finishReason, index: 0 }], modelVersion: MODEL },
});
const finalText = whole({ role: 'model', parts: [{ text: 'Hello Ada! 1 BTC is €90,310.55.' }] });

interface Body {
  contents: Content[];
  tools: unknown;
}

let connections: ServerConnections;
let fake: FakeGemini | undefined;

beforeAll(async () => {
  connections = await connectServers({ mcpServers: { bitcoin: BITCOIN_SERVER } });
}, 30_000);
afterAll(async () => {
  await connections.close();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function play(script: ScriptedReply[], stream: boolean, maxTurns = 5) {
  fake = await startFakeGemini(script);
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.baseUrl } });
  const generate = (stream ? genaiGenerateStream : genaiGenerate)(ai, { model: MODEL });
  const result = await runConversation({
    generate,
    toolset: connections.toolset,
    clients: connections.clients,
    contents: [USER],
    maxTurns,
  });
  const bodies = fake.requests.map((request) => request.body as Body);
  return { result, requests: fake.requests, bodies };
}

function expectValidRequests(bodies: Body[]): void {
  for (const body of bodies) expect(checkGenerateContentRequest(body)).toEqual([]);
}

describe('EX-4: runConversation through the real @google/genai client', () => {
  it('EX-4: generateContent: tools as declared, one response per call with ids, thought signatures unchanged', async () => {
    const { result, requests, bodies } = await play([whole(CALL_TURN), finalText], false);

    expect(requests.map((r) => [r.method, r.path, r.apiKey])).toEqual([
      ['POST', `/v1beta/models/${MODEL}:generateContent`, 'test-key'],
      ['POST', `/v1beta/models/${MODEL}:generateContent`, 'test-key'],
    ]);
    expectValidRequests(bodies);
    const declared = JSON.parse(JSON.stringify(geminiTools(connections.toolset)));
    expect(bodies[0]?.tools).toEqual(declared);
    expect(bodies[1]?.tools).toEqual(declared);
    expect(bodies[0]?.contents).toEqual([USER]);

    const [user, model, answer] = bodies[1]?.contents ?? [];
    expect(user).toEqual(USER);
    expect(model).toEqual(CALL_TURN);
    expect(answer).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'c1',
            name: 'bitcoin_price',
            response: {
              output: EUR_QUOTE,
            },
          },
        },
        { functionResponse: { id: 'c2', name: 'hello', response: { output: 'Hello, Ada!' } } },
      ],
    });
    expect(bodies[1]?.contents).toHaveLength(3);
    expect(result.stop).toEqual({
      reason: 'answered',
      text: 'Hello Ada! 1 BTC is €90,310.55.',
      finishReason: 'STOP',
    });
    expect(result.turns).toBe(2);
    expect(result.contents).toHaveLength(4);
  }, 30_000);

  it('EX-4: streamed (alt=sse): parallel calls from several chunks become one model Content', async () => {
    const chunk = (parts: Part[], extra: object = {}) => ({
      candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
    });
    const { result, requests, bodies } = await play(
      [
        {
          chunks: [
            chunk([THOUGHT]),
            chunk([BITCOIN_CALL]),
            chunk([HELLO_CALL]),
            {
              candidates: [{ finishReason: 'STOP', index: 0 }],
              usageMetadata: { totalTokenCount: 9 },
            },
          ],
        },
        {
          chunks: [
            chunk([{ text: 'Hello Ada! ' }]),
            chunk([{ text: '1 BTC is €90,310.55.' }], { finishReason: 'STOP' }),
          ],
        },
      ],
      true,
    );

    expect(requests.map((r) => [r.path, r.query.get('alt')])).toEqual([
      [`/v1beta/models/${MODEL}:streamGenerateContent`, 'sse'],
      [`/v1beta/models/${MODEL}:streamGenerateContent`, 'sse'],
    ]);
    expectValidRequests(bodies);
    const [, model, answer] = bodies[1]?.contents ?? [];
    expect(model).toEqual(CALL_TURN);
    expect(answer?.parts?.map((p) => [p.functionResponse?.id, p.functionResponse?.name])).toEqual([
      ['c1', 'bitcoin_price'],
      ['c2', 'hello'],
    ]);
    expect(result.stop).toEqual({
      reason: 'answered',
      text: 'Hello Ada! 1 BTC is €90,310.55.',
      finishReason: 'STOP',
    });
    // The final turn's text pieces stay separate parts, as streamed.
    expect(result.contents.at(-1)?.parts).toEqual([
      { text: 'Hello Ada! ' },
      { text: '1 BTC is €90,310.55.' },
    ]);
  }, 30_000);

  it('EX-3: a rejected call keeps its place: unknown tool, then a real one, then a bad currency', async () => {
    const turn: Content = {
      role: 'model',
      parts: [
        { functionCall: { id: 'r1', name: 'bitcoin_prices', args: { currency: 'EUR' } } },
        HELLO_CALL,
        { functionCall: { id: 'r3', name: 'bitcoin_price', args: { currency: 'XYZ' } } },
      ],
    };
    const { bodies } = await play([whole(turn), finalText], false);
    expectValidRequests(bodies);
    const responses = bodies[1]?.contents[2]?.parts?.map((p) => p.functionResponse);
    expect(responses?.map((r) => [r?.id, r?.name])).toEqual([
      ['r1', 'bitcoin_prices'],
      ['c2', 'hello'],
      ['r3', 'bitcoin_price'],
    ]);
    expect(String(responses?.[0]?.response.error)).toContain('"bitcoin_price"');
    expect(responses?.[1]?.response).toEqual({ output: 'Hello, Ada!' });
    expect(String(responses?.[2]?.response.error)).toContain('Unknown currency "XYZ"');
  }, 30_000);

  it('EX-4: stops at maxTurns with a typed outcome, the last calls answered', async () => {
    const { result, bodies } = await play([whole(CALL_TURN), whole(CALL_TURN)], false, 2);
    expect(bodies).toHaveLength(2);
    expect(result.stop).toEqual({ reason: 'max-turns', maxTurns: 2 });
    expect(result.contents.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
  }, 30_000);

  it('FC-6/EX-4: a MALFORMED_FUNCTION_CALL turn stops the loop without a count mismatch', async () => {
    const { result, bodies } = await play(
      [{ response: { candidates: [{ finishReason: 'MALFORMED_FUNCTION_CALL', index: 0 }] } }],
      false,
    );
    expect(bodies).toHaveLength(1);
    expect(result.stop).toEqual({
      reason: 'call-failure',
      finish: { reason: 'MALFORMED_FUNCTION_CALL' },
    });
    expect(result.contents).toEqual([USER]);
  }, 30_000);

  it('EX-4: a blocked prompt stops with no-content and its feedback', async () => {
    const { result } = await play(
      [{ response: { promptFeedback: { blockReason: 'SAFETY' } } }],
      false,
    );
    expect(result.stop).toEqual({
      reason: 'no-content',
      promptFeedback: { blockReason: 'SAFETY' },
    });
  }, 30_000);

  it('EX-3b: Vertex AI v1beta1 (express mode): a turn with ids round-trips through functionCalls and answerCalls, ids kept', async () => {
    const turn: Content = {
      role: 'model',
      parts: [
        { functionCall: { id: 'vx-1', name: 'bitcoin_price', args: { currency: 'CHF' } } },
        { functionCall: { id: 'vx-2', name: 'hello', args: { name: 'Vera' } } },
      ],
    };
    fake = await startFakeGemini([
      {
        response: {
          candidates: [{ content: turn, finishReason: 'STOP', index: 0 }],
          createTime: '2026-11-30T10:00:00Z',
          responseId: 'r1',
          modelVersion: MODEL,
        },
      },
      finalText,
    ]);
    const ai = new GoogleGenAI({
      vertexai: true,
      apiKey: 'test-key',
      apiVersion: 'v1beta1',
      httpOptions: { baseUrl: fake.baseUrl },
    });
    const contents: GenAiContent[] = [USER];
    const response = await ai.models.generateContent({
      model: MODEL,
      contents,
      config: { tools: geminiTools(connections.toolset) },
    });
    const read = functionCalls(response, connections.toolset);
    expect(read.calls.map((c) => c.callId)).toEqual(['vx-1', 'vx-2']);
    const answer = await answerCalls(read, connections.toolset, connections.clients, {
      dialect: 'vertex-v1beta1',
    });
    expect(answer.parts.map((p) => p.functionResponse.id)).toEqual(['vx-1', 'vx-2']);
    contents.push(response.candidates![0]!.content!, answer);
    await ai.models.generateContent({ model: MODEL, contents });

    expect(fake.requests.map((r) => [r.path, r.apiKey])).toEqual([
      [`/v1beta1/publishers/google/models/${MODEL}:generateContent`, 'test-key'],
      [`/v1beta1/publishers/google/models/${MODEL}:generateContent`, 'test-key'],
    ]);
    const body = fake.requests[1]?.body as Body;
    expect(checkVertexV1Beta1GenerateContentRequest(body)).toEqual([]);
    expect(body.contents[1]).toEqual(turn);
    expect(
      body.contents[2]?.parts?.map((p) => [p.functionResponse?.id, p.functionResponse?.name]),
    ).toEqual([
      ['vx-1', 'bitcoin_price'],
      ['vx-2', 'hello'],
    ]);
    // the same request is not one Vertex AI v1 takes: its reference has no ids
    expect(checkVertexV1GenerateContentRequest(body).map((v) => v.path)).toEqual([
      '/contents/1/parts/0/functionCall/id',
      '/contents/1/parts/1/functionCall/id',
      '/contents/2/parts/0/functionResponse/id',
      '/contents/2/parts/1/functionResponse/id',
    ]);
  }, 30_000);

  it('EX-3b: Vertex AI v1 (express mode): calls without ids, answered without ids, valid v1 requests', async () => {
    const turn: Content = {
      role: 'model',
      parts: [
        { functionCall: { name: 'bitcoin_price', args: { currency: 'CHF' } } },
        { functionCall: { name: 'hello', args: { name: 'Vera' } } },
      ],
    };
    fake = await startFakeGemini([whole(turn), finalText]);
    const ai = new GoogleGenAI({
      vertexai: true,
      apiKey: 'test-key',
      apiVersion: 'v1',
      httpOptions: { baseUrl: fake.baseUrl },
    });
    const notices: string[] = [];
    const result = await runConversation({
      generate: genaiGenerate(ai, { model: MODEL, dialect: 'vertex-v1' }),
      toolset: connections.toolset,
      clients: connections.clients,
      contents: [USER],
      dialect: 'vertex-v1',
      onNotice: (notice) => notices.push(notice.path),
    });
    expect(result.stop.reason).toBe('answered');
    expect(notices).toEqual([]);
    expect(fake.requests.map((r) => r.path)).toEqual([
      `/v1/publishers/google/models/${MODEL}:generateContent`,
      `/v1/publishers/google/models/${MODEL}:generateContent`,
    ]);
    const body = fake.requests[1]?.body as Body;
    expect(checkVertexV1GenerateContentRequest(body)).toEqual([]);
    expect(body.contents[1]).toEqual(turn);
    expect(body.contents[2]?.parts?.map((p) => p.functionResponse)).toEqual([
      {
        name: 'bitcoin_price',
        response: {
          output: {
            currency: 'CHF',
            price: 86490.8,
            asOf: '2026-11-01T00:00:00Z',
            source: 'offline snapshot',
          },
        },
      },
      { name: 'hello', response: { output: 'Hello, Vera!' } },
    ]);
  }, 30_000);

  it('EX-3b: a Vertex AI reply read as a Gemini API one reports its Vertex-only fields as notices; read as Vertex AI, none', async () => {
    const reply = {
      response: {
        candidates: [
          { content: { role: 'model', parts: [{ text: 'Hi.' }] }, finishReason: 'STOP', index: 0 },
        ],
        createTime: '2026-11-30T10:00:00Z',
        modelVersion: MODEL,
      },
    };
    fake = await startFakeGemini([reply, reply]);
    const ai = new GoogleGenAI({
      vertexai: true,
      apiKey: 'test-key',
      apiVersion: 'v1beta1',
      httpOptions: { baseUrl: fake.baseUrl },
    });
    const heard = async (dialect: 'gemini' | 'vertex') => {
      const notices: string[] = [];
      await runConversation({
        generate: genaiGenerate(ai, { model: MODEL, dialect }),
        toolset: connections.toolset,
        clients: connections.clients,
        contents: [USER],
        onNotice: (notice) => notices.push(notice.path),
      });
      return notices;
    };
    expect(await heard('gemini')).toEqual(['/createTime']);
    expect(await heard('vertex')).toEqual([]);
  }, 30_000);
});
