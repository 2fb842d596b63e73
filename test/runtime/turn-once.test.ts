/**
 * EX-3, EX-4: a model turn is read once and each call's result proven once on its way from the
 * functionCall to its functionResponse. The generated guards and `functionCalls` are wrapped
 * with counters (the real functions still run), and the turn is played on a real in-memory
 * MCP server.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import { functionCalls } from '../../src/adapter/turn/calls.js';
import { GeminiMcpError } from '../../src/errors.js';
import type { Content, GenerateContentResponse } from '../../src/generated/types.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';
import { inMemoryServers } from '../support/runtime-servers.js';

const { counts, counted } = vi.hoisted(() => {
  const counts = new Map<string, number>();
  /** A family's guards, each check, read and is counted (the real one still runs). */
  const counted = (original: Record<string, unknown>): Record<string, unknown> => {
    const wrapped: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(original)) {
      wrapped[name] =
        typeof value === 'function' &&
        (name.startsWith('check') || name.startsWith('read') || name.startsWith('is'))
          ? (...args: unknown[]) => {
              counts.set(name, (counts.get(name) ?? 0) + 1);
              return (value as (...a: unknown[]) => unknown)(...args);
            }
          : value;
    }
    return wrapped;
  };
  return { counts, counted };
});

// The library imports each family's guards (the Gemini API's and MCP's here).
vi.mock('../../src/generated/guards-gemini.js', async (importOriginal) =>
  counted(await importOriginal<Record<string, unknown>>()),
);
vi.mock('../../src/generated/guards-mcp.js', async (importOriginal) =>
  counted(await importOriginal<Record<string, unknown>>()),
);

vi.mock('../../src/adapter/turn/calls.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/adapter/turn/calls.js')>();
  return {
    ...original,
    functionCalls: (...args: Parameters<typeof original.functionCalls>) => {
      counts.set('functionCalls', (counts.get('functionCalls') ?? 0) + 1);
      return original.functionCalls(...args);
    },
  };
});

let toolset: ToolSet;
let clients: Map<string, Client>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ toolset, clients, close } = await inMemoryServers());
});
afterAll(() => close());
beforeEach(() => counts.clear());

const THREE_CALLS: Content = {
  role: 'model',
  parts: [
    { functionCall: { id: 'a', name: 'bitcoin_price', args: { currency: 'eur' } } },
    { functionCall: { id: 'b', name: 'no_such_tool', args: {} } },
    { functionCall: { id: 'c', name: 'hello', args: { name: 'Ada' } } },
  ],
};

describe('EX-3: a turn read once, each result proven once', () => {
  it('EX-3: answerCalls on a read turn does not read it again; one CallToolResult proof per call run, one Content proof per turn', async () => {
    const read = functionCalls(THREE_CALLS, toolset);
    expect(counts.get('functionCalls')).toBe(1);
    counts.clear();
    const answer = await answerCalls(read, toolset, clients);
    expect(counts.get('functionCalls')).toBeUndefined();
    // Two calls ran (the unknown one was answered at once): one proof of each result. Both are
    // valid, so the strict check alone proves them; the read contract (issue 11) is for a result
    // the strict check refuses.
    expect(counts.get('isMcpCallToolResult')).toBe(2);
    expect(counts.get('readMcpCallToolResult')).toBeUndefined();
    expect(counts.get('checkMcpCallToolResult')).toBeUndefined();
    expect(counts.get('checkContent')).toBe(1);
    expect(counts.get('checkPart')).toBeUndefined();
    expect(answer.parts?.map((part) => part.functionResponse?.id)).toEqual(['a', 'b', 'c']);
    expect(answer.parts?.[1]?.functionResponse?.response).toHaveProperty('error');
  });

  it("EX-3: each answer is its own item's outcome: the rejected call in the middle shifts nothing", async () => {
    const answer = await answerCalls(THREE_CALLS, toolset, clients);
    const [price, unknown, hello] = answer.parts ?? [];
    expect(price?.functionResponse).toMatchObject({ id: 'a', name: 'bitcoin_price' });
    expect(unknown?.functionResponse).toMatchObject({ id: 'b', name: 'no_such_tool' });
    expect(hello?.functionResponse).toMatchObject({
      id: 'c',
      name: 'hello',
      response: { output: 'Hello, Ada!' },
    });
  });

  it('EX-3: calls read against another tool set are refused, typed', async () => {
    const read = functionCalls(THREE_CALLS, toolset);
    const other = (await inMemoryServers()).toolset;
    await expect(answerCalls(read, other, clients)).rejects.toThrow(GeminiMcpError);
  });

  it('EX-4: runConversation reads each model turn once', async () => {
    const replies: GenerateContentResponse[] = [
      { candidates: [{ content: THREE_CALLS, finishReason: 'STOP' }] },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Done.' }] } }] },
    ];
    const { stop, turns } = await runConversation({
      generate: async () => replies.shift()!,
      toolset,
      clients,
      contents: [{ role: 'user', parts: [{ text: 'go' }] }],
    });
    expect(stop).toMatchObject({ reason: 'answered', text: 'Done.' });
    expect(turns).toBe(2);
    expect(counts.get('functionCalls')).toBe(2);
    expect(counts.get('isMcpCallToolResult')).toBe(2);
  });
});

it('counts are real: a direct functionCalls call is counted', () => {
  functionCalls([], toolset);
  expect(counts.get('functionCalls')).toBe(1);
});
