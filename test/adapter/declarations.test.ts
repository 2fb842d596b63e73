import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeclarationWarning } from '../../src/adapter/tools/declarations.js';
import { functionDeclarations, geminiTools } from '../../src/adapter/tools/declarations.js';
import { sanitizeDescription } from '../../src/adapter/tools/description.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import { GeminiMcpError } from '../../src/errors.js';
import { checkFunctionDeclaration, checkTool } from '../../src/generated/guards.js';
import type { McpTool } from '../../src/generated/types.js';
import { proveContract } from '../../src/json/contract.js';
import { frozenSnapshot } from '../../src/json/copy.js';
import { sanitizeJsonStrings } from '../../src/json/sanitize.js';
import { truncateUtf8, utf8ByteLength } from '../../src/json/utf8.js';
import { toDeclaredParameters, toDeclaredSchema } from '../../src/schema/to-gemini-schema.js';
import { anySchemaDocument, typedSchemaDocument } from '../schema/arbitraries.js';
import { PROPERTY_RUNS, server, tool } from './helpers.js';

const weatherInput = {
  type: 'object' as const,
  properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer' } },
  required: ['city'],
  additionalProperties: false,
};
const weatherOutput = {
  type: 'object' as const,
  properties: { tempC: { type: 'number' } },
  required: ['tempC'],
};

