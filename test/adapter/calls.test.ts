import { FinishReason, GenerateContentResponse } from '@google/genai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Dialect } from '../../src/adapter/dialect.js';
import { dialectShapes } from '../../src/adapter/dialect-shapes.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import {
  functionCalls,
  type RejectedCall,
  type RejectedItem,
} from '../../src/adapter/turn/calls.js';
import { rejectionResponse } from '../../src/adapter/turn/responses.js';
import {
  checkMcpCallToolRequestParams,
  checkPart,
  checkVertexV1Beta1Part,
  checkVertexV1Part,
} from '../../src/generated/guards.js';
import type { McpTool } from '../../src/generated/types.js';
import { PROPERTY_RUNS, tool } from './helpers.js';

const weather = tool('get_weather', {
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
    required: ['city'],
  },
});
const { toolset } = buildToolSet([
  { serverId: 'wx', tools: [weather, tool('search')] },
  { serverId: 'web', tools: [tool('search'), tool('__proto__'), tool('constructor')] },
]);

const call = (name: unknown, extra: Record<string, unknown> = {}) => ({
  functionCall: { name, ...extra },
});
const asResponse = (parts: unknown[], candidate: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: 'model', parts }, ...candidate }],
});
/** The answer `answerCalls` gives a rejected call (in the Gemini dialect unless told). */
const partOf = (rejected: RejectedCall | undefined, dialect?: Dialect) =>
  rejected === undefined ? undefined : rejectionResponse(rejected, dialect ? { dialect } : {});
