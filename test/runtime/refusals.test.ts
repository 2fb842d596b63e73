/**
 * runConversation against the API's limits (issue 31 items 2, 4, 5, 7), fast tier: a scripted
 * model that refuses requests as the API does (an ApiError-like error whose message is the JSON
 * body, as @google/genai throws it), then answers. No process, no network.
 */
import { describe, expect, it } from 'vitest';
import type { DeclarationWarning } from '../../src/adapter/tools/declarations.js';
import { type BudgetWarning, isBudgetWarning } from '../../src/adapter/tools/fit.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import { GeminiMcpError } from '../../src/errors.js';
import type { Content, GenerateContentResponse } from '../../src/generated/types.js';
import type { Generate, GenerateRequest } from '../../src/runtime/model/generate.js';
import { mcpCallableTool } from '../../src/runtime/turn/callable-tool.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';

const USER: Content = { role: 'user', parts: [{ text: 'hi' }] };
const ANSWER: GenerateContentResponse = {
  candidates: [{ content: { role: 'model', parts: [{ text: 'done' }] } }],
};

/** A tool whose input schema nests `levels` object levels. */
function nested(name: string, levels = 1): { name: string; inputSchema: object } {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { x: schema } };
  return { name, inputSchema: schema };
}

function toolsetOf(...servers: [string, { name: string; inputSchema: object }[]][]): ToolSet {
  return buildToolSet(servers.map(([serverId, tools]) => ({ serverId, tools }))).toolset;
}

/** The error @google/genai throws for an HTTP 400: `ApiError`, its message the JSON body. */
function apiError(message: string, status = 400): Error {
  const body = { error: { code: status, message, status: 'INVALID_ARGUMENT' } };
  return Object.assign(new Error(JSON.stringify(body)), { name: 'ApiError', status });
}

const namesOf = (request: GenerateRequest | undefined): string[] =>
  request?.tools.flatMap((tool) => tool.functionDeclarations.map((d) => d.name)) ?? [];

/** A model that answers each request with `answer(request, index)` (throw to refuse). */
function model(answer: (request: GenerateRequest, index: number) => GenerateContentResponse) {
  const asked: GenerateRequest[] = [];
  const generate: Generate = async (request) => {
    asked.push(request);
    return answer(request, asked.length - 1);
  };
  return { generate, asked };
}

/** The budget warnings heard (the other declaration warnings are told apart by `kind`). */
function collect() {
  const warnings: BudgetWarning[] = [];
  const onWarning = (warning: DeclarationWarning): void => {
    if (isBudgetWarning(warning)) warnings.push(warning);
  };
  return { warnings, onWarning };
}

const six = toolsetOf(
  ['fs', [nested('read'), nested('write'), nested('list')]],
  ['web', [nested('fetch'), nested('search'), nested('crawl')]],
);

