/** runConversation, gatherTurn and the @google/genai adapters, with scripted models in memory. */

import * as genai from '@google/genai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseInput } from '../../src/adapter/shapes.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import { GeminiMcpError } from '../../src/errors.js';
import type { Content, GenerateContentResponse, Part } from '../../src/generated/types.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import { gatherTurn } from '../../src/runtime/model/gather.js';
import {
  type GenAiClient,
  type GenAiParameters,
  type Generate,
  type GenerateRequest,
  genaiGenerate,
  genaiGenerateStream,
} from '../../src/runtime/model/generate.js';
import { type AnsweredTurn, runConversation } from '../../src/runtime/turn/conversation.js';
import { inMemoryServers } from '../support/runtime-servers.js';

let toolset: ToolSet;
let clients: Map<string, Client>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ toolset, clients, close } = await inMemoryServers());
});
afterAll(() => close());

const USER: Content = { role: 'user', parts: [{ text: 'hi' }] };
const respond = (parts: Part[], extra: object = {}): GenerateContentResponse => ({
  candidates: [{ content: { role: 'model', parts }, ...extra }],
});
const helloCall = (id: string): Part => ({
  functionCall: { id, name: 'hello', args: { name: id } },
});

/** A model that plays `turns` in order and records what it was asked. */
function scripted(turns: GenerateContentResponse[]): {
  generate: Generate;
  asked: GenerateRequest[];
} {
  const asked: GenerateRequest[] = [];
  const generate: Generate = async (request) => {
    asked.push(request);
    const turn = turns[asked.length - 1];
    if (turn === undefined) throw new Error('script exhausted');
    return turn;
  };
  return { generate, asked };
}

describe('EX-4: runConversation', () => {
  it('EX-4: keeps each model Content as the same object, answers, and reports every turn', async () => {
    const first = respond([helloCall('t1'), helloCall('t2')]);
    const { generate, asked } = scripted([first, respond([{ text: 'done' }, { text: '!' }])]);
    const turns: AnsweredTurn[] = [];
    const result = await runConversation({
      generate,
      toolset,
      clients,
      contents: [USER],
      onTurn: (turn) => turns.push(turn),
    });
    expect(result.stop).toEqual({ reason: 'answered', text: 'done!' });
    expect(result.contents[1]).toBe(first.candidates?.[0]?.content);
    expect(asked[1]?.contents).toEqual(result.contents.slice(0, 3));
    expect(asked[0]?.tools).toEqual(asked[1]?.tools);
    expect(turns).toHaveLength(1);
    expect(turns[0]?.contents).toEqual(result.contents.slice(0, 3));
    expect(turns[0]?.answer.parts?.map((p) => p.functionResponse?.id)).toEqual(['t1', 't2']);
  });

  it('EX-5/EX-4: a toolset function is asked before each turn, so a rebuilt set is offered', async () => {
    const { toolset: smaller } = buildToolSet([
      { serverId: 'bitcoin', tools: await listAllTools(clients.get('bitcoin')!) },
    ]);
    const sets = [toolset, smaller];
    const { generate, asked } = scripted([respond([helloCall('t1')]), respond([{ text: 'ok' }])]);
    await runConversation({
      generate,
      toolset: () => sets.shift() ?? smaller,
      clients,
      contents: [USER],
    });
    const names = (request: GenerateRequest | undefined) =>
      request?.tools.flatMap((tool) => tool.functionDeclarations?.map((d) => d.name) ?? []);
    expect(names(asked[0])).toContain('echo');
    expect(names(asked[1])).toEqual(['hello', 'bitcoin_price']);
  });

  it('EX-4: the given contents are not modified', async () => {
    const contents: readonly Content[] = Object.freeze([USER]);
    const { generate } = scripted([respond([{ text: 'ok' }])]);
    const result = await runConversation({ generate, toolset, clients, contents });
    expect(contents).toHaveLength(1);
    expect(result.contents).toHaveLength(2);
  });

  it('EX-4: thought parts are kept in history but left out of the answer text', async () => {
    const { generate } = scripted([
      respond([{ text: 'thinking', thought: true, thoughtSignature: 'c2ln' }, { text: 'answer' }]),
    ]);
    const result = await runConversation({ generate, toolset, clients, contents: [USER] });
    expect(result.stop).toEqual({ reason: 'answered', text: 'answer' });
    expect(result.contents[1]?.parts?.[0]).toEqual({
      text: 'thinking',
      thought: true,
      thoughtSignature: 'c2ln',
    });
  });

  it('EX-4: an empty candidate stops with no-content and its finish reason', async () => {
    const { generate } = scripted([{ candidates: [{ finishReason: 'SAFETY' }] }]);
    const result = await runConversation({ generate, toolset, clients, contents: [USER] });
    expect(result.stop).toEqual({ reason: 'no-content', finishReason: 'SAFETY' });
    expect(result.contents).toEqual([USER]);
  });

  it('EX-1/EX-4: a signal fired during a call answers it as cancelled, then stops', async () => {
    const controller = new AbortController();
    const { generate, asked } = scripted([
      respond([{ functionCall: { id: 'h', name: 'hang', args: {} } }]),
    ]);
    setTimeout(() => controller.abort(), 100);
    const result = await runConversation({
      generate,
      toolset,
      clients,
      contents: [USER],
      signal: controller.signal,
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.signal).toBe(controller.signal);
    expect(result.stop).toEqual({ reason: 'cancelled' });
    expect(String(result.contents.at(-1)?.parts?.[0]?.functionResponse?.response.error)).toContain(
      'CANCELLED',
    );
  });

  it('EX-4: errors of generate itself propagate', async () => {
    const generate: Generate = async () => {
      throw new Error('HTTP 400');
    };
    await expect(runConversation({ generate, toolset, clients, contents: [USER] })).rejects.toThrow(
      'HTTP 400',
    );
  });
});

describe('EX-4: gatherTurn', () => {
  it('EX-4: a whole response is returned as the same object', async () => {
    const response = respond([{ text: 'x' }]);
    expect(await gatherTurn(response)).toBe(response);
  });

  it('EX-4: chunks become one response: parts concatenated, latest fields win', async () => {
    async function* chunks(): AsyncIterable<GenerateContentResponse> {
      yield {
        candidates: [{ content: { role: 'model', parts: [{ text: 'a' }] } }],
        responseId: 'r',
      };
      yield { candidates: [{ content: { parts: [helloCall('c1')] }, index: 0 }] };
      yield {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: '', thoughtSignature: 'eA==' }] },
            finishReason: 'STOP',
          },
        ],
        usageMetadata: { totalTokenCount: 7 },
      };
    }
    expect(await gatherTurn(chunks())).toEqual({
      responseId: 'r',
      usageMetadata: { totalTokenCount: 7 },
      candidates: [
        {
          index: 0,
          finishReason: 'STOP',
          content: {
            role: 'model',
            parts: [{ text: 'a' }, helloCall('c1'), { text: '', thoughtSignature: 'eA==' }],
          },
        },
      ],
    });
  });

  it('EX-4, issue 12: chunks of @google/genai keep its class: the getters read the whole turn', async () => {
    const chunk = (text: string) =>
      Object.assign(new genai.GenerateContentResponse(), {
        candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }],
      });
    async function* chunks(): AsyncGenerator<genai.GenerateContentResponse> {
      yield chunk('Hello ');
      yield chunk('Ada');
    }
    const gathered = await gatherTurn(chunks());
    expect(gathered).toBeInstanceOf(genai.GenerateContentResponse);
    expect(gathered.text).toBe('Hello Ada');
    expect(gathered.candidates?.[0]?.content?.parts).toEqual([{ text: 'Hello ' }, { text: 'Ada' }]);
  });

  it('EX-4: an empty stream is a response without candidates', async () => {
    async function* none(): AsyncIterable<GenerateContentResponse> {}
    expect(await gatherTurn(none())).toEqual({});
  });
});

