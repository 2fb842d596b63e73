import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dialectShapes } from '../../src/adapter/dialect-shapes.js';
import { decodedSize } from '../../src/adapter/turn/render.js';
import type { FunctionResponseOptions } from '../../src/adapter/turn/responses.js';
import { DEFAULT_MAX_OUTPUT_BYTES, functionResponse } from '../../src/adapter/turn/responses.js';
import type { ToolError } from '../../src/adapter/types.js';
import {
  checkMcpCallToolResult,
  checkPart,
  checkVertexV1Beta1Part,
  checkVertexV1Part,
} from '../../src/generated/guards.js';
import type { McpCallToolResult, McpContentBlock, Part } from '../../src/generated/types.js';
import { utf8ByteLength } from '../../src/json/utf8.js';
import { PROPERTY_RUNS } from './helpers.js';

const text = (value: string): McpContentBlock => ({ type: 'text', text: value });
const bytes = (count: number) => Buffer.alloc(count, 7).toString('base64');
const png1024: McpContentBlock = { type: 'image', mimeType: 'image/png', data: bytes(1024) };
const wav: McpContentBlock = { type: 'audio', mimeType: 'audio/wav', data: bytes(10) };
const result = (content: McpContentBlock[], extra: Partial<McpCallToolResult> = {}) => ({
  content,
  ...extra,
});
const responseOf = (part: Part) => part.functionResponse?.response;