function toolsetOf(...tools: McpTool[]) {
  return buildToolSet([{ serverId: 's', tools }]).toolset;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('declarations (FD)', () => {
  it('FD-1: one declaration per tool in the set, in set order, nothing else', () => {
    const { toolset } = buildToolSet(
      [server('a', 'first', 'hidden', 'second'), server('b', 'third', 'first')],
      { filters: { a: { exclude: ['hidden'] } } },
    );
    const declarations = functionDeclarations(toolset);
    expect(declarations.map((declaration) => declaration.name)).toEqual([
      'a__first',
      'second',
      'third',
      'b__first',
    ]);
    expect(declarations.map((declaration) => Object.keys(declaration).sort())).toEqual(
      declarations.map(() => ['description', 'name', 'parametersJsonSchema']),
    );
    expect(functionDeclarations(toolsetOf())).toEqual([]);
  });

  it.each([
    ['missing', undefined, ''],
    ['plain', 'Gets the weather.', 'Gets the weather.'],
    ['tab and newline kept', 'a\tb\nc', 'a\tb\nc'],
    ['zero-width space and joiners', 'he\u200Bl\u200Cl\u200Do\u2060', 'hello'],
    ['bidi controls', 'safe\u202Eevil\u202C\u2066x\u2069\u200E\u200F', 'safeevilx'],
    ['tag characters', `ok${String.fromCodePoint(0xe0001, 0xe0049, 0xe0067, 0xe007f)}`, 'ok'],
    ['variation selectors', `a\uFE0Fb${String.fromCodePoint(0xe0100)}`, 'ab'],
    ['C0 and C1 controls, CR', 'a\u0000b\u0007c\r\u0085d\u009F', 'abcd'],
    ['soft hyphen and BOM', 'in\u00ADvisible\uFEFF', 'invisible'],
    ['lone surrogate', 'a\uD800b', 'ab'],
    ['emoji and accents kept', 'café ☕ 😀', 'café ☕ 😀'],
  ])('FD-2: description sanitized (%s)', (_label, description, want) => {
    const toolset = toolsetOf(tool('t', description === undefined ? {} : { description }));
    expect(functionDeclarations(toolset)[0]?.description).toBe(want);
  });

  it('FD-2: descriptions are capped at 4096 bytes of UTF-8 without splitting a character', () => {
    for (const unit of ['a', 'é', '€', '😀']) {
      const { text, truncated } = sanitizeDescription(unit.repeat(5000));
      expect(truncated).toBe(true);
      expect(utf8ByteLength(text)).toBeLessThanOrEqual(4096);
      expect(utf8ByteLength(text)).toBeGreaterThan(4096 - 4 - 3);
      expect(text.endsWith('…')).toBe(true);
      expect(text.slice(0, -1)).toBe(unit.repeat(text.slice(0, -1).length / unit.length));
    }
    const exact = 'a'.repeat(4096);
    expect(sanitizeDescription(exact)).toEqual({
      text: exact,
      removedCharacters: 0,
      truncated: false,
    });
    expect(truncateUtf8('a😀', 4)).toBe('a');
    expect(truncateUtf8('a😀', 5)).toBe('a😀');
  });

  it('FD-2: sanitized descriptions are reported through onWarning', () => {
    const warnings: DeclarationWarning[] = [];
    functionDeclarations(
      toolsetOf(tool('t', { description: `x\u200B${'y'.repeat(5000)}` }), tool('u')),
      { onWarning: (warning) => warnings.push(warning) },
    );
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'DESCRIPTION_SANITIZED',
        exposedName: 't',
        removedCharacters: 1,
        truncated: true,
      }),
    ]);
  });

  it('FD-3: parametersJsonSchema is the inputSchema, deep-equal, copied, never mutated', () => {
    const inputSchema = deepFreeze({
      $schema: 'http://json-schema.org/draft-07/schema#',
      ...weatherInput,
      $defs: { unit: { enum: ['C', 'F'] } },
    });
    const toolset = toolsetOf(tool('weather', { inputSchema }));
    const [declaration] = functionDeclarations(toolset);
    expect(declaration?.parametersJsonSchema).toEqual(inputSchema);
    expect(declaration?.parametersJsonSchema).not.toBe(inputSchema);
    expect(declaration).not.toHaveProperty('parameters');
  });

  it('FD-4: openapi mode converts the inputSchema to Gemini Schema under parameters', () => {
    const toolset = toolsetOf(tool('weather', { inputSchema: weatherInput }), tool('ping'));
    const [weather, ping] = functionDeclarations(toolset, { schemaMode: 'openapi' });
    expect(weather).not.toHaveProperty('parametersJsonSchema');
    expect(weather?.parameters).toMatchObject({
      type: 'OBJECT',
      properties: { city: { type: 'STRING', description: 'City name' }, days: { type: 'INTEGER' } },
      required: ['city'],
    });
    expect(ping).toEqual({ name: 'ping', description: '' });
  });

  it('FD-4: openapi conversion losses are reported through onWarning with their path', () => {
    const warnings: DeclarationWarning[] = [];
    functionDeclarations(toolsetOf(tool('weather', { inputSchema: weatherInput })), {
      schemaMode: 'openapi',
      onWarning: (warning) => warnings.push(warning),
    });
    expect(warnings).toContainEqual(
      expect.objectContaining({
        code: 'SCHEMA_DROPPED',
        exposedName: 'weather',
        schema: 'inputSchema',
        warning: expect.objectContaining({ keyword: 'additionalProperties', action: 'dropped' }),
      }),
    );
  });

  it('FD-4, issue 14: a tool whose schema the converter refuses is left out with a warning naming it', () => {
    const inputSchema = {
      type: 'object' as const,
      properties: { x: { $ref: 'https://example.com/remote.json' } },
    };
    const warnings: DeclarationWarning[] = [];
    const { toolset } = buildToolSet([
      { serverId: 'p', tools: [tool('remote', { inputSchema }), tool('fine')] },
    ]);
    const declarations = functionDeclarations(toolset, {
      schemaMode: 'openapi',
      onWarning: (warning) => warnings.push(warning),
    });
    expect(declarations.map((declaration) => declaration.name)).toEqual(['fine']);
    expect(warnings).toContainEqual(
      expect.objectContaining({
        code: 'TOOL_OMITTED',
        exposedName: 'remote',
        error: expect.objectContaining({ code: 'SCHEMA_UNSUPPORTED' }),
        message: expect.stringContaining('Tool "remote"'),
      }),
    );
  });

  it('FD-4: with strict, a schema the converter refuses throws its typed error, naming the tool', () => {
    const inputSchema = {
      type: 'object' as const,
      properties: { x: { $ref: 'https://example.com/remote.json' } },
    };
    let thrown: unknown;
    try {
      functionDeclarations(toolsetOf(tool('remote', { inputSchema })), {
        schemaMode: 'openapi',
        strict: true,
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GeminiMcpError);
    expect(thrown).toMatchObject({ data: { tool: 'remote', schema: 'inputSchema' } });
    expect(['SCHEMA_UNSUPPORTED', 'SCHEMA_TOO_LARGE']).toContain((thrown as GeminiMcpError).code);
    expect((thrown as Error).message).toContain('remote');
  });

  it.each([
    ['json', { responseSchema: true }, 'responseJsonSchema', weatherOutput],
    [
      'openapi',
      { responseSchema: true, schemaMode: 'openapi' },
      'response',
      expect.objectContaining({ type: 'OBJECT', required: ['tempC'] }),
    ],
  ] as const)(
    'FD-5: outputSchema is declared on request (%s mode)',
    (_mode, options, key, want) => {
      const toolset = toolsetOf(
        tool('weather', { inputSchema: weatherInput, outputSchema: weatherOutput }),
        tool('plain'),
      );
      const [weather, plain] = functionDeclarations(toolset, options);
      expect(weather).toHaveProperty(key, want);
      expect(plain).not.toHaveProperty(key);
      const [withoutOption] = functionDeclarations(toolset, { ...options, responseSchema: false });
      expect(withoutOption).not.toHaveProperty(key);
    },
  );

  it.each([
    [
      'json',
      { responseSchema: true },
      'responseJsonSchema',
      { type: 'array', items: { type: 'integer' } },
    ],
    [
      'openapi',
      { responseSchema: true, schemaMode: 'openapi' },
      'response',
      { type: 'ARRAY', items: { type: 'INTEGER' } },
    ],
  ] as const)(
    'issue 11: a non-object outputSchema (MCP 2026-07-28) is kept and declared (%s mode)',
    (_mode, options, key, want) => {
      const primes = {
        name: 'primes',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'array', items: { type: 'integer' } },
      };
      const { toolset, warnings } = buildToolSet([{ serverId: 's', tools: [primes] }]);
      expect(warnings).toEqual([]);
      const [declaration] = functionDeclarations(toolset, options);
      expect((declaration as Record<string, unknown> | undefined)?.[key]).toEqual(want);
      expect(checkFunctionDeclaration(declaration)).toEqual([]);
    },
  );

  it('FD-6: every declaration passes the FunctionDeclaration validator; geminiTools wraps them', () => {
    const toolset = toolsetOf(
      tool('weather', { inputSchema: weatherInput, outputSchema: weatherOutput, description: 'W' }),
      tool('bad name!'),
    );
    for (const schemaMode of ['json', 'openapi'] as const) {
      const declarations = functionDeclarations(toolset, { schemaMode, responseSchema: true });
      for (const declaration of declarations)
        expect(checkFunctionDeclaration(declaration)).toEqual([]);
      const tools = geminiTools(toolset, { schemaMode, responseSchema: true });
      expect(tools).toEqual([{ functionDeclarations: declarations }]);
      expect(checkTool(tools[0])).toEqual([]);
    }
    expect(geminiTools(toolsetOf())).toEqual([]);
  });

  it('FD-6: a value failing its validator throws CONTRACT_VIOLATION naming the tool and pointer', () => {
    const invalid = {
      name: 'ok',
      description: 'x',
      parameters: { type: 'OBJECT' },
      parametersJsonSchema: {},
    };
    expect(() =>
      proveContract(invalid, checkFunctionDeclaration, {
        schema: 'FunctionDeclaration',
        tool: 'ok',
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'CONTRACT_VIOLATION',
        path: expect.any(String),
        data: { schema: 'FunctionDeclaration', tool: 'ok' },
        message: expect.stringContaining('tool "ok"'),
      }),
    );
    const valid = { name: 'ok', description: '' };
    expect(proveContract(valid, checkFunctionDeclaration, { schema: 'FunctionDeclaration' })).toBe(
      valid,
    );
  });
});

