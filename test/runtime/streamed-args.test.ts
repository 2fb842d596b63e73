/**
 * Issue 37 item 2: function calls whose arguments Vertex AI streams in pieces
 * (`streamFunctionCallArguments`), assembled by gatherTurn. The chunks have the shapes the API
 * was recorded sending (Vertex AI v1beta1, Gemini 3 and 2.5 Pro): `{name, willContinue: true}`
 * with the thought signature, then `partialArgs` pieces, empty `{willContinue: true}` steps and
 * a closing `{}`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PartInput, ResponseInput } from '../../src/adapter/shapes.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import { functionCalls } from '../../src/adapter/turn/calls.js';
import { checkRequest } from '../../src/adapter/turn/request-checks.js';
import type { ReadNotice } from '../../src/generated/guards-common.js';
import {
  checkVertexV1Beta1FunctionCall,
  checkVertexV1Beta1Part,
} from '../../src/generated/guards-vertex-v1beta1.js';
import { readArgumentPath } from '../../src/json/json-path.js';
import { type GatherOptions, gatherTurn } from '../../src/runtime/model/gather.js';
import type { PartialArgsUpdate } from '../../src/runtime/model/streamed-calls.js';

const SIGNATURE = 'CmAB4/H/XjMJHE7D6md5Dkxj';
const META = {
  modelVersion: 'gemini-3-pro-preview',
  responseId: 'r-1',
  createTime: '2026-12-03T10:00:00Z',
};

const chunk = (parts: unknown[], extra: object = {}): ResponseInput =>
  ({ candidates: [{ content: { role: 'model', parts }, ...extra }], ...META }) as ResponseInput;
const piece = (jsonPath: string, value: object, more = true) => ({
  functionCall: {
    partialArgs: [{ jsonPath, ...value, ...(more ? { willContinue: true } : {}) }],
    willContinue: true,
  },
});
const open = (name: string, extra: object = {}) => ({
  functionCall: { name, willContinue: true, ...extra },
});
const CLOSE = { functionCall: {} };
const STEP = { functionCall: { willContinue: true } };

async function gather(chunks: ResponseInput[], options: GatherOptions = {}) {
  const notices: ReadNotice[] = [];
  const updates: PartialArgsUpdate[] = [];
  async function* stream(): AsyncIterable<ResponseInput> {
    yield* chunks;
  }
  const response = await gatherTurn(stream(), {
    dialect: 'vertex-v1beta1',
    onNotice: (notice) => notices.push(notice),
    onPartialArgs: (update) => updates.push({ ...update, args: structuredClone(update.args) }),
    ...options,
  });
  const parts = (response.candidates?.[0]?.content?.parts ?? []) as PartInput[];
  return { response, parts, notices, updates };
}

const { toolset } = buildToolSet([
  {
    serverId: 's',
    tools: [
      'getCurrentWeather',
      'cookRecipe',
      'read_theme',
      'read_screen',
      'writeItems',
      'hello',
    ].map((name) => ({ name, inputSchema: { type: 'object' as const } })),
  },
]);

describe('issue 37: streamed function-call arguments assembled by gatherTurn', () => {
  it("a string streamed in pieces: one call, its args whole, the first piece's signature and fields kept", async () => {
    const { parts, notices, updates } = await gather([
      chunk([{ ...open('getCurrentWeather'), thoughtSignature: SIGNATURE }]),
      chunk([piece('$.country', { stringValue: 'USA' })]),
      chunk([piece('$.country', { stringValue: '' }, false)]),
      chunk([piece('$.location', { stringValue: 'New ' })]),
      chunk([piece('$.location', { stringValue: 'York "City"\n' })]),
      chunk([piece('$.location', { stringValue: '' }, false)]),
      chunk([piece('$.unit', { stringValue: 'C' })]),
      chunk([piece('$.unit', { stringValue: '' }, false)]),
      chunk([CLOSE], { finishReason: 'STOP' }),
    ]);
    expect(parts).toEqual([
      {
        functionCall: {
          name: 'getCurrentWeather',
          args: { country: 'USA', location: 'New York "City"\n', unit: 'C' },
        },
        thoughtSignature: SIGNATURE,
      },
    ]);
    expect(checkVertexV1Beta1Part(parts[0])).toEqual([]);
    expect(notices).toEqual([]);
    expect(updates.map((u) => u.phase)).toEqual(['open', ...Array(7).fill('piece'), 'closed']);
    expect(updates.at(-1)?.args).toEqual({
      country: 'USA',
      location: 'New York "City"\n',
      unit: 'C',
    });
    expect(updates[2]).toMatchObject({
      phase: 'piece',
      name: 'getCurrentWeather',
      candidate: 0,
      call: 0,
      args: { country: 'USA' },
    });
    const read = functionCalls(parts, toolset);
    expect(read.calls.map((c) => c.arguments)).toEqual([
      { country: 'USA', location: 'New York "City"\n', unit: 'C' },
    ]);
  });

  it('a number, a boolean and a null: typed values where their paths say', async () => {
    const { parts, notices } = await gather([
      chunk([{ ...open('writeItems'), thoughtSignature: SIGNATURE }]),
      chunk([piece('$.price', { numberValue: 0.5 }, false)]),
      chunk([piece('$.count', { numberValue: -3 }, false)]),
      chunk([piece('$.urgent', { boolValue: false }, false)]),
      chunk([piece('$.note', { nullValue: null }, false)]),
      chunk([CLOSE]),
    ]);
    expect(parts[0]?.functionCall?.args).toEqual({
      price: 0.5,
      count: -3,
      urgent: false,
      note: null,
    });
    expect(notices).toEqual([]);
  });

  it('nested objects and arrays (the recorded recipe shape), with the empty {willContinue} steps between items', async () => {
    const items = [
      ['16 oz', 'Lasagna noodles'],
      ['1 lb', 'Ground beef'],
    ];
    const chunks = [chunk([{ ...open('cookRecipe'), thoughtSignature: SIGNATURE }])];
    items.forEach(([amount, name], i) => {
      chunks.push(chunk([piece(`$.recipe.ingredients[${i}].amount`, { stringValue: amount! })]));
      chunks.push(chunk([piece(`$.recipe.ingredients[${i}].amount`, { stringValue: '' }, false)]));
      chunks.push(chunk([piece(`$.recipe.ingredients[${i}].name`, { stringValue: name! })]));
      chunks.push(chunk([piece(`$.recipe.ingredients[${i}].name`, { stringValue: '' }, false)]));
      chunks.push(chunk([STEP]));
    });
    chunks.push(chunk([piece('$.recipe.name', { stringValue: 'Lasagna' }, false)]));
    chunks.push(
      chunk([piece('$.recipe.steps[0]', { stringValue: 'Preheat oven to 375°F (190°C).' }, false)]),
    );
    chunks.push(chunk([piece('$.recipe.steps[1]', { stringValue: 'Cook noodles' })]));
    chunks.push(chunk([piece('$.recipe.steps[1]', { stringValue: '.' })]));
    chunks.push(chunk([piece('$.recipe.steps[1]', { stringValue: '' }, false)]));
    chunks.push(chunk([piece("$['recipe']['serves']", { numberValue: 6 }, false)]));
    chunks.push(chunk([CLOSE], { finishReason: 'STOP' }));
    const { parts, notices } = await gather(chunks);
    expect(notices).toEqual([]);
    expect(parts).toHaveLength(1);
    expect(parts[0]?.thoughtSignature).toBe(SIGNATURE);
    expect(parts[0]?.functionCall?.args).toEqual({
      recipe: {
        ingredients: [
          { amount: '16 oz', name: 'Lasagna noodles' },
          { amount: '1 lb', name: 'Ground beef' },
        ],
        name: 'Lasagna',
        steps: ['Preheat oven to 375°F (190°C).', 'Cook noodles.'],
        serves: 6,
      },
    });
  });

  it('empty containers: the value-less "$.path[]" entry is an empty array, or the container that later pieces fill', async () => {
    const { parts, notices } = await gather([
      chunk([{ ...open('writeItems'), thoughtSignature: SIGNATURE }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.tags[]' }], willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.options[]' }], willContinue: true } }]),
      chunk([piece('$.options.mode', { stringValue: 'fast' }, false)]),
      chunk([
        {
          functionCall: {
            partialArgs: [{ jsonPath: '$.list[]' }, { jsonPath: '$.list[0]', numberValue: 1 }],
            willContinue: true,
          },
        },
      ]),
      chunk([
        { functionCall: { partialArgs: [{ jsonPath: '$.deep.inner[]' }], willContinue: true } },
      ]),
      chunk([CLOSE]),
    ]);
    expect(notices).toEqual([]);
    expect(parts[0]?.functionCall?.args).toEqual({
      tags: [],
      options: { mode: 'fast' },
      list: [1],
      deep: { inner: [] },
    });
  });

  it('a no-argument call, a single {functionCall: {name}}: kept as it came, signature and all, beside the streamed calls after it', async () => {
    const noArgs = { functionCall: { name: 'read_theme' }, thoughtSignature: SIGNATURE };
    const { parts, notices } = await gather([
      chunk([{ text: 'Reading the theme.', thought: true }]),
      chunk([noArgs]),
      chunk([open('read_screen')]),
      chunk([piece('$.id', { stringValue: 'A' })]),
      chunk([piece('$.id', { stringValue: '' }, false)]),
      chunk([CLOSE]),
      chunk([{ text: '' }], { finishReason: 'STOP' }),
    ]);
    expect(notices).toEqual([]);
    expect(parts[1]).toBe(noArgs);
    expect(parts).toEqual([
      { text: 'Reading the theme.', thought: true },
      noArgs,
      { functionCall: { name: 'read_screen', args: { id: 'A' } } },
      { text: '' },
    ]);
    const read = functionCalls(parts, toolset);
    expect(read.calls.map((c) => [c.name, c.arguments])).toEqual([
      ['read_theme', {}],
      ['read_screen', { id: 'A' }],
    ]);
  });

  it('a missing terminal chunk: the last piece without willContinue closes the call; a stream that ends mid-call closes it with a notice', async () => {
    const recorded = await gather([
      chunk([{ ...open('writeItems'), thoughtSignature: SIGNATURE }]),
      chunk([piece('$.operations[0].action', { stringValue: 'add' })]),
      chunk([piece('$.operations[0].action', { stringValue: '' }, false)]),
      chunk([piece('$.operations[0].price', { numberValue: 0.5 }, false)]),
      chunk([
        {
          functionCall: { partialArgs: [{ jsonPath: '$.operations[1].price', numberValue: 0.3 }] },
        },
      ]),
      chunk([{ text: '' }], { finishReason: 'STOP' }),
    ]);
    expect(recorded.notices).toEqual([]);
    expect(recorded.parts).toEqual([
      {
        functionCall: {
          name: 'writeItems',
          args: { operations: [{ action: 'add', price: 0.5 }, { price: 0.3 }] },
        },
        thoughtSignature: SIGNATURE,
      },
      { text: '' },
    ]);

    const cut = await gather([
      chunk([{ ...open('writeItems'), thoughtSignature: SIGNATURE }]),
      chunk([piece('$.note', { stringValue: 'half a sen' })]),
    ]);
    expect(cut.parts).toEqual([
      {
        functionCall: { name: 'writeItems', args: { note: 'half a sen' } },
        thoughtSignature: SIGNATURE,
      },
    ]);
    expect(cut.notices).toEqual([
      expect.objectContaining({
        code: 'streamed-call-unclosed',
        path: '/candidates/0/content/parts/0/functionCall',
        value: { name: 'writeItems' },
      }),
    ]);
    expect(cut.updates.at(-1)?.phase).toBe('closed');
  });

  it('two calls in sequence (no ids): each its own part, in order, the signature on the first', async () => {
    const { parts, notices } = await gather([
      chunk([{ ...open('read_screen'), thoughtSignature: SIGNATURE }]),
      chunk([piece('$.id', { stringValue: 'A' })]),
      chunk([piece('$.id', { stringValue: '' }, false)]),
      chunk([CLOSE]),
      chunk([open('read_screen')]),
      chunk([piece('$.id', { stringValue: 'B' })]),
      chunk([piece('$.id', { stringValue: '' }, false)]),
      chunk([CLOSE], { finishReason: 'STOP' }),
    ]);
    expect(notices).toEqual([]);
    expect(parts).toEqual([
      { functionCall: { name: 'read_screen', args: { id: 'A' } }, thoughtSignature: SIGNATURE },
      { functionCall: { name: 'read_screen', args: { id: 'B' } } },
    ]);
  });

  it('two calls interleaved with ids (v1beta1): each piece goes to its call by id', async () => {
    const { parts, notices, updates } = await gather([
      chunk([{ ...open('hello', { id: 'a' }), thoughtSignature: SIGNATURE }]),
      chunk([open('getCurrentWeather', { id: 'b' })]),
      chunk([
        {
          functionCall: {
            id: 'a',
            partialArgs: [{ jsonPath: '$.name', stringValue: 'Ad', willContinue: true }],
            willContinue: true,
          },
        },
      ]),
      chunk([
        {
          functionCall: {
            id: 'b',
            partialArgs: [{ jsonPath: '$.location', stringValue: 'Ber', willContinue: true }],
            willContinue: true,
          },
        },
      ]),
      chunk([
        {
          functionCall: {
            id: 'a',
            partialArgs: [{ jsonPath: '$.name', stringValue: 'a' }],
            willContinue: true,
          },
        },
      ]),
      chunk([
        {
          functionCall: {
            id: 'b',
            partialArgs: [{ jsonPath: '$.location', stringValue: 'lin' }],
            willContinue: true,
          },
        },
      ]),
      chunk([{ functionCall: { id: 'b' } }]),
      chunk([{ functionCall: { id: 'a' } }], { finishReason: 'STOP' }),
    ]);
    expect(notices).toEqual([]);
    expect(parts).toEqual([
      {
        functionCall: { id: 'a', name: 'hello', args: { name: 'Ada' } },
        thoughtSignature: SIGNATURE,
      },
      { functionCall: { id: 'b', name: 'getCurrentWeather', args: { location: 'Berlin' } } },
    ]);
    for (const part of parts) expect(checkVertexV1Beta1Part(part)).toEqual([]);
    expect(updates.filter((u) => u.phase === 'closed').map((u) => u.id)).toEqual(['b', 'a']);
    expect(functionCalls(parts, toolset).calls.map((c) => c.callId)).toEqual(['a', 'b']);
  });

  it.each([
    ['$.__proto__.polluted', 'the step "__proto__"'],
    ["$['__proto__']", 'the step "__proto__"'],
    ['$.constructor.prototype.polluted', 'the step "constructor"'],
    ['$.a.prototype', 'the step "prototype"'],
    ['$..polluted', 'not followed by a member name'],
    ['$.a[*]', 'a selector other than'],
    ['$.a[-1]', 'a selector other than'],
    ['$.a[0,1]', 'a selector other than'],
    ['$[0]', 'uses an index on an object'],
    ['$.a[]x', '"[]" before the end'],
    ['a.b', 'does not start at the root'],
    ['$', 'names the arguments themselves'],
    ['$.list[3]', 'skips array indexes'],
  ])(
    'a hostile path %s is refused with a notice; nothing is polluted and the call is answered, not run',
    async (jsonPath, reason) => {
      const { parts, notices } = await gather([
        chunk([{ ...open('writeItems'), thoughtSignature: SIGNATURE }]),
        chunk([piece('$.ok', { stringValue: 'yes' }, false)]),
        chunk([
          { functionCall: { partialArgs: [{ jsonPath, stringValue: 'x' }], willContinue: true } },
        ]),
        chunk([piece('$.after', { stringValue: 'ignored' }, false)]),
        chunk([CLOSE]),
      ]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({
        code: 'streamed-call-refused',
        schema: 'FunctionCall',
        path: '/candidates/0/content/parts/0/functionCall',
      });
      expect(notices[0]?.message).toContain(reason);
      expect(parts).toEqual([
        {
          functionCall: {
            name: 'writeItems',
            args: { ok: 'yes' },
            partialArgs: [{ jsonPath, stringValue: 'x' }],
          },
          thoughtSignature: SIGNATURE,
        },
      ]);
      expect(checkVertexV1Beta1Part(parts[0])).toEqual([]);
      const read = functionCalls(parts, toolset);
      expect(read.calls).toEqual([]);
      expect(read.rejected).toEqual([
        expect.objectContaining({ reason: 'UNASSEMBLED_ARGUMENTS', name: 'writeItems' }),
      ]);
    },
  );

  it.each([
    [
      'a value set twice',
      [
        { jsonPath: '$.a', numberValue: 1 },
        { jsonPath: '$.a', numberValue: 2 },
      ],
      'is set twice',
    ],
    [
      'a step into a string',
      [
        { jsonPath: '$.a', stringValue: 's' },
        { jsonPath: '$.a.b', numberValue: 2 },
      ],
      'goes into a value that is not an object',
    ],
    ['a value-less entry without "[]"', [{ jsonPath: '$.a' }], 'has no value'],
    [
      '"[]" with a value',
      [{ jsonPath: '$.a[]', numberValue: 1 }],
      'ends in "[]" but the entry has a value',
    ],
    [
      'two values in one entry (the read contract)',
      [{ jsonPath: '$.a', numberValue: 1, stringValue: 'x' }],
      'is not a VertexV1Beta1PartialArg',
    ],
    [
      'a path deeper than 512 steps',
      [{ jsonPath: `$${'.a'.repeat(513)}`, numberValue: 1 }],
      'more than 512 steps',
    ],
  ])('%s: refused with a notice', async (_, entries, reason) => {
    const { parts, notices } = await gather([
      chunk([{ ...open('writeItems'), thoughtSignature: SIGNATURE }]),
      chunk([{ functionCall: { partialArgs: entries, willContinue: true } }]),
      chunk([CLOSE]),
    ]);
    expect(notices.map((n) => n.code)).toEqual(['streamed-call-refused']);
    expect(notices[0]?.message).toContain(reason);
    expect(functionCalls(parts, toolset).rejected.map((r) => r.reason)).toEqual([
      'UNASSEMBLED_ARGUMENTS',
    ]);
  });

  it('bounded in bytes: arguments past 10 MiB are refused, not kept growing', async () => {
    const mib = 'x'.repeat(1024 * 1024);
    const chunks = [chunk([{ ...open('writeItems'), thoughtSignature: SIGNATURE }])];
    for (let i = 0; i < 11; i++) chunks.push(chunk([piece('$.text', { stringValue: mib })]));
    chunks.push(chunk([CLOSE]));
    const { parts, notices } = await gather(chunks);
    expect(notices.map((n) => n.code)).toEqual(['streamed-call-refused']);
    expect(notices[0]?.message).toContain('bytes');
    expect(String(parts[0]?.functionCall?.args?.text).length).toBe(9 * 1024 * 1024); // paths count too
  });

  it('a later piece carrying the signature gives it to its call; a piece that continues no call stays as it came', async () => {
    const stray = { functionCall: { partialArgs: [{ jsonPath: '$.x', numberValue: 1 }] } };
    const { parts } = await gather([
      chunk([open('hello')]),
      chunk([{ ...piece('$.name', { stringValue: 'Ada' }, false), thoughtSignature: SIGNATURE }]),
      chunk([CLOSE]),
      chunk([stray]),
    ]);
    expect(parts).toEqual([
      { functionCall: { name: 'hello', args: { name: 'Ada' } }, thoughtSignature: SIGNATURE },
      stray,
    ]);
    expect(functionCalls(parts, toolset).rejected.map((r) => r.reason)).toEqual(['MALFORMED_CALL']);
  });

  it('a stream without streamed calls is gathered as before: the same part objects, in order', async () => {
    const call = {
      functionCall: { id: 'c1', name: 'hello', args: { name: 'Ada' } },
      thoughtSignature: SIGNATURE,
    };
    const { parts, updates } = await gather([chunk([{ text: 'a' }]), chunk([call])]);
    expect(parts[1]).toBe(call);
    expect(updates).toEqual([]);
  });

  it('functionCalls refuses a call still marked willContinue: a lone first piece is never run with {} arguments', () => {
    const read = functionCalls([{ functionCall: { name: 'hello', willContinue: true } }], toolset);
    expect(read.calls).toEqual([]);
    expect(read.rejected[0]?.reason).toBe('UNASSEMBLED_ARGUMENTS');
  });
});

describe('issue 37: any stream of call pieces is gathered without a throw', () => {
  const paths = fc.constantFrom(
    '$.a',
    '$.a.b',
    '$.a[0]',
    '$.a[1]',
    '$.a[]',
    '$.b[0].c',
    "$['x y']",
    '$.__proto__.p',
    '$.constructor.prototype.p',
    '$..a',
    '$',
    '$[0]',
    'nope',
  );
  const entry = fc.record(
    {
      jsonPath: fc.oneof(paths, fc.string()),
      stringValue: fc.string(),
      numberValue: fc.double({ noNaN: true, noDefaultInfinity: true }),
      boolValue: fc.boolean(),
      willContinue: fc.boolean(),
    },
    { requiredKeys: [] },
  );
  const functionCall = fc.record(
    {
      name: fc.constantFrom('hello', 'writeItems', ''),
      id: fc.constantFrom('a', 'b'),
      args: fc.oneof(fc.constant({ k: 1 }), fc.constant(7)),
      partialArgs: fc.oneof(fc.array(entry, { maxLength: 4 }), fc.constant('x')),
      willContinue: fc.boolean(),
    },
    { requiredKeys: [] },
  );
  const part = fc.oneof(
    fc.record({ functionCall }),
    fc.record({ functionCall, thoughtSignature: fc.constant(SIGNATURE) }),
    fc.constant({ text: 't' }),
    fc.constant(null),
  );

  it('notices, never a throw; every assembled call is a valid FunctionCall; no prototype is touched', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(part, { maxLength: 3 }), { maxLength: 8 }),
        async (chunks) => {
          const { parts, notices } = await gather(chunks.map((parts) => chunk(parts)));
          for (const notice of notices)
            expect(notice.code).toMatch(/^streamed-call-(refused|unclosed)$/);
          for (const gathered of parts) {
            const call = (gathered as { functionCall?: unknown } | null)?.functionCall;
            if (
              call !== undefined &&
              Object.hasOwn(call as object, 'args') &&
              typeof (call as { args: unknown }).args === 'object'
            ) {
              expect(
                checkVertexV1Beta1FunctionCall({ args: (call as { args: unknown }).args }),
              ).toEqual([]);
            }
          }
          expect(Object.prototype).not.toHaveProperty('p');
          functionCalls(parts, toolset); // answers whatever it gets
        },
      ),
      { numRuns: 300, seed: 37 },
    );
  });
});

describe('issue 37: the RFC 9535 path forms the API writes', () => {
  it.each([
    ['$.a', ['a'], false],
    ['$.a.b_c9', ['a', 'b_c9'], false],
    ["$['a b']", ['a b'], false],
    ['$["x\\"y"]', ['x"y'], false],
    ["$['it\\'s\\u00e9\\n']", ["it'sé\n"], false],
    ['$.a[0][12].b', ['a', 0, 12, 'b'], false],
    ['$.été', ['été'], false],
    ['$.tags[]', ['tags'], true],
  ])('%s: steps %j', (text, steps, emptyContainer) => {
    expect(readArgumentPath(text, 512)).toEqual({ ok: true, path: { steps, emptyContainer } });
  });

  it.each([
    '$.',
    '$.1a',
    "$['a'",
    "$['a\\q']",
    '$[01]',
    '$[ 0]',
    '$.a[?@.b]',
    '$.a[1:2]',
    '$ .a',
    '$.a.*',
    "$['a\u0001']",
  ])('%s is refused', (text) => {
    expect(readArgumentPath(text, 512)).toMatchObject({ ok: false });
  });
});

describe('issue 37: checkRequest and streamed arguments', () => {
  const request = {
    contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    toolConfig: { functionCallingConfig: { streamFunctionCallArguments: true } },
  };
  it('streamed: false flags streamFunctionCallArguments, a warning with its pointer', () => {
    expect(checkRequest(request, { streamed: false })).toEqual([
      expect.objectContaining({
        severity: 'warning',
        keyword: 'request/stream-function-call-arguments',
        path: '/toolConfig/functionCallingConfig/streamFunctionCallArguments',
      }),
    ]);
  });
  it('streamed: true, or not said, flags nothing', () => {
    expect(checkRequest(request, { streamed: true })).toEqual([]);
    expect(checkRequest(request)).toEqual([]);
    expect(checkRequest({ contents: request.contents }, { streamed: false })).toEqual([]);
  });
});