describe('issue 31 item 4: a refusal traced to its tool', () => {
  it('issue 31 item 4 (done when): a scripted 400 for function_declarations[N] leaves exactly that tool out, names it in a warning with the API message, and the retried request succeeds', async () => {
    const message =
      '* GenerateContentRequest.tools[0].function_declarations[2].parameters.properties: should be non-empty for OBJECT type\n';
    const { generate, asked } = model((_, index) => {
      if (index === 0) throw apiError(message);
      return ANSWER;
    });
    const { warnings, onWarning } = collect();
    const result = await runConversation({
      generate,
      toolset: six,
      clients: new Map(),
      contents: [USER],
      declarations: { onWarning },
    });
    expect(result.stop).toEqual({ reason: 'answered', text: 'done' });
    expect(asked).toHaveLength(2);
    const first = namesOf(asked[0]);
    expect(first[2]).toBe('list');
    expect(namesOf(asked[1])).toEqual(first.filter((name) => name !== 'list'));
    const refused = warnings.filter((warning) => warning.code === 'TOOL_REFUSED');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ serverId: 'fs', toolName: 'list', exposedName: 'list' });
    expect(refused[0]?.message).toContain('should be non-empty for OBJECT type');
    expect(refused[0]?.message).toContain('server "fs", tool "list"');
  });

  it('issue 31 item 4: a tool refused by name stays out of every later request of the conversation', async () => {
    const { generate, asked } = model((request, index) => {
      if (namesOf(request).includes('crawl')) {
        throw apiError(
          "FunctionDeclaration 'crawl' in the request exceeds the maximum allowed nesting depth.",
        );
      }
      return index < 3
        ? {
            candidates: [
              {
                content: {
                  role: 'model',
                  parts: [{ functionCall: { name: 'nothing_here', args: {} } }],
                },
              },
            ],
          }
        : ANSWER;
    });
    const result = await runConversation({
      generate,
      toolset: six,
      clients: new Map(),
      contents: [USER],
    });
    expect(result.stop.reason).toBe('answered');
    // one refusal and its retry, then two more turns without the tool
    expect(asked.map(namesOf).map((names) => names.includes('crawl'))).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it('issue 31 item 4: retryRefused: false lets the refusal propagate, after one request', async () => {
    const error = apiError('* GenerateContentRequest.tools[0].function_declarations[0].name: bad');
    const { generate, asked } = model(() => {
      throw error;
    });
    await expect(
      runConversation({
        generate,
        toolset: six,
        clients: new Map(),
        contents: [USER],
        retryRefused: false,
      }),
    ).rejects.toBe(error);
    expect(asked).toHaveLength(1);
  });

  it('issue 31 item 4: a second refusal after the one retry propagates', async () => {
    const { generate, asked } = model((_, index) => {
      throw apiError(`* GenerateContentRequest.tools[0].function_declarations[${index}].name: bad`);
    });
    await expect(
      runConversation({ generate, toolset: six, clients: new Map(), contents: [USER] }),
    ).rejects.toThrow(/function_declarations\[1\]/);
    expect(asked).toHaveLength(2);
  });

  it('issue 31 item 4: a refusal of something other than the declarations propagates unretried', async () => {
    const error = apiError(
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
    );
    const { generate, asked } = model(() => {
      throw error;
    });
    await expect(
      runConversation({ generate, toolset: six, clients: new Map(), contents: [USER] }),
    ).rejects.toBe(error);
    expect(asked).toHaveLength(1);
  });

  it('issue 31 item 2: "At most N function declarations" becomes the budget; the rest is reported', async () => {
    const { generate, asked } = model((request) => {
      if (namesOf(request).length > 4) {
        throw apiError(
          'The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations: [FIELD_INVALID] At most 4 function declarations can be specified.',
        );
      }
      return ANSWER;
    });
    const { warnings, onWarning } = collect();
    await runConversation({
      generate,
      toolset: six,
      clients: new Map(),
      contents: [USER],
      declarations: { onWarning },
    });
    expect(namesOf(asked[1])).toEqual(['read', 'write', 'list', 'fetch']);
    expect(warnings.filter((w) => w.code === 'TOOL_OVER_BUDGET').map((w) => w.toolName)).toEqual([
      'search',
      'crawl',
    ]);
  });
});