const schemaLeaf = fc.oneof(
  fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'null') }),
  fc.record({ enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 1, maxLength: 4 }) }),
  fc.constant({ type: ['string', 'null'] }),
  fc.constant({ $ref: '#/$defs/d' }),
  fc.constant({ type: 'array' }),
  fc.constant({ oneOf: [{ type: 'string' }, { const: 3 }] }),
  fc.jsonValue({ maxDepth: 2 }),
);
const inputSchemaArb = fc.record(
  {
    type: fc.constant('object' as const),
    properties: fc.dictionary(fc.string({ maxLength: 12 }), schemaLeaf, { maxKeys: 5 }),
    required: fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 }),
    additionalProperties: fc.boolean(),
    $defs: fc.constant({ d: { type: 'string' } }),
  },
  { requiredKeys: ['type'] },
);
const toolArb = fc.record(
  {
    name: fc.string({ unit: 'binary', maxLength: 80 }),
    description: fc.string({ unit: 'binary', maxLength: 5000 }),
    inputSchema: inputSchemaArb,
    outputSchema: inputSchemaArb,
  },
  { requiredKeys: ['name', 'inputSchema'] },
);

describe('declaration properties (FD)', () => {
  it('FD-1, FD-2, FD-3, FD-6: any valid tool list gives valid declarations, in set order', () => {
    fc.assert(
      fc.property(fc.array(toolArb, { maxLength: 6 }), fc.boolean(), (tools, responseSchema) => {
        const { toolset } = buildToolSet([{ serverId: 'p', tools }]);
        const declarations = functionDeclarations(toolset, { responseSchema });
        expect(declarations.map((declaration) => declaration.name)).toEqual(
          toolset.entries.map((entry) => entry.exposedName),
        );
        toolset.entries.forEach((entry, index) => {
          const declaration = declarations[index]!;
          expect(checkFunctionDeclaration(declaration)).toEqual([]);
          expect(declaration.parametersJsonSchema).toEqual(entry.tool.inputSchema);
          expect(utf8ByteLength(declaration.description)).toBeLessThanOrEqual(4096);
          expect(declaration.description).not.toMatch(/[\u200B-\u200F\u202A-\u202E\uFEFF]/u);
        });
      }),
      PROPERTY_RUNS,
    );
  });

  it('FD-4, FD-6: in openapi mode any tool list gives valid declarations or a typed schema error', () => {
    fc.assert(
      fc.property(fc.array(toolArb, { maxLength: 4 }), (tools) => {
        const { toolset } = buildToolSet([{ serverId: 'p', tools }]);
        let declarations: ReturnType<typeof functionDeclarations>;
        try {
          declarations = functionDeclarations(toolset, {
            schemaMode: 'openapi',
            responseSchema: true,
            strict: true,
          });
        } catch (error) {
          expect(error).toBeInstanceOf(GeminiMcpError);
          expect(['SCHEMA_UNSUPPORTED', 'SCHEMA_TOO_LARGE']).toContain(
            (error as GeminiMcpError).code,
          );
          return;
        }
        for (const declaration of declarations)
          expect(checkFunctionDeclaration(declaration)).toEqual([]);
      }),
      PROPERTY_RUNS,
    );
  });
});