describe('function responses (FR)', () => {
  it('FR-1: success goes under response.output, with the call id', () => {
    const part = functionResponse('get_weather', result([text('Sunny, 21°C')]), { id: 'c1' });
    expect(part).toEqual({
      functionResponse: { id: 'c1', name: 'get_weather', response: { output: 'Sunny, 21°C' } },
    });
    expect(checkPart(part)).toEqual([]);
  });

  it.each([
    ['no id', {}, false],
    ['null id', { id: null }, false],
    ['gemini dialect', { id: 'c9', dialect: 'gemini' }, true],
    ['vertex-v1beta1 dialect', { id: 'c9', dialect: 'vertex-v1beta1' }, true],
    ['vertex (the v1beta1 alias)', { id: 'c9', dialect: 'vertex' }, true],
    ['vertex-v1 dialect', { id: 'c9', dialect: 'vertex-v1' }, false],
  ] as const)(
    'FR-1/EX-3b: the id is echoed only when given and the dialect has ids (%s)',
    (_label, options, hasId) => {
      const part = functionResponse('t', result([text('x')]), options);
      expect(Object.hasOwn(part.functionResponse ?? {}, 'id')).toBe(hasId);
      // Vertex AI v1's reference has no id; v1beta1's has
      expect(checkVertexV1Part(part).length === 0).toBe(!hasId);
      expect(checkVertexV1Beta1Part(part)).toEqual([]);
    },
  );

  it('EX-3b: whether a dialect keeps ids is what its FunctionResponse schema says', async () => {
    const { readFile } = await import('node:fs/promises');
    const hasId = async (folder: string) =>
      Object.hasOwn(
        JSON.parse(await readFile(`schemas/${folder}/FunctionResponse.schema.json`, 'utf8'))
          .properties,
        'id',
      );
    expect(dialectShapes('gemini').callIds).toBe(await hasId('gemini'));
    expect(dialectShapes('vertex-v1').callIds).toBe(await hasId('vertex/v1'));
    expect(dialectShapes('vertex-v1beta1').callIds).toBe(await hasId('vertex/v1beta1'));
    expect([false, true]).toEqual([
      dialectShapes('vertex-v1').callIds,
      dialectShapes('vertex').callIds,
    ]);
  });

  it('EX-3b: an unknown dialect is INVALID_INPUT', () => {
    expect(() =>
      functionResponse('t', result([text('x')]), { dialect: 'vertex-v2' as never }),
    ).toThrow(/unknown dialect "vertex-v2"/);
  });

  it.each([
    ['a name with a dot', 'a.b'],
    ['an empty name', ''],
    ['a name over 128 characters', 'x'.repeat(129)],
  ])('FR-1: %s cannot name a function response: INVALID_INPUT', (_label, name) => {
    expect(() => functionResponse(name, result([text('x')]))).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });

  it.each([
    ['no content list', { structuredContent: {} }],
    ['a block whose type is not a string', { content: [{ type: 7, url: 'x' }] }],
    ['a text block without text', { content: [{ type: 'text' }] }],
  ])('FR-1: a result with %s is INVALID_INPUT', (_label, bad) => {
    expect(() => functionResponse('t', bad as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });

  it('FR-1, issue 32 item 5: a block of a type newer than the schemas is described, never refused', () => {
    const video = { content: [{ type: 'video', url: 'x', mimeType: 'video/mp4' }] };
    expect(responseOf(functionResponse('t', video as never))).toEqual({
      output: '[content block of type "video", unknown to this client: mimeType "video/mp4"]',
    });
  });

  it("FR-2: structured 'prefer' (default) sends structuredContent itself, else the text", () => {
    const structured = result([text('{"tempC":21}')], { structuredContent: { tempC: 21 } });
    expect(responseOf(functionResponse('t', structured))).toEqual({ output: { tempC: 21 } });
    expect(responseOf(functionResponse('t', result([text('plain')])))).toEqual({ output: 'plain' });
    // issue 11: any JSON value (MCP 2026-07-28) is sent itself, not replaced by the text.
    const nonObject = result([text('t')], { structuredContent: [1, 2] });
    expect(responseOf(functionResponse('t', nonObject))).toEqual({ output: [1, 2] });
  });

  it.each([
    ['text blocks joined by newlines', [text('one'), text('two')], 'one\ntwo'],
    ['an image, by decoded size', [png1024], '[image: image/png, 1024 bytes]'],
    ['audio', [wav], '[audio: audio/wav, 10 bytes]'],
    [
      'a resource link',
      [
        {
          type: 'resource_link',
          uri: 'file:///tmp/a.txt',
          name: 'a.txt',
          mimeType: 'text/plain',
          size: 12,
        },
      ],
      '[resource link: file:///tmp/a.txt, name "a.txt", text/plain, 12 bytes]',
    ],
    [
      'a resource link without type or size',
      [{ type: 'resource_link', uri: 'https://x.test/r', name: 'r' }],
      '[resource link: https://x.test/r, name "r", unknown type]',
    ],
    [
      'an embedded text resource',
      [
        {
          type: 'resource',
          resource: { uri: 'mem://n', mimeType: 'text/markdown', text: '# Note' },
        },
      ],
      '[resource: mem://n, text/markdown]\n# Note',
    ],
    [
      'an embedded blob resource',
      [{ type: 'resource', resource: { uri: 'mem://b', blob: bytes(5) } }],
      '[resource: mem://b, unknown type, 5 bytes]',
    ],
    ['no content', [], ''],
  ] as [string, McpContentBlock[], string][])(
    'FR-3: text rendering of %s',
    (_label, content, want) => {
      const part = functionResponse('t', result(content));
      expect(responseOf(part)).toEqual({ output: want });
    },
  );

  it.each([
    ['', 0],
    ['aGk=', 2],
    ['aGVsbG8=', 5],
    ['aGVs\nbG8h', 6],
  ])('FR-3: decoded size of %j is %i bytes', (base64, size) => {
    expect(decodedSize(base64)).toBe(size);
  });

  const structured = { tempC: 21 };
  const echoed = result([text('Weather:'), text('{ "tempC": 21 }')], {
    structuredContent: structured,
  });
  const notEchoed = result([text('Weather: fine')], { structuredContent: structured });
  it.each([
    ['ignore', echoed, 'Weather:\n{ "tempC": 21 }'],
    ['ignore', notEchoed, 'Weather: fine'],
    ['append', notEchoed, 'Weather: fine\n{"tempC":21}'],
    ['append', echoed, 'Weather:\n{ "tempC": 21 }\n{"tempC":21}'],
    ['append', result([], { structuredContent: structured }), '{"tempC":21}'],
    ['auto', echoed, 'Weather:\n{ "tempC": 21 }'],
    ['auto', notEchoed, 'Weather: fine\n{"tempC":21}'],
    ['auto', result([text('x')]), 'x'],
  ] as const)("FR-4: structured '%s'", (mode, given, want) => {
    expect(responseOf(functionResponse('t', given, { structured: mode }))).toEqual({
      output: want,
    });
  });

  it('FR-5: isError: true goes under response.error as text', () => {
    const failed = result([text('City not found')], { isError: true });
    expect(responseOf(functionResponse('t', failed, { id: 'e1' }))).toEqual({
      error: 'City not found',
    });
    const structuredError = result([], { isError: true, structuredContent: { code: 404 } });
    expect(responseOf(functionResponse('t', structuredError))).toEqual({ error: '{"code":404}' });
    expect(responseOf(functionResponse('t', result([], { isError: true })))).toEqual({
      error: 'The tool reported an error without details.',
    });
  });

  it.each([
    [
      { code: 'TIMEOUT', message: 'No answer within 30000 ms' },
      'TIMEOUT: No answer within 30000 ms',
    ],
    [{ code: 'TRANSPORT', message: 'Connection closed' }, 'TRANSPORT: Connection closed'],
    [
      { code: 'UNKNOWN_SERVER', message: 'No server "x"', data: { serverId: 'x' } },
      'UNKNOWN_SERVER: No server "x"\n{"serverId":"x"}',
    ],
  ] as [ToolError, string][])('FR-5: a ToolError goes under response.error (%j)', (error, want) => {
    const part = functionResponse('t', error, { id: 'e2' });
    expect(part.functionResponse).toEqual({ id: 'e2', name: 't', response: { error: want } });
  });

  it("FR-6: media 'parts' sends images and audio as functionResponse.parts[].inlineData", () => {
    const part = functionResponse('t', result([text('Here:'), png1024, wav]), { media: 'parts' });
    expect(part.functionResponse?.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: bytes(1024) } },
      { inlineData: { mimeType: 'audio/wav', data: bytes(10) } },
    ]);
    expect(responseOf(part)).toEqual({
      output:
        'Here:\n[image: image/png, 1024 bytes, sent as function response part 1]\n' +
        '[audio: audio/wav, 10 bytes, sent as function response part 2]',
    });
    expect(checkPart(part)).toEqual([]);
    const placeholders = functionResponse('t', result([png1024]));
    expect(placeholders.functionResponse).not.toHaveProperty('parts');
  });

  it("FR-6: media that is not base64 stays a placeholder in 'parts' mode", () => {
    const bad: McpContentBlock = { type: 'image', mimeType: 'image/png', data: 'not base64!' };
    const part = functionResponse('t', result([bad]), { media: 'parts' });
    expect(part.functionResponse).not.toHaveProperty('parts');
    expect(responseOf(part)?.output).toMatch(/^\[image: image\/png, \d+ bytes\]$/);
  });

  it('FR-7: output over maxOutputBytes is cut on a character boundary with a visible marker', () => {
    const long = 'é'.repeat(100);
    const output = responseOf(functionResponse('t', result([text(long)]), { maxOutputBytes: 51 }))
      ?.output as string;
    expect(output).toBe(`${'é'.repeat(25)}\n[output truncated: 50 of 200 bytes shown]`);
    const exact = responseOf(functionResponse('t', result([text(long)]), { maxOutputBytes: 200 }));
    expect(exact).toEqual({ output: long });
  });

  it('FR-7: large structured output and error text are capped too; the default cap is 256 KiB', () => {
    const big = { items: Array.from({ length: 50 }, (_, index) => `item-${index}`) };
    const output = responseOf(
      functionResponse('t', result([], { structuredContent: big }), { maxOutputBytes: 100 }),
    )?.output;
    expect(typeof output).toBe('string');
    expect(output).toMatch(
      /^\{"items":\["item-0".*\n\[output truncated: 100 of \d+ bytes shown\]$/s,
    );
    const error = responseOf(
      functionResponse('t', { code: 'X', message: 'y'.repeat(500) }, { maxOutputBytes: 10 }),
    );
    expect(error?.error).toBe('X: yyyyyyy\n[output truncated: 10 of 503 bytes shown]');
    expect(DEFAULT_MAX_OUTPUT_BYTES).toBe(262144);
    const huge = 'z'.repeat(DEFAULT_MAX_OUTPUT_BYTES + 10);
    const capped = responseOf(functionResponse('t', result([text(huge)])))?.output as string;
    expect(capped.startsWith('z'.repeat(DEFAULT_MAX_OUTPUT_BYTES))).toBe(true);
    expect(capped).toContain('[output truncated');
    const uncapped = responseOf(
      functionResponse('t', result([text(huge)]), { maxOutputBytes: Number.POSITIVE_INFINITY }),
    );
    expect(uncapped).toEqual({ output: huge });
  });

  it.each([0, -1, 1.5, Number.NaN])(
    'FR-7: maxOutputBytes %s is INVALID_INPUT',
    (maxOutputBytes) => {
      expect(() => functionResponse('t', result([text('x')]), { maxOutputBytes })).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
    },
  );

  it.each([
    ['at the top', { $ref: 'image-1' }],
    ['nested', { data: { list: [{ a: 1 }, { $ref: '#/x' }] } }],
  ])('FR-8: a $ref key %s is neutralised by sending the payload as JSON text', (_label, value) => {
    const part = functionResponse('t', result([], { structuredContent: value }));
    expect(responseOf(part)).toEqual({ output: JSON.stringify(value) });
  });

  it('FR-8: objects without $ref keys (even with "$ref" as a value) stay objects', () => {
    const value = { note: '$ref', refs: ['$ref'], $schema: 'x' };
    expect(responseOf(functionResponse('t', result([], { structuredContent: value })))).toEqual({
      output: value,
    });
  });
});

const base64 = fc.base64String({ maxLength: 64 });
const block: fc.Arbitrary<McpContentBlock> = fc.oneof(
  fc.record({
    type: fc.constant('text' as const),
    text: fc.string({ unit: 'binary', maxLength: 200 }),
  }),
  fc.record({
    type: fc.constantFrom('image' as const, 'audio' as const),
    data: fc.oneof(base64, fc.string()),
    mimeType: fc.string(),
  }),
  fc.record(
    {
      type: fc.constant('resource_link' as const),
      uri: fc.webUrl(),
      name: fc.string(),
      mimeType: fc.string(),
      size: fc.nat(),
    },
    { requiredKeys: ['type', 'uri', 'name'] },
  ),
  fc.record({
    type: fc.constant('resource' as const),
    resource: fc.oneof(
      fc.record({ uri: fc.webUrl(), text: fc.string() }),
      fc.record({ uri: fc.webUrl(), blob: base64, mimeType: fc.string() }),
    ),
  }),
);
const structuredContent = fc.oneof(
  fc.dictionary(
    fc.oneof(fc.string(), fc.constantFrom('$ref', '__proto__')),
    fc.jsonValue({ maxDepth: 3 }),
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
const callToolResult = fc.record(
  {
    content: fc.array(block, { maxLength: 5 }),
    structuredContent,
    isError: fc.boolean(),
  },
  { requiredKeys: ['content'] },
);
const options: fc.Arbitrary<FunctionResponseOptions> = fc.record(
  {
    id: fc.option(fc.string()),
    structured: fc.constantFrom('prefer', 'auto', 'append', 'ignore'),
    media: fc.constantFrom('placeholder', 'parts'),
    maxOutputBytes: fc.oneof(
      fc.integer({ min: 1, max: 400 }),
      fc.constant(Number.POSITIVE_INFINITY),
    ),
    dialect: fc.constantFrom('gemini', 'vertex-v1', 'vertex-v1beta1', 'vertex'),
  },
  { requiredKeys: [] },
);

describe('issue 12: what the MCP SDK returns', () => {
  it('FR-1: the legacy {toolResult} of protocol 2024-10-07 is answered as output text', () => {
    expect(functionResponse('legacy', { toolResult: { tempC: 21 } }, { id: 'c1' })).toEqual({
      functionResponse: { id: 'c1', name: 'legacy', response: { output: '{"tempC":21}' } },
    });
    expect(functionResponse('legacy', { toolResult: 'Sunny' })).toEqual({
      functionResponse: { name: 'legacy', response: { output: 'Sunny' } },
    });
  });

  it('FR-1: a legacy result is bounded like any text (capped, not thrown)', () => {
    const part = functionResponse(
      'legacy',
      { toolResult: 'x'.repeat(100) },
      { maxOutputBytes: 10 },
    );
    expect(String(responseOf(part)?.output)).toMatch(
      /^x{10}\n\[output truncated: 10 of 100 bytes shown\]$/,
    );
  });

  it('FR-1: a value that has content is read as a CallToolResult, toolResult or not', () => {
    expect(() => functionResponse('t', { content: 'not a list', toolResult: 1 } as never)).toThrow(
      /neither a ToolError nor an MCP CallToolResult/,
    );
  });
});

describe('function response properties (FR)', () => {
  it('FR-1..FR-8: any CallToolResult (or ToolError) gives a valid functionResponse part', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          callToolResult,
          fc.record(
            { code: fc.string(), message: fc.string(), data: fc.jsonValue() },
            { requiredKeys: ['code', 'message'] },
          ),
        ),
        options,
        (given, chosen) => {
          fc.pre('code' in given || checkMcpCallToolResult(given).length === 0);
          const part = functionResponse(
            'some_tool-1',
            given as McpCallToolResult | ToolError,
            chosen,
          );
          const check = dialectShapes(chosen.dialect).part.check;
          expect(check(part)).toEqual([]);
          const response = part.functionResponse!.response;
          expect(Object.keys(response).length).toBe(1);
          const payload = response.output ?? response.error;
          if (typeof payload === 'string' && chosen.maxOutputBytes !== undefined) {
            const marker = payload.lastIndexOf('\n[output truncated: ');
            const body = marker === -1 ? payload : payload.slice(0, marker);
            expect(utf8ByteLength(body)).toBeLessThanOrEqual(chosen.maxOutputBytes);
          }
          expect(JSON.stringify(response)).not.toContain('"$ref":');
        },
      ),
      PROPERTY_RUNS,
    );
  });
});