describe('issue 31 item 7: refusals without an index, traced by bisection', () => {
  const deepOne = toolsetOf(
    ['a', [nested('a1'), nested('a2'), nested('a3'), nested('a4')]],
    ['b', [nested('b1'), nested('deep', 3), nested('b3'), nested('b4')]],
  );
  const unnamed = 'A FunctionDeclaration in the request exceeds the maximum allowed nesting depth.';

  it('issue 31 item 7: bisection finds the one declaration, leaves exactly it out, and the retry succeeds', async () => {
    const { generate, asked } = model((request) => {
      if (namesOf(request).includes('deep')) throw apiError(unnamed);
      return ANSWER;
    });
    const { warnings, onWarning } = collect();
    const result = await runConversation({
      generate,
      toolset: deepOne,
      clients: new Map(),
      contents: [USER],
      declarations: { onWarning },
    });
    expect(result.stop.reason).toBe('answered');
    // 1 refused + 3 probes (8 declarations) + 1 retry
    expect(asked).toHaveLength(5);
    expect(namesOf(asked.at(-1))).toEqual(['a1', 'a2', 'a3', 'a4', 'b1', 'b3', 'b4']);
    const refused = warnings.filter((w) => w.code === 'TOOL_REFUSED');
    expect(refused.map((w) => w.toolName)).toEqual(['deep']);
    expect(refused[0]?.message).toContain('maximum allowed nesting depth');
    expect(refused[0]?.message).toContain('bisection');
  });

  it('issue 31 item 7: maxBisectRequests bounds the probes; the suspects left are named by size', async () => {
    const { generate, asked } = model((request) => {
      if (namesOf(request).includes('deep')) throw apiError(unnamed);
      return ANSWER;
    });
    const { warnings, onWarning } = collect();
    await runConversation({
      generate,
      toolset: deepOne,
      clients: new Map(),
      contents: [USER],
      maxBisectRequests: 1,
      declarations: { onWarning },
    });
    // 1 refused + 1 probe (the first 4: accepted, and what the retry would ask: its answer is used)
    expect(asked).toHaveLength(2);
    const refused = warnings.filter((w) => w.code === 'TOOL_REFUSED').map((w) => w.toolName);
    expect(refused).toEqual(['b1', 'deep', 'b3', 'b4']);
    expect(warnings.find((w) => w.code === 'TOOL_REFUSED')?.message).toMatch(
      /one of these 4 declarations, largest first: deep \(/,
    );
  });

  it('issue 31 item 7: maxBisectRequests: 0 throws a typed error naming the likely tools by size', async () => {
    const { generate } = model(() => {
      throw apiError(unnamed);
    });
    const run = runConversation({
      generate,
      toolset: deepOne,
      clients: new Map(),
      contents: [USER],
      maxBisectRequests: 0,
    });
    await expect(run).rejects.toThrow(GeminiMcpError);
    await expect(run).rejects.toThrow(/largest first: deep \(/);
  });

  it('issue 31 item 7: "too many states" teaches a byte budget; the longest accepted prefix answers', async () => {
    const many = toolsetOf([
      'srv',
      Array.from({ length: 8 }, (_, i) => ({
        name: `t${i}`,
        description: 'x'.repeat(200),
        inputSchema: { type: 'object' },
      })),
    ]);
    const states =
      'The specified schema produces a constraint that has too many states for serving.';
    const { generate, asked } = model((request) => {
      if (namesOf(request).length > 5) throw apiError(states);
      return ANSWER;
    });
    const { warnings, onWarning } = collect();
    const result = await runConversation({
      generate,
      toolset: many,
      clients: new Map(),
      contents: [USER],
      declarations: { onWarning },
    });
    expect(result.stop.reason).toBe('answered');
    // refused (8); probes 4 ok, 6 refused, 5 ok: the answer with 5 is used, no retry
    expect(asked.map((request) => namesOf(request).length)).toEqual([8, 4, 6, 5]);
    expect(warnings.filter((w) => w.code === 'TOOL_OVER_BUDGET').map((w) => w.toolName)).toEqual([
      't5',
      't6',
      't7',
    ]);
  });
});

describe('issue 31 items 2 and 5: every request fits; declarations are append-only', () => {
  it('issue 31 item 2: runConversation never sends more than the budget; what is left out is reported', async () => {
    const { generate, asked } = model(() => ANSWER);
    const { warnings, onWarning } = collect();
    await runConversation({
      generate,
      toolset: six,
      clients: new Map(),
      contents: [USER],
      declarations: { onWarning, budget: { maxDeclarations: 4 } },
    });
    expect(namesOf(asked[0])).toHaveLength(4);
    expect(warnings.filter((w) => w.code === 'TOOL_OVER_BUDGET')).toHaveLength(2);
  });

  it('issue 31 item 2: the dialect sets the budget (Vertex AI: 128 declarations)', async () => {
    const big = toolsetOf([
      'srv',
      Array.from({ length: 200 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } })),
    ]);
    const { generate, asked } = model(() => ANSWER);
    await runConversation({
      generate,
      toolset: big,
      clients: new Map(),
      contents: [USER],
      dialect: 'vertex',
    });
    expect(namesOf(asked[0])).toHaveLength(128);
  });

  it('issue 31 item 5: a tool added between turns is declared after those declared before, which keep their order', async () => {
    const before = toolsetOf(['b', [nested('b1')]], ['c', [nested('c1'), nested('c2')]]);
    const after = toolsetOf(['a', [nested('a1')]], ['b', [nested('b1')]], ['c', [nested('c2')]]);
    const sets = [before, after];
    const { generate, asked } = model((_, index) =>
      index === 0
        ? {
            candidates: [
              {
                content: { role: 'model', parts: [{ functionCall: { name: 'none', args: {} } }] },
              },
            ],
          }
        : ANSWER,
    );
    await runConversation({
      generate,
      toolset: () => sets.shift() ?? after,
      clients: new Map(),
      contents: [USER],
    });
    expect(namesOf(asked[0])).toEqual(['b1', 'c1', 'c2']);
    // c1 is gone; a1 is new (its server comes first in the set) and comes last
    expect(namesOf(asked[1])).toEqual(['b1', 'c2', 'a1']);
  });

  it('issue 31 item 2: the selection hook chooses what to declare; the budget still applies', async () => {
    const { generate, asked } = model(() => ANSWER);
    await runConversation({
      generate,
      toolset: six,
      clients: new Map(),
      contents: [USER],
      declarations: {
        budget: {
          maxDeclarations: 2,
          select: (candidates) => candidates.filter((c) => c.entry.serverId === 'web'),
        },
      },
    });
    expect(namesOf(asked[0])).toEqual(['fetch', 'search']);
  });
});