const errorOf = (rejected: RejectedCall | undefined) =>
  partOf(rejected)?.functionResponse.response.error as string;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('model calls (FC)', () => {
  const parts = [call('get_weather', { id: 'c1', args: { city: 'Paris' } })];
  it.each([
    ['a GenerateContentResponse (first candidate)', asResponse(parts)],
    ['a Content', { role: 'model', parts }],
    ['a list of Parts', parts],
  ])('FC-1: reads calls from %s', (_label, input) => {
    const result = functionCalls(input, toolset);
    expect(result.calls).toHaveLength(1);
    expect(result.rejected).toEqual([]);
    expect(result).not.toHaveProperty('finish');
  });

  it('FC-1: reads an @google/genai GenerateContentResponse instance as the SDK returns it', () => {
    const response = new GenerateContentResponse();
    response.candidates = [
      {
        content: {
          role: 'model',
          parts: [{ functionCall: { id: 'g1', name: 'get_weather', args: { city: 'Oslo' } } }],
        },
        finishReason: FinishReason.STOP,
      },
    ];
    expect(response.functionCalls).toHaveLength(1);
    expect(functionCalls(response, toolset).calls).toEqual([
      expect.objectContaining({ callId: 'g1', name: 'get_weather', arguments: { city: 'Oslo' } }),
    ]);
  });

  it('FC-1: only the first candidate counts; a response without candidates has no calls', () => {
    const response = {
      candidates: [{ content: { parts: [] } }, { content: { parts } }],
    };
    expect(functionCalls(response, toolset).calls).toEqual([]);
    expect(functionCalls({ promptFeedback: { blockReason: 'SAFETY' } }, toolset).calls).toEqual([]);
    expect(functionCalls({ candidates: [] }, toolset).items).toEqual([]);
  });

  it.each([
    ['a number', 42],
    ['a string', 'get_weather'],
    ['null', null],
    ['undefined', undefined],
    ['an empty object', {}],
    ['candidates that are not a list', { candidates: { 0: {} } }],
    ['parts that are not a list', { parts: 'x' }],
  ])('FC-1: %s is not a response, content or part list: INVALID_INPUT', (_label, input) => {
    expect(() => functionCalls(input, toolset)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });

  it('FC-2: a resolved call becomes a ResolvedCall carrying its tool; id becomes callId (or null); absent args are {}', () => {
    const { calls } = functionCalls(
      [
        call('get_weather', { id: 'c1', args: { city: 'Paris', days: 2 } }),
        call('wx__search'),
        call('web__search', { args: null }),
      ],
      toolset,
    );
    const toolOf = (exposed: string) => toolset.resolve(exposed)?.tool;
    expect(calls).toEqual([
      {
        serverId: 'wx',
        name: 'get_weather',
        exposedName: 'get_weather',
        callId: 'c1',
        arguments: { city: 'Paris', days: 2 },
        tool: toolOf('get_weather'),
      },
      {
        serverId: 'wx',
        name: 'search',
        exposedName: 'wx__search',
        callId: null,
        arguments: {},
        tool: toolOf('wx__search'),
      },
      {
        serverId: 'web',
        name: 'search',
        exposedName: 'web__search',
        callId: null,
        arguments: {},
        tool: toolOf('web__search'),
      },
    ]);
    expect(calls[0]?.tool).toBe(toolOf('get_weather'));
  });

  it('FC-2: __proto__ and constructor are ordinary tool names and argument keys', () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}');
    const { calls, rejected } = functionCalls(
      [call('__proto__', { args }), call('constructor', { args: {} })],
      toolset,
    );
    expect(rejected).toEqual([]);
    expect(calls.map((entry) => [entry.serverId, entry.name])).toEqual([
      ['web', '__proto__'],
      ['web', 'constructor'],
    ]);
    expect(Object.hasOwn(calls[0]!.arguments, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(functionCalls([call('toString'), call('hasOwnProperty')], toolset).calls).toEqual([]);
  });

  it('FC-3: an unknown name yields an error response naming close matches, id echoed', () => {
    const { calls, rejected, items } = functionCalls(
      [call('get_wether', { id: 'x1' }), call('search', { id: 'x2' }), call('zzz')],
      toolset,
    );
    expect(calls).toEqual([]);
    expect(rejected).toHaveLength(3);
    expect(partOf(rejected[0])?.functionResponse).toMatchObject({ id: 'x1', name: 'get_wether' });
    expect(errorOf(rejected[0])).toContain('no function named "get_wether"');
    expect(errorOf(rejected[0])).toContain('"get_weather"');
    expect(errorOf(rejected[1])).toContain('"web__search"');
    expect(errorOf(rejected[1])).toContain('"wx__search"');
    expect(errorOf(rejected[2])).not.toContain('Did you mean');
    expect(partOf(rejected[2])?.functionResponse).not.toHaveProperty('id');
    expect(items.map((item) => item.kind === 'rejected' && item.rejected.reason)).toEqual([
      'UNKNOWN_FUNCTION',
      'UNKNOWN_FUNCTION',
      'UNKNOWN_FUNCTION',
    ]);
  });

  it.each([
    ['an array', [1, 2], 'an array'],
    ['a string', '{"city":"Paris"}', 'a string'],
    ['a number', 7, 'a number'],
    ['a boolean', true, 'a boolean'],
  ])('FC-3: args that are %s are rejected', (_label, args, words) => {
    const { calls, rejected } = functionCalls([call('get_weather', { id: 'a1', args })], toolset);
    expect(calls).toEqual([]);
    expect(partOf(rejected[0])?.functionResponse).toMatchObject({ id: 'a1', name: 'get_weather' });
    expect(errorOf(rejected[0])).toContain(`must be a JSON object, not ${words}`);
  });

  it('FC-3: a call without a usable name is rejected under a valid response name', () => {
    const { rejected, items } = functionCalls(
      [
        { functionCall: 'nonsense' },
        call(17, { id: 'n1' }),
        call('bad name!.'),
        call('x'.repeat(300)),
      ],
      toolset,
    );
    expect(rejected.map((entry) => partOf(entry)?.functionResponse.name)).toEqual([
      'unnamed_function',
      'unnamed_function',
      'bad_name__',
      'x'.repeat(128),
    ]);
    expect(partOf(rejected[1])?.functionResponse?.id).toBe('n1');
    expect(items.map((item) => item.kind === 'rejected' && item.rejected.reason)).toEqual([
      'MALFORMED_CALL',
      'MALFORMED_CALL',
      'UNKNOWN_FUNCTION',
      'UNKNOWN_FUNCTION',
    ]);
    for (const entry of rejected) expect(checkPart(partOf(entry))).toEqual([]);
  });

  it('FC-4: other parts are ignored and call order is kept (items map each call to its place)', () => {
    const result = functionCalls(
      asResponse([
        { text: 'Let me check.' },
        { text: 'thinking', thought: true },
        call('get_weather', { id: '1', args: { city: 'A' } }),
        call('nope', { id: '2' }),
        { inlineData: { mimeType: 'image/png', data: '' } },
        call('wx__search', { id: '3' }),
        null,
        7,
        { functionResponse: { name: 'x', response: {} } },
      ]),
      toolset,
    );
    expect(result.calls.map((entry) => entry.callId)).toEqual(['1', '3']);
    expect(
      result.items.map((item) => (item.kind === 'call' ? item.call.callId : item.rejected.callId)),
    ).toEqual(['1', '2', '3']);
    expect(result.rejected).toEqual([(result.items[1] as RejectedItem).rejected]);
  });

  it.each([
    ['a missing required property', { days: 2 }, '/city: required field "city" is missing'],
    ['a wrong type', { city: 5 }, '/city: must be string'],
    ['a value below minimum', { city: 'x', days: 0 }, '/days: must be >= 1'],
  ])('FC-5: validateArgs rejects %s with the path', (_label, args, words) => {
    const { calls, rejected } = functionCalls([call('get_weather', { id: 'v', args })], toolset, {
      validateArgs: true,
    });
    expect(calls).toEqual([]);
    expect(errorOf(rejected[0])).toContain(words);
    expect(errorOf(rejected[0])).toContain('Invalid arguments for "get_weather"');
    expect(functionCalls([call('get_weather', { args })], toolset).calls).toHaveLength(1);
  });

  it('FC-3/FC-5: a rejection is data (reason, name, id, message, the failing paths), answered only when rendered', () => {
    const { rejected, items } = functionCalls(
      [call('get_weather', { id: 'v1', args: { days: 0 } }), call('bad name!', { id: 'v2' })],
      toolset,
      { validateArgs: true },
    );
    expect(rejected).toEqual([
      {
        reason: 'INVALID_ARGUMENTS',
        name: 'get_weather',
        callId: 'v1',
        message: expect.stringContaining('Invalid arguments for "get_weather"'),
        details: [
          expect.objectContaining({ path: '/city', keyword: 'required' }),
          expect.objectContaining({ path: '/days', keyword: 'minimum' }),
        ],
      },
      {
        reason: 'UNKNOWN_FUNCTION',
        name: 'bad_name_',
        callId: 'v2',
        message: 'There is no function named "bad name!".',
      },
    ]);
    expect(items.map((item) => item.kind === 'rejected' && item.rejected)).toEqual(rejected);
    expect(partOf(rejected[1])).toEqual({
      functionResponse: {
        id: 'v2',
        name: 'bad_name_',
        response: { error: 'UNKNOWN_FUNCTION: There is no function named "bad name!".' },
      },
    });
  });

  it('FC-5: valid arguments pass; the schema is compiled once per tool and cached', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const fresh = buildToolSet([
      { serverId: 's', tools: [tool('a', { inputSchema: { type: 'object', required: ['q'] } })] },
    ]).toolset;
    for (let round = 0; round < 3; round += 1) {
      const { calls } = functionCalls([call('a', { args: { q: 1 } })], fresh, {
        validateArgs: true,
      });
      expect(calls).toHaveLength(1);
    }
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('FC-5: draft-07 inputSchemas (definitions, $ref, $schema) are validated too', () => {
    const draft07: McpTool = tool('d7', {
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        definitions: { positive: { type: 'number', exclusiveMinimum: 0 } },
        properties: {
          n: { $ref: '#/definitions/positive' },
          pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
        },
        required: ['n'],
      },
    });
    const sharedId = (name: string): McpTool =>
      tool(name, {
        inputSchema: { $id: 'https://example.com/same.json', type: 'object', required: ['x'] },
      });
    const set = buildToolSet([
      { serverId: 's', tools: [draft07, sharedId('one'), sharedId('two')] },
    ]).toolset;
    const result = functionCalls(
      [
        call('d7', { args: { n: 0 } }),
        call('d7', { args: { n: 3, pair: ['a', 1] } }),
        call('d7', { args: { n: 3, pair: ['a', 'b'] } }),
        call('one', { args: {} }),
        call('two', { args: { x: 1 } }),
      ],
      set,
      { validateArgs: true },
    );
    expect(result.items.map((item) => item.kind)).toEqual([
      'rejected',
      'call',
      'rejected',
      'rejected',
      'call',
    ]);
    expect(errorOf(result.rejected[0])).toContain('/n: must be > 0');
    expect(errorOf(result.rejected[1])).toContain('/pair/1: must be number');
  });

  it('FC-5: an inputSchema ajv cannot compile does not block the call (the server checks it)', () => {
    const set = buildToolSet([
      {
        serverId: 's',
        tools: [
          tool('re', { inputSchema: { type: 'object', properties: { p: { pattern: '(' } } } }),
        ],
      },
    ]).toolset;
    expect(
      functionCalls([call('re', { args: { p: 'x' } })], set, { validateArgs: true }).calls,
    ).toHaveLength(1);
  });

  it.each([
    'MALFORMED_FUNCTION_CALL',
    'UNEXPECTED_TOOL_CALL',
    'MISSING_THOUGHT_SIGNATURE',
    'TOO_MANY_TOOL_CALLS',
  ])('FC-6: a candidate that ended in %s is reported in finish', (reason) => {
    const result = functionCalls(
      asResponse([], { finishReason: reason, finishMessage: 'Malformed function call: x(' }),
      toolset,
    );
    expect(result.finish).toEqual({ reason, message: 'Malformed function call: x(' });
    expect(result.calls).toEqual([]);
    expect(functionCalls(asResponse([], { finishReason: reason }), toolset).finish).toEqual({
      reason,
    });
  });

  it.each(['STOP', 'MAX_TOKENS', 'SAFETY', undefined, 42])(
    'FC-6: finishReason %s is not a call failure',
    (reason) => {
      expect(
        functionCalls(asResponse(parts, { finishReason: reason }), toolset),
      ).not.toHaveProperty('finish');
    },
  );

  it('FC-3/EX-3b: rejected parts follow the dialect: Vertex AI v1 gets no ids, v1beta1 its ids', () => {
    const [nope] = functionCalls([call('nope', { id: 'x1' })], toolset).rejected;
    const v1 = partOf(nope, 'vertex-v1');
    expect(v1?.functionResponse).not.toHaveProperty('id');
    expect(checkVertexV1Part(v1)).toEqual([]);
    for (const dialect of ['vertex-v1beta1', 'vertex'] as const) {
      const part = partOf(nope, dialect);
      expect(part?.functionResponse?.id).toBe('x1');
      expect(checkVertexV1Beta1Part(part)).toEqual([]);
    }
  });

  it('EX-3b, issue 37: a Vertex AI call that still carries partialArgs is answered UNASSEMBLED_ARGUMENTS, never run with its args alone', () => {
    const part = {
      functionCall: {
        id: 'x2',
        name: toolset.entries[0]!.exposedName,
        args: { a: 1 },
        partialArgs: [{ jsonPath: '$.a', numberValue: 1 }],
        willContinue: false,
      },
    };
    expect(checkVertexV1Beta1Part(part)).toEqual([]);
    const { calls, rejected } = functionCalls([part], toolset);
    expect(calls).toEqual([]);
    expect(rejected).toEqual([
      expect.objectContaining({
        reason: 'UNASSEMBLED_ARGUMENTS',
        callId: 'x2',
        message: expect.stringContaining('(at "$.a")'),
      }),
    ]);
    const plain = { functionCall: { ...part.functionCall, partialArgs: [] } };
    expect(functionCalls([plain], toolset).calls.map((c) => [c.callId, c.arguments])).toEqual([
      ['x2', { a: 1 }],
    ]);
  });
});

const names = fc.constantFrom(
  ...toolset.entries.map((entry) => entry.exposedName),
  'search',
  'unknown',
  '',
  'a b',
  '__proto__',
);
const functionCallArb = fc.record(
  {
    name: fc.oneof(names, fc.string({ unit: 'binary', maxLength: 200 }), fc.jsonValue()),
    id: fc.oneof(fc.string(), fc.jsonValue()),
    args: fc.oneof(
      fc.jsonValue(),
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.constant(JSON.parse('{"__proto__": {"a": 1}}')),
    ),
  },
  { requiredKeys: [] },
);
const partArb = fc.oneof(
  fc.record({ functionCall: fc.oneof(functionCallArb, fc.jsonValue()) }),
  fc.record({ text: fc.string() }),
  fc.jsonValue(),
);
const inputArb = fc.oneof(
  fc.jsonValue(),
  fc.array(partArb, { maxLength: 6 }),
  fc.record({ role: fc.constant('model'), parts: fc.array(partArb, { maxLength: 6 }) }),
  fc.record(
    {
      candidates: fc.array(
        fc.record(
          {
            content: fc.oneof(
              fc.record({ parts: fc.array(partArb, { maxLength: 6 }) }),
              fc.jsonValue(),
            ),
            finishReason: fc.oneof(
              fc.constantFrom('STOP', 'MALFORMED_FUNCTION_CALL'),
              fc.jsonValue(),
            ),
            finishMessage: fc.jsonValue(),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 2 },
      ),
      promptFeedback: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
);

describe('model call properties (FC)', () => {
  it.each(['gemini', 'vertex-v1', 'vertex-v1beta1'] as const)(
    'FC-1..FC-5: any JSON value gives only valid calls and valid rejected parts, or INVALID_INPUT (%s)',
    (dialect) => {
      fc.assert(
        fc.property(inputArb, fc.boolean(), (input, validateArgs) => {
          let result: ReturnType<typeof functionCalls>;
          try {
            result = functionCalls(input, toolset, { validateArgs });
          } catch (error) {
            expect(error).toMatchObject({ code: 'INVALID_INPUT' });
            return;
          }
          for (const entry of result.calls) {
            const resolved = toolset.resolve(entry.exposedName);
            expect(resolved).toBeDefined();
            expect([resolved?.serverId, resolved?.tool.name]).toEqual([entry.serverId, entry.name]);
            expect(entry.callId === null || typeof entry.callId === 'string').toBe(true);
            expect([Object.prototype, null]).toContain(Object.getPrototypeOf(entry.arguments));
            expect(
              checkMcpCallToolRequestParams({ name: entry.name, arguments: entry.arguments }),
            ).toEqual([]);
          }
          for (const rejected of result.rejected) {
            const part = rejectionResponse(rejected, { dialect });
            expect(dialectShapes(dialect).part.check(part)).toEqual([]);
            expect(typeof part.functionResponse?.response.error).toBe('string');
          }
          expect(result.items).toHaveLength(result.calls.length + result.rejected.length);
        }),
        PROPERTY_RUNS,
      );
    },
  );
});