describe('issue 11: structuredContent that is not an object (MCP 2026-07-28)', () => {
  const modes = ['prefer', 'append', 'auto', 'ignore'] as const;
  const values: [string, unknown][] = [
    ['an array', [2, 3, 5]],
    ['a string', 'hello-world'],
    ['a number', 42],
    ['a boolean', false],
    ['null', null],
  ];

  for (const mode of modes) {
    it.each(values)(`%s reaches the model in ${mode} mode`, (_label, value) => {
      const withText = functionResponse(
        't',
        result([text('the answer')], { structuredContent: value }),
        {
          structured: mode,
        },
      );
      const bare = functionResponse('t', result([], { structuredContent: value }), {
        structured: mode,
      });
      expect(checkPart(withText)).toEqual([]);
      expect(checkPart(bare)).toEqual([]);
      const json = JSON.stringify(value);
      if (mode === 'prefer') {
        expect(responseOf(withText)).toEqual({ output: value });
        expect(responseOf(bare)).toEqual({ output: value });
      } else if (mode === 'ignore') {
        expect(responseOf(withText)).toEqual({ output: 'the answer' });
        expect(responseOf(bare)).toEqual({ output: value });
      } else {
        expect(responseOf(withText)).toEqual({ output: `the answer\n${json}` });
        expect(responseOf(bare)).toEqual({ output: json });
      }
    });
  }

  it('auto: a text block that already holds the same JSON is not repeated', () => {
    const part = functionResponse(
      't',
      result([text('[2, 3, 5]')], { structuredContent: [2, 3, 5] }),
      {
        structured: 'auto',
      },
    );
    expect(responseOf(part)).toEqual({ output: '[2, 3, 5]' });
  });

  it('prefer: an array holding a $ref key is sent as JSON text (FR-8)', () => {
    const part = functionResponse('t', result([], { structuredContent: [{ $ref: '#/x' }] }));
    expect(responseOf(part)).toEqual({ output: '[{"$ref":"#/x"}]' });
  });
});