describe('FD-1: declarations reused (issue 14, item 3)', () => {
  const noisy: McpTool = {
    name: 'noisy',
    description: 'Reads\u200b things',
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  };

  it('FD-1: every call returns fresh, equal declarations; the schemas inside are the frozen copies the tool set owns', () => {
    const toolset = toolsetOf(structuredClone(noisy));
    const first = functionDeclarations(toolset);
    const second = functionDeclarations(toolset);
    expect(second).toEqual(first);
    expect(second[0]).not.toBe(first[0]);
    first[0]!.description = 'changed by the caller';
    expect(functionDeclarations(toolset)[0]?.description).toBe('Reads things');
    const schema = second[0]?.parametersJsonSchema as { properties: Record<string, unknown> };
    expect(Object.isFrozen(schema.properties)).toBe(true);
    expect(() => {
      schema.properties.injected = { type: 'string' };
    }).toThrow(TypeError);
    expect(schema).toBe(toolset.entries[0]?.tool.inputSchema);
  });

  it('FD-1: the tool set snapshots the tools: editing the listed objects afterwards changes nothing declared', () => {
    const listed = structuredClone(noisy);
    const toolset = toolsetOf(listed);
    (listed.inputSchema.properties as Record<string, unknown>).q = { type: 'number' };
    listed.description = 'rewritten';
    expect(functionDeclarations(toolset)[0]).toEqual({
      name: 'noisy',
      description: 'Reads things',
      parametersJsonSchema: { type: 'object', properties: { q: { type: 'string' } } },
    });
  });

  it('FD-2: warnings are reported on every call, not only the first', () => {
    const toolset = toolsetOf(structuredClone(noisy));
    for (let call = 0; call < 2; call++) {
      const warnings: DeclarationWarning[] = [];
      geminiTools(toolset, { onWarning: (warning) => warnings.push(warning) });
      expect(warnings.map((warning) => warning.code)).toEqual(['DESCRIPTION_SANITIZED']);
    }
  });

  it('FD-2, issue 14: the unchecked-pattern warnings, worked out only when listened to, keep their place in tool order', () => {
    const lookahead = { type: 'string', pattern: '^(?!admin)' };
    const toolset = toolsetOf(
      tool('a', {
        description: 'A\u200b',
        inputSchema: { type: 'object', properties: { u: lookahead } },
      }),
      tool('b', { description: 'B\u200b' }),
    );
    functionDeclarations(toolset); // built and cached, nobody listening
    const warnings: DeclarationWarning[] = [];
    functionDeclarations(toolset, { onWarning: (warning) => warnings.push(warning) });
    expect(warnings.map((warning) => `${warning.exposedName}:${warning.code}`)).toEqual([
      'a:SCHEMA_UNCHECKED',
      'a:DESCRIPTION_SANITIZED',
      'b:DESCRIPTION_SANITIZED',
    ]);
  });

  it('FD-4, issue 14: the conversion-loss warnings, made only when listened to, keep their place and text', () => {
    const tools = [
      tool('a', {
        description: 'A\u200b',
        inputSchema: { type: 'object', properties: { t: { type: 'string', title: 'T\u200b' } } },
      }),
      tool('weather', { inputSchema: weatherInput }),
      tool('b', { description: 'B\u200b' }),
    ];
    const listenedFrom = (toolset: ToolSet, first: boolean): DeclarationWarning[] => {
      if (!first) functionDeclarations(toolset, { schemaMode: 'openapi' }); // nobody listening
      const warnings: DeclarationWarning[] = [];
      functionDeclarations(toolset, {
        schemaMode: 'openapi',
        onWarning: (warning) => warnings.push(warning),
      });
      return warnings;
    };
    const listenedLater = listenedFrom(toolsetOf(...structuredClone(tools)), false);
    expect(listenedLater.map((warning) => `${warning.exposedName}:${warning.code}`)).toEqual([
      'a:SCHEMA_SANITIZED',
      'a:DESCRIPTION_SANITIZED',
      'weather:SCHEMA_DROPPED',
      'b:DESCRIPTION_SANITIZED',
    ]);
    expect(listenedLater).toEqual(listenedFrom(toolsetOf(...structuredClone(tools)), true));
  });

  it('FD-2, issue 14: hidden text is looked for once, per schema, as the tool set snapshots it; a schema free of it is shared, the other cleaned and told, in both modes', () => {
    const hiding = tool('hiding', {
      description: 'Reads\u200b things',
      inputSchema: { type: 'object', properties: { q: { type: 'string', title: 'Query ✓' } } },
      outputSchema: {
        type: 'object',
        properties: { r: { type: 'string', title: 'Result\u200b', enum: ['ok\u2060'] } },
      },
    });
    const toolset = toolsetOf(structuredClone(hiding));
    const { inputSchema, outputSchema } = toolset.entries[0]!.tool;
    for (const schemaMode of ['json', 'openapi'] as const) {
      const warnings: DeclarationWarning[] = [];
      const [declared] = functionDeclarations(toolset, {
        schemaMode,
        responseSchema: true,
        onWarning: (warning) => warnings.push(warning),
      });
      expect(
        warnings.map((w) => `${w.code}${w.code === 'SCHEMA_SANITIZED' ? `:${w.schema}` : ''}`),
      ).toEqual(['SCHEMA_SANITIZED:outputSchema', 'DESCRIPTION_SANITIZED']);
      const [hidden] = warnings;
      expect(hidden?.code === 'SCHEMA_SANITIZED' && [...hidden.paths].sort()).toEqual([
        '/properties/r/enum/0',
        '/properties/r/title',
      ]);
      const text = JSON.stringify(declared);
      expect(text).not.toMatch(/[\u200b\u2060]/);
      expect(text).toContain('Query ✓');
      const { parametersJsonSchema, responseJsonSchema, parameters, response } = declared as {
        parametersJsonSchema?: unknown;
        responseJsonSchema?: unknown;
        parameters?: unknown;
        response?: unknown;
      };
      if (schemaMode === 'json') {
        expect(parametersJsonSchema).toBe(inputSchema);
        expect(responseJsonSchema).not.toBe(outputSchema);
        expect(responseJsonSchema).toEqual({
          type: 'object',
          properties: { r: { type: 'string', title: 'Result', enum: ['ok'] } },
        });
      } else {
        expect(response).toEqual({
          type: 'OBJECT',
          properties: { r: { type: 'STRING', title: 'Result', enum: ['ok'] } },
        });
        expect(Object.isFrozen(parameters) && Object.isFrozen(response)).toBe(true);
      }
    }
  });

  it('FD-2, issue 14: a description the tool set found free of hidden text is still capped, and told', () => {
    const long = `Visible ✓ ${'é'.repeat(3000)}`;
    const toolset = toolsetOf(tool('long', { description: long }));
    const warnings: DeclarationWarning[] = [];
    const [declared] = functionDeclarations(toolset, { onWarning: (w) => warnings.push(w) });
    expect(declared?.description).toBe(sanitizeDescription(long).text);
    expect(utf8ByteLength(declared?.description ?? '')).toBeLessThanOrEqual(4096);
    expect(warnings).toMatchObject([
      { code: 'DESCRIPTION_SANITIZED', exposedName: 'long', removedCharacters: 0, truncated: true },
    ]);
  });

  it("FD-2, issue 14: the openapi conversion of a schema free of hidden text is free of it too (why the tool set's finding is not checked again): real tools and generated schemas", () => {
    const corpus = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../bench/corpus/tools.json'), 'utf8'),
    ) as { servers: { tools: { inputSchema: unknown; outputSchema?: unknown }[] }[] };
    // Parameters and schemas: the real tools' inputSchemas, and generated schemas.
    const schemas: unknown[] = [
      ...corpus.servers.flatMap((listed) => listed.tools.map((t) => t.inputSchema)),
      ...fc.sample(anySchemaDocument, { seed: 14, numRuns: 500 }),
      ...fc.sample(typedSchemaDocument, { seed: 14, numRuns: 500 }),
    ];
    let converted = 0;
    for (const schema of schemas) {
      if (frozenSnapshot({ schema }).fieldsWithHiddenText.length > 0) continue;
      let output: unknown;
      try {
        output = (
          typeof schema === 'object' &&
          schema !== null &&
          'type' in schema &&
          schema.type === 'object'
            ? toDeclaredParameters(schema)
            : toDeclaredSchema(schema)
        ).schema;
      } catch {
        continue;
      }
      const scan = sanitizeJsonStrings(output);
      expect(scan.changedStrings + scan.hiddenKeys).toBe(0);
      converted++;
    }
    expect(converted).toBeGreaterThan(2500);
  });

  it('FD-6: openapi declarations are frozen too, and each mode has its own declarations', () => {
    const toolset = toolsetOf(structuredClone(noisy));
    const [openapi] = functionDeclarations(toolset, { schemaMode: 'openapi' });
    const [json] = functionDeclarations(toolset);
    expect(openapi).toHaveProperty('parameters');
    expect(json).toHaveProperty('parametersJsonSchema');
    expect(Object.isFrozen(openapi?.parameters)).toBe(true);
  });
});