describe('issue 31 item 2: mcpCallableTool declares within the budget', () => {
  it('issue 31 item 2: tool() fits the budget and reports the rest; a call to a tool left out is never run', async () => {
    const { warnings, onWarning } = collect();
    const callable = mcpCallableTool(
      { toolset: six, clients: new Map() },
      { budget: { maxDeclarations: 2 }, onWarning },
    );
    const tool = await callable.tool();
    expect(tool.functionDeclarations.map((d) => d.name)).toEqual(['read', 'write']);
    expect(warnings.map((w) => [w.code, w.toolName])).toEqual([
      ['TOOL_OVER_BUDGET', 'list'],
      ['TOOL_OVER_BUDGET', 'fetch'],
      ['TOOL_OVER_BUDGET', 'search'],
      ['TOOL_OVER_BUDGET', 'crawl'],
    ]);
    const [answer] = await callable.callTool([{ name: 'crawl', args: {} }]);
    expect(answer?.functionResponse.response).toHaveProperty('error');
    expect(JSON.stringify(answer?.functionResponse.response)).toContain('crawl');
  });
});

describe('issue 31: mcpCallableTool never declares an empty Tool', () => {
  it('issue 31: with nothing to declare, tool() throws INVALID_INPUT saying why (the API refuses functionDeclarations: [])', async () => {
    const empty = mcpCallableTool({ toolset: toolsetOf(), clients: new Map() });
    await expect(empty.tool()).rejects.toThrow(/nothing to declare: the servers list no tools/);
    const { onWarning } = collect();
    const tooDeep = mcpCallableTool(
      { toolset: toolsetOf(['deep', [nested('deep', 12)]]), clients: new Map() },
      { onWarning },
    );
    const error = await tooDeep.tool().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect((error as GeminiMcpError).code).toBe('INVALID_INPUT');
    expect((error as GeminiMcpError).message).toContain('every one of the 1 tools was left out');
    const unbudgeted = mcpCallableTool(
      { toolset: toolsetOf(), clients: new Map() },
      { budget: false },
    );
    await expect(unbudgeted.tool()).rejects.toThrow(/nothing to declare/);
  });
});