describe('EX-4: @google/genai generate adapters', () => {
  function fakeAi(reply: unknown): { ai: GenAiClient; params: GenAiParameters[] } {
    const params: GenAiParameters[] = [];
    return {
      params,
      ai: {
        models: {
          // Whatever the client returns, however hostile: the adapters check it at run time.
          generateContent: async (p) => {
            params.push(p);
            return reply as ResponseInput;
          },
          generateContentStream: async (p) => {
            params.push(p);
            return (async function* () {
              yield reply as ResponseInput;
            })();
          },
        },
      },
    };
  }
  const request: GenerateRequest = { contents: [USER], tools: [] };

  it('EX-4: passes model, contents, the config and the tools of the turn', async () => {
    const { ai, params } = fakeAi(respond([{ text: 'x' }]));
    const signal = new AbortController().signal;
    await genaiGenerate(ai, { model: 'm', config: { temperature: 0 } })({ ...request, signal });
    expect(params[0]).toEqual({
      model: 'm',
      contents: [USER],
      // issue 11: the contents also go as they are, past the client's converter (extraBody).
      config: {
        temperature: 0,
        tools: [],
        httpOptions: { extraBody: { contents: [USER] } },
        abortSignal: signal,
      },
    });
  });

  it("issue 11: the caller's own httpOptions and extraBody are kept beside the contents", async () => {
    const { ai, params } = fakeAi(respond([{ text: 'x' }]));
    const config = { httpOptions: { timeout: 5, extraBody: { labels: { a: 'b' } } } };
    await genaiGenerate(ai, { model: 'm', config })(request);
    expect(params[0]?.config).toMatchObject({
      httpOptions: { timeout: 5, extraBody: { labels: { a: 'b' }, contents: [USER] } },
    });
  });

  it('EX-4: the stream adapter yields checked chunks', async () => {
    const { ai } = fakeAi(respond([{ text: 'x' }]));
    const turn = await genaiGenerateStream(ai, { model: 'm' })(request);
    expect(await gatherTurn(turn)).toEqual(respond([{ text: 'x' }]));
  });

  it('EX-4: fields the schema does not know yet are read and kept as they came, each a notice', async () => {
    const reply = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'x', addedLater: { a: 1 } }] } }],
    };
    const { ai } = fakeAi(reply);
    const notices: unknown[] = [];
    const onNotice = (notice: unknown) => notices.push(notice);
    expect(await genaiGenerate(ai, { model: 'm' })({ ...request, onNotice })).toBe(reply);
    expect(notices).toEqual([
      expect.objectContaining({
        code: 'unknown-field',
        path: '/candidates/0/content/parts/0/addedLater',
      }),
    ]);
  });

  it('EX-4: a reply that is not a GenerateContentResponse is INVALID_PAYLOAD', async () => {
    const { ai } = fakeAi({ candidates: 'none' });
    const error = await genaiGenerate(ai, { model: 'm' })(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect((error as GeminiMcpError).code).toBe('INVALID_PAYLOAD');
    expect((error as GeminiMcpError).path).toBe('/candidates');
  });
});
