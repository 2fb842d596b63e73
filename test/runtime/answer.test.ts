/** answerCalls in memory: order, dialects, rejections, size caps, and what it refuses. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import {
  type CallToRun,
  type FunctionCallsResult,
  functionCalls,
} from '../../src/adapter/turn/calls.js';
import { GeminiMcpError } from '../../src/errors.js';
import {
  checkContent,
  checkVertexV1Beta1Content,
  checkVertexV1Content,
} from '../../src/generated/guards.js';
import type { Content, GenerateContentResponse } from '../../src/generated/types.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { inMemoryServers } from '../support/runtime-servers.js';

let toolset: ToolSet;
let clients: Map<string, Client>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ toolset, clients, close } = await inMemoryServers());
});
afterAll(() => close());

const PARALLEL: Content = {
  role: 'model',
  parts: [
    { text: 'Calling both.' },
    { functionCall: { id: 'p1', name: 'bitcoin_price', args: { currency: 'gbp' } } },
    { functionCall: { id: 'p2', name: 'hello', args: { name: 'Grace' } } },
  ],
};

describe('EX-3: answerCalls', () => {
  it('EX-3: one functionResponse per call, in call order, ids echoed (gemini dialect)', async () => {
    const answer = await answerCalls(PARALLEL, toolset, clients);
    expect(checkContent(answer)).toEqual([]);
    expect(answer).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'p1',
            name: 'bitcoin_price',
            response: {
              output: {
                currency: 'GBP',
                price: 77640.3,
                asOf: '2026-11-01T00:00:00Z',
                source: 'offline snapshot',
              },
            },
          },
        },
        { functionResponse: { id: 'p2', name: 'hello', response: { output: 'Hello, Grace!' } } },
      ],
    });
  });

  it('EX-3b: vertex-v1 dialect: the same answer without ids, valid for Vertex AI v1', async () => {
    const answer = await answerCalls(PARALLEL, toolset, clients, { dialect: 'vertex-v1' });
    expect(checkVertexV1Content(answer)).toEqual([]);
    expect(answer.parts?.map((p) => p.functionResponse?.name)).toEqual(['bitcoin_price', 'hello']);
    for (const part of answer.parts ?? []) expect(part.functionResponse).not.toHaveProperty('id');
  });

  it.each(['vertex-v1beta1', 'vertex'] as const)(
    'EX-3b: %s dialect: ids kept, valid for Vertex AI v1beta1',
    async (dialect) => {
      const answer = await answerCalls(PARALLEL, toolset, clients, { dialect });
      expect(checkVertexV1Beta1Content(answer)).toEqual([]);
      expect(answer.parts.map((p) => p.functionResponse.id)).toEqual(['p1', 'p2']);
    },
  );

  it('EX-3b: calls read once are answered in the dialect answerCalls is given, rejected ones too; an unknown dialect is INVALID_INPUT', async () => {
    const read = functionCalls(
      { role: 'model', parts: [...PARALLEL.parts!, { functionCall: { id: 'p3', name: 'nope' } }] },
      toolset,
    );
    const v1 = await answerCalls(read, toolset, clients, { dialect: 'vertex-v1' });
    expect(checkVertexV1Content(v1)).toEqual([]);
    for (const part of v1.parts) expect(part.functionResponse).not.toHaveProperty('id');
    const v1beta1 = await answerCalls(read, toolset, clients, { dialect: 'vertex-v1beta1' });
    expect(checkVertexV1Beta1Content(v1beta1)).toEqual([]);
    expect(v1beta1.parts.map((p) => p.functionResponse.id)).toEqual(['p1', 'p2', 'p3']);
    await expect(
      answerCalls(read, toolset, clients, { dialect: 'vertex-v2' as 'vertex' }),
    ).rejects.toThrow(/unknown dialect "vertex-v2"/);
  });

  it("EX-3: a read turn whose items are not its tool set's calls is INVALID_INPUT at the item, never a crash", async () => {
    const read = functionCalls(PARALLEL, toolset);
    const [first, second] = read.items;
    const copied = { ...second, call: { ...(second as CallToRun).call, tool: { name: 'hello' } } };
    for (const items of [
      [first, copied],
      [first, null],
      [first, { kind: 'call' }],
    ]) {
      const forged = { ...read, items } as unknown as FunctionCallsResult;
      const error = await answerCalls(forged, toolset, clients).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GeminiMcpError);
      expect(error).toMatchObject({ code: 'INVALID_INPUT', path: '/items/1' });
    }
  });

  it('EX-3: calls without ids get responses without ids', async () => {
    const answer = await answerCalls(
      [{ functionCall: { name: 'hello', args: { name: 'Lin' } } }],
      toolset,
      clients,
    );
    expect(answer.parts).toEqual([
      { functionResponse: { name: 'hello', response: { output: 'Hello, Lin!' } } },
    ]);
  });

  it('EX-3/FC-5: rejected calls (unknown name, bad args) are answered in their place', async () => {
    const turn: Content = {
      role: 'model',
      parts: [
        { functionCall: { id: 'q1', name: 'hello', args: { name: 'Ann' } } },
        { functionCall: { id: 'q2', name: 'helo', args: { name: 'Ann' } } },
        { functionCall: { id: 'q3', name: 'bitcoin_price', args: { currency: 5 } } },
        { functionCall: { id: 'q4', name: 'echo', args: { text: 'last' } } },
      ],
    };
    const answer = await answerCalls(turn, toolset, clients, { validateArgs: true });
    const responses = answer.parts?.map((p) => p.functionResponse);
    expect(responses?.map((r) => r?.id)).toEqual(['q1', 'q2', 'q3', 'q4']);
    expect(responses?.[0]?.response).toEqual({ output: 'Hello, Ann!' });
    expect(String(responses?.[1]?.response.error)).toContain('"hello"');
    expect(String(responses?.[2]?.response.error)).toContain('/currency');
    expect(responses?.[3]?.response).toEqual({ output: 'last' });
  });

  it('EX-3: a 50 MB result is answered, cut to maxOutputBytes with a visible marker', async () => {
    const turn: Content = {
      role: 'model',
      parts: [{ functionCall: { id: 'h1', name: 'huge', args: { bytes: 50_000_000 } } }],
    };
    const answer = await answerCalls(turn, toolset, clients, { maxOutputBytes: 4096 });
    const output = String(answer.parts?.[0]?.functionResponse?.response.output);
    expect(output.length).toBeLessThan(4096 + 200);
    expect(output).toMatch(/\[output truncated: 4096 of 50000000 bytes shown\]$/);
  }, 30_000);

  it('EX-3: a turn without function calls is refused, naming an FC-6 finish reason', async () => {
    await expect(answerCalls([{ text: 'just text' }], toolset, clients)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    const malformed: GenerateContentResponse = {
      candidates: [{ finishReason: 'MALFORMED_FUNCTION_CALL' }],
    };
    const error = await answerCalls(malformed, toolset, clients).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect((error as GeminiMcpError).message).toContain('MALFORMED_FUNCTION_CALL');
  });
});
