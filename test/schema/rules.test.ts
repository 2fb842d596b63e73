/**
 * One table-driven case per conversion rule (SC-1 to SC-8) and per shape users meet in the wild:
 * given a JSON Schema, want this Gemini Schema and exactly these warnings. Every input is deep-
 * frozen (the converter must not mutate it) and every output must pass the vendored validator.
 */
import { describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { checkSchema } from '../../src/generated/guards.js';
import type { Schema } from '../../src/generated/types.js';
import type { SchemaWarning, ToGeminiSchemaOptions } from '../../src/schema/to-gemini-schema.js';
import { toGeminiParameters, toGeminiSchema } from '../../src/schema/to-gemini-schema.js';
import { atPointer, deepFreeze } from './support.js';

type Loss = [path: string, keyword: string, action: SchemaWarning['action']];

interface Case {
  given: unknown;
  want: Schema;
  warnings?: Loss[];
  options?: ToGeminiSchemaOptions;
}

function run(given: unknown, options: ToGeminiSchemaOptions = {}) {
  const input = deepFreeze(structuredClone(given));
  const result = toGeminiSchema(input, options);
  expect(checkSchema(result.schema)).toEqual([]);
  for (const warning of result.warnings) {
    expect(atPointer(input, warning.path), `path ${warning.path} is in the source`).toBeDefined();
    expect(warning.detail.length).toBeGreaterThan(0);
    expect(warning.code).toBe(`SCHEMA_${warning.action.toUpperCase()}`);
    expect(warning.message).toBe(`${warning.keyword} ${warning.action} (${warning.detail})`);
  }
  return result;
}

function table(cases: [string, Case][]): void {
  it.each(cases)('%s', (_name, { given, want, warnings = [], options }) => {
    const result = run(given, options);
    expect(result.schema).toEqual(want);
    expect(result.warnings.map((w) => [w.path, w.keyword, w.action])).toEqual(warnings);
  });
}

const ANY_ITEM: Schema = {
  anyOf: [
    { type: 'STRING', nullable: true },
    { type: 'NUMBER', nullable: true },
    { type: 'BOOLEAN', nullable: true },
    { type: 'OBJECT', nullable: true },
  ],
};

describe('SC-1 types', () => {
  table([
    [
      'SC-1: JSON types map to Gemini types',
      {
        given: {
          type: 'object',
          properties: {
            s: { type: 'string' },
            n: { type: 'number' },
            i: { type: 'integer' },
            b: { type: 'boolean' },
            a: { type: 'array', items: { type: 'string' } },
            o: { type: 'object', properties: { x: { type: 'string' } } },
          },
        },
        want: {
          type: 'OBJECT',
          properties: {
            s: { type: 'STRING' },
            n: { type: 'NUMBER' },
            i: { type: 'INTEGER' },
            b: { type: 'BOOLEAN' },
            a: { type: 'ARRAY', items: { type: 'STRING' } },
            o: { type: 'OBJECT', properties: { x: { type: 'STRING' } } },
          },
          propertyOrdering: ['s', 'n', 'i', 'b', 'a', 'o'],
        },
      },
    ],
    [
      'SC-1: ["T","null"] becomes nullable',
      { given: { type: ['string', 'null'] }, want: { type: 'STRING', nullable: true } },
    ],
    [
      'SC-1: several types become anyOf, each with its own keywords',
      {
        given: { type: ['string', 'integer'], minLength: 2, minimum: 1 },
        want: {
          anyOf: [
            { type: 'STRING', minLength: '2' },
            { type: 'INTEGER', minimum: 1 },
          ],
        },
      },
    ],
    [
      'SC-1: several types with null make every branch nullable',
      {
        given: { type: ['boolean', 'number', 'null'], description: 'd' },
        want: {
          anyOf: [
            { type: 'NUMBER', nullable: true },
            { type: 'BOOLEAN', nullable: true },
          ],
          description: 'd',
        },
      },
    ],
    [
      'SC-1: number and integer intersect to INTEGER',
      {
        given: { allOf: [{ type: 'number' }, { type: ['integer', 'string'] }] },
        want: { type: 'INTEGER' },
      },
    ],
    [
      'SC-1: a missing type is inferred from the keywords',
      {
        given: { properties: { a: { minLength: 1 } } },
        want: { type: 'OBJECT', properties: { a: { type: 'STRING', minLength: '1' } } },
      },
    ],
    ['SC-1: null alone is NULL', { given: { type: 'null' }, want: { type: 'NULL' } }],
    [
      'SC-1: a type whose constraints leave no value drops out, the others stay',
      {
        given: { type: ['integer', 'string', 'null'], minimum: 2, maximum: 1, maxLength: 3 },
        want: { type: 'STRING', maxLength: '3', nullable: true },
      },
    ],
    [
      'SC-1: when only null is left, NULL',
      { given: { type: ['integer', 'null'], minimum: 2, maximum: 1 }, want: { type: 'NULL' } },
    ],
    [
      "SC-1: OpenAPI's nullable: true is honoured",
      { given: { type: 'string', nullable: true }, want: { type: 'STRING', nullable: true } },
    ],
    [
      'SC-1: an unknown type name is reported and ignored',
      {
        given: { type: 'text', minLength: 1 },
        want: { type: 'STRING', minLength: '1' },
        warnings: [['', 'type', 'dropped']],
      },
    ],
  ]);
});

describe('SC-2 references', () => {
  table([
    [
      'SC-2: a $ref into $defs is inlined',
      {
        given: {
          type: 'object',
          properties: { home: { $ref: '#/$defs/Address' }, work: { $ref: '#/$defs/Address' } },
          $defs: {
            Address: {
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
            },
          },
        },
        want: {
          type: 'OBJECT',
          properties: {
            home: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
            work: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
          },
          propertyOrdering: ['home', 'work'],
        },
      },
    ],
    [
      'SC-2: draft-7 definitions, a $defs below the root, escaped and percent-encoded pointers',
      {
        given: {
          type: 'object',
          properties: {
            a: { $ref: '#/definitions/a~1b' },
            b: { $ref: '#/properties/c/$defs/inner' },
            c: { type: 'object', $defs: { inner: { type: 'integer' } } },
            d: { $ref: '#/definitions/with%20space' },
          },
          definitions: { 'a/b': { type: 'boolean' }, 'with space': { type: 'number' } },
        },
        want: {
          type: 'OBJECT',
          properties: {
            a: { type: 'BOOLEAN' },
            b: { type: 'INTEGER' },
            c: { type: 'OBJECT' },
            d: { type: 'NUMBER' },
          },
          propertyOrdering: ['a', 'b', 'c', 'd'],
        },
      },
    ],
    [
      'SC-2: plain-name anchors and the root $id resolve',
      {
        given: {
          $id: 'https://example.com/tool.json',
          type: 'object',
          properties: {
            a: { $ref: '#name' },
            b: { $ref: 'https://example.com/tool.json#/$defs/n' },
          },
          $defs: { s: { $anchor: 'name', type: 'string' }, n: { type: 'number' } },
        },
        want: {
          type: 'OBJECT',
          properties: { a: { type: 'STRING' }, b: { type: 'NUMBER' } },
          propertyOrdering: ['a', 'b'],
        },
      },
    ],
    [
      'SC-2: keywords beside a $ref apply too; both descriptions are kept',
      {
        given: {
          $ref: '#/$defs/Color',
          description: 'The pen colour',
          $defs: { Color: { enum: ['red', 'blue'], description: 'A colour' } },
        },
        want: { type: 'STRING', enum: ['red', 'blue'], description: 'The pen colour\n\nA colour' },
      },
    ],
    [
      'SC-2: recursion is cut at maxRefDepth with a warning naming the cycle',
      {
        options: { maxRefDepth: 1 },
        given: {
          $ref: '#/$defs/Node',
          $defs: {
            Node: {
              type: 'object',
              properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
            },
          },
        },
        want: {
          type: 'OBJECT',
          properties: { children: { type: 'ARRAY', items: { type: 'OBJECT' } } },
        },
        warnings: [['/$defs/Node/properties/children/items', '$ref', 'weakened']],
      },
    ],
    [
      'SC-2: mutual recursion is cut too',
      {
        options: { maxRefDepth: 1 },
        given: {
          $ref: '#/$defs/A',
          $defs: {
            A: { type: 'object', properties: { b: { $ref: '#/$defs/B' } } },
            B: { type: 'object', properties: { a: { $ref: '#/$defs/A' } } },
          },
        },
        want: {
          type: 'OBJECT',
          properties: { b: { type: 'OBJECT', properties: { a: { type: 'OBJECT' } } } },
        },
        warnings: [['/$defs/B/properties/a', '$ref', 'weakened']],
      },
    ],
  ]);

  it('SC-2: the cycle warning names the cycle', () => {
    const { warnings } = run(
      { $ref: '#/$defs/N', $defs: { N: { type: 'array', items: { $ref: '#/$defs/N' } } } },
      { maxRefDepth: 1 },
    );
    expect(warnings[0]?.detail).toContain('#/$defs/N -> #/$defs/N');
  });
});

describe('SC-3 combinators', () => {
  table([
    [
      'SC-3: oneOf of different types becomes anyOf without a warning',
      {
        given: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        want: { anyOf: [{ type: 'STRING' }, { type: 'ARRAY', items: { type: 'STRING' } }] },
      },
    ],
    [
      'SC-3: oneOf with overlapping branches is reported weakened',
      {
        given: {
          oneOf: [
            { type: 'string', minLength: 2 },
            { type: 'string', maxLength: 5 },
          ],
        },
        want: {
          anyOf: [
            { type: 'STRING', minLength: '2' },
            { type: 'STRING', maxLength: '5' },
          ],
        },
        warnings: [['', 'oneOf', 'weakened']],
      },
    ],
    [
      'SC-3: oneOf discriminated by a const property needs no warning',
      {
        given: {
          oneOf: [
            {
              type: 'object',
              properties: { kind: { const: 'circle' }, r: { type: 'number' } },
              required: ['kind', 'r'],
            },
            {
              type: 'object',
              properties: { kind: { const: 'square' }, side: { type: 'number' } },
              required: ['kind', 'side'],
            },
          ],
        },
        want: {
          anyOf: [
            {
              type: 'OBJECT',
              properties: { kind: { type: 'STRING', enum: ['circle'] }, r: { type: 'NUMBER' } },
              propertyOrdering: ['kind', 'r'],
              required: ['kind', 'r'],
            },
            {
              type: 'OBJECT',
              properties: { kind: { type: 'STRING', enum: ['square'] }, side: { type: 'NUMBER' } },
              propertyOrdering: ['kind', 'side'],
              required: ['kind', 'side'],
            },
          ],
        },
      },
    ],
    [
      'SC-3: allOf merges properties, required and bounds',
      {
        given: {
          allOf: [
            { type: 'object', properties: { a: { type: 'integer', minimum: 0 } }, required: ['a'] },
            { properties: { a: { maximum: 9 }, b: { type: 'string' } }, required: ['b'] },
          ],
        },
        want: {
          type: 'OBJECT',
          properties: { a: { type: 'INTEGER', minimum: 0, maximum: 9 }, b: { type: 'STRING' } },
          propertyOrdering: ['a', 'b'],
          required: ['a', 'b'],
        },
      },
    ],
    [
      'SC-3: allOf keeps the tighter of two bounds and the first pattern, reporting the second',
      {
        given: {
          allOf: [
            { type: 'string', maxLength: 9, pattern: '^a' },
            { maxLength: 4, pattern: 'z$' },
          ],
        },
        want: { type: 'STRING', maxLength: '4', pattern: '^a' },
        warnings: [['/allOf/1', 'pattern', 'dropped']],
      },
    ],
    [
      'SC-3: const becomes a one-value enum',
      { given: { const: 'fixed' }, want: { type: 'STRING', enum: ['fixed'] } },
    ],
    [
      'SC-3: anyOf with a null branch becomes nullable (pydantic Optional)',
      {
        given: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Note' },
        want: { type: 'STRING', nullable: true, default: null, title: 'Note' },
      },
    ],
    [
      'SC-3: the siblings of a union are distributed into its branches',
      {
        given: {
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: 'string' } },
          anyOf: [{ required: ['a'] }, { required: ['b'] }],
          description: 'a or b',
        },
        want: {
          anyOf: [
            {
              type: 'OBJECT',
              properties: { a: { type: 'STRING' }, b: { type: 'STRING' } },
              propertyOrdering: ['a', 'b'],
              required: ['a'],
            },
            {
              type: 'OBJECT',
              properties: { a: { type: 'STRING' }, b: { type: 'STRING' } },
              propertyOrdering: ['a', 'b'],
              required: ['b'],
            },
          ],
          description: 'a or b',
        },
      },
    ],
    [
      'SC-3: a branch that accepts nothing disappears',
      {
        given: { type: 'string', anyOf: [{ type: 'integer' }, { minLength: 3 }] },
        want: { type: 'STRING', minLength: '3' },
      },
    ],
  ]);
});

describe('SC-4 kept keywords', () => {
  table([
    [
      'SC-4: description, title, format, enum, lengths, pattern, bounds, counts, default, example and propertyOrdering are kept',
      {
        given: {
          type: 'object',
          title: 'Query',
          description: 'A query',
          minProperties: 1,
          maxProperties: 3,
          properties: {
            when: { type: 'string', format: 'date-time' },
            kind: { type: 'string', enum: ['a', 'b'], default: 'a' },
            word: {
              type: 'string',
              minLength: 1,
              maxLength: 20,
              pattern: '^[a-z]+$',
              examples: ['abc'],
            },
            size: { type: 'integer', format: 'int32', minimum: 1, maximum: 100 },
            ratio: { type: 'number', format: 'double', minimum: 0.5, maximum: 1.5 },
            tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5 },
          },
          required: ['word'],
        },
        want: {
          type: 'OBJECT',
          title: 'Query',
          description: 'A query',
          minProperties: '1',
          maxProperties: '3',
          properties: {
            when: { type: 'STRING', format: 'date-time' },
            kind: { type: 'STRING', enum: ['a', 'b'], default: 'a' },
            word: {
              type: 'STRING',
              minLength: '1',
              maxLength: '20',
              pattern: '^[a-z]+$',
              example: 'abc',
            },
            size: { type: 'INTEGER', format: 'int32', minimum: 1, maximum: 100 },
            ratio: { type: 'NUMBER', format: 'double', minimum: 0.5, maximum: 1.5 },
            tags: { type: 'ARRAY', items: { type: 'STRING' }, minItems: '1', maxItems: '5' },
          },
          propertyOrdering: ['when', 'kind', 'word', 'size', 'ratio', 'tags'],
          required: ['word'],
        },
      },
    ],
    [
      'SC-4: example is the first of examples; the others are reported',
      {
        given: { type: 'string', examples: ['a', 'b'] },
        want: { type: 'STRING', example: 'a' },
        warnings: [['', 'examples', 'weakened']],
      },
    ],
  ]);
});

describe('SC-5 losses are reported', () => {
  table([
    [
      'SC-5: every unsupported keyword is reported once, with its pointer',
      {
        given: {
          type: 'object',
          $comment: 'internal',
          additionalProperties: false,
          patternProperties: { '^x-': { type: 'string' } },
          dependentRequired: { a: ['b'] },
          not: { required: ['c'] },
          if: { required: ['a'] },
          // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
          then: { required: ['b'] },
          'x-vendor': true,
          properties: {
            a: { type: 'number', multipleOf: 0.5, readOnly: true },
            b: {
              type: 'array',
              items: { type: 'string' },
              uniqueItems: true,
              contains: { const: 'x' },
            },
          },
        },
        want: {
          type: 'OBJECT',
          properties: { a: { type: 'NUMBER' }, b: { type: 'ARRAY', items: { type: 'STRING' } } },
          propertyOrdering: ['a', 'b'],
        },
        warnings: [
          ['', '$comment', 'dropped'],
          ['', 'additionalProperties', 'dropped'],
          ['', 'patternProperties', 'dropped'],
          ['', 'dependentRequired', 'dropped'],
          ['', 'not', 'dropped'],
          ['', 'if', 'dropped'],
          ['', 'then', 'dropped'],
          ['', 'x-vendor', 'dropped'],
          ['/properties/a', 'multipleOf', 'dropped'],
          ['/properties/a', 'readOnly', 'dropped'],
          ['/properties/b', 'uniqueItems', 'dropped'],
          ['/properties/b', 'contains', 'dropped'],
        ],
      },
    ],
    [
      'SC-5: a $defs entry inlined twice is reported once, at its own pointer',
      {
        given: {
          type: 'object',
          properties: { a: { $ref: '#/$defs/P' }, b: { $ref: '#/$defs/P' } },
          $defs: { P: { type: 'object', additionalProperties: false } },
        },
        want: {
          type: 'OBJECT',
          properties: { a: { type: 'OBJECT' }, b: { type: 'OBJECT' } },
          propertyOrdering: ['a', 'b'],
        },
        warnings: [['/$defs/P', 'additionalProperties', 'dropped']],
      },
    ],
    [
      'SC-5: keywords that constrain nothing are no loss',
      {
        given: {
          type: 'object',
          additionalProperties: true,
          properties: { a: { type: 'array', items: { type: 'integer' }, uniqueItems: false } },
        },
        want: { type: 'OBJECT', properties: { a: { type: 'ARRAY', items: { type: 'INTEGER' } } } },
      },
    ],
    [
      'SC-5: describeLosses appends a short note of the lost constraints',
      {
        options: { describeLosses: true },
        given: {
          type: 'object',
          description: 'Options',
          additionalProperties: false,
          properties: { n: { type: 'integer', multipleOf: 5 } },
        },
        want: {
          type: 'OBJECT',
          description: 'Options\n\nConstraints not enforced: additionalProperties false.',
          properties: {
            n: { type: 'INTEGER', description: 'Constraints not enforced: multipleOf 5.' },
          },
        },
        warnings: [
          ['', 'additionalProperties', 'dropped'],
          ['/properties/n', 'multipleOf', 'dropped'],
        ],
      },
    ],
    [
      'SC-5: a long note is cut to 57 characters without splitting a surrogate pair',
      {
        options: { describeLosses: true },
        // {"description":" is 16 characters: the emoji's two halves are the 57th and 58th.
        given: {
          type: 'object',
          additionalProperties: { description: `${'x'.repeat(40)}\u{1F600}${'y'.repeat(10)}` },
        },
        want: {
          type: 'OBJECT',
          description: `Constraints not enforced: additionalProperties {"description":"${'x'.repeat(40)}....`,
        },
        warnings: [['', 'additionalProperties', 'dropped']],
      },
    ],
  ]);
});

describe('SC-8 shapes users meet', () => {
  table([
    [
      'SC-8: additionalProperties is dropped with a warning',
      {
        given: {
          type: 'object',
          properties: { a: { type: 'string' } },
          additionalProperties: { type: 'string' },
        },
        want: { type: 'OBJECT', properties: { a: { type: 'STRING' } } },
        warnings: [['', 'additionalProperties', 'dropped']],
      },
    ],
    [
      'SC-8: $schema and $id are removed silently (they constrain nothing)',
      {
        given: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          $id: 'urn:x',
          type: 'object',
          properties: { a: { type: 'string' } },
        },
        want: { type: 'OBJECT', properties: { a: { type: 'STRING' } } },
      },
    ],
    [
      'SC-8: pydantic output ($defs, titles, Optional with default None)',
      {
        given: {
          $defs: { Unit: { enum: ['c', 'f'], title: 'Unit', type: 'string' } },
          properties: {
            city: { title: 'City', type: 'string' },
            unit: { $ref: '#/$defs/Unit', default: 'c' },
            days: {
              anyOf: [{ type: 'integer', maximum: 14, minimum: 1 }, { type: 'null' }],
              default: null,
              title: 'Days',
            },
          },
          required: ['city'],
          title: 'forecastArguments',
          type: 'object',
        },
        want: {
          type: 'OBJECT',
          title: 'forecastArguments',
          properties: {
            city: { type: 'STRING', title: 'City' },
            unit: { type: 'STRING', enum: ['c', 'f'], title: 'Unit', default: 'c' },
            days: {
              type: 'INTEGER',
              minimum: 1,
              maximum: 14,
              nullable: true,
              default: null,
              title: 'Days',
            },
          },
          propertyOrdering: ['city', 'unit', 'days'],
          required: ['city'],
        },
      },
    ],
    [
      'SC-8: zod-to-json-schema output (refs to paths, additionalProperties false)',
      {
        given: {
          type: 'object',
          properties: {
            from: {
              type: 'object',
              properties: { lat: { type: 'number' } },
              required: ['lat'],
              additionalProperties: false,
            },
            to: { $ref: '#/properties/from' },
          },
          required: ['from', 'to'],
          additionalProperties: false,
          $schema: 'http://json-schema.org/draft-07/schema#',
        },
        want: {
          type: 'OBJECT',
          properties: {
            from: { type: 'OBJECT', properties: { lat: { type: 'NUMBER' } }, required: ['lat'] },
            to: { type: 'OBJECT', properties: { lat: { type: 'NUMBER' } }, required: ['lat'] },
          },
          propertyOrdering: ['from', 'to'],
          required: ['from', 'to'],
        },
        warnings: [
          ['', 'additionalProperties', 'dropped'],
          ['/properties/from', 'additionalProperties', 'dropped'],
        ],
      },
    ],
    [
      'SC-8: exclusiveMinimum on an integer becomes minimum n+1, exclusiveMaximum maximum n-1',
      {
        given: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 },
        want: { type: 'INTEGER', minimum: 1, maximum: 9 },
      },
    ],
    [
      'SC-8: draft-4 boolean exclusiveMinimum on an integer too',
      {
        given: {
          type: 'integer',
          minimum: 2.5,
          exclusiveMinimum: true,
          maximum: 7,
          exclusiveMaximum: false,
        },
        want: { type: 'INTEGER', minimum: 3, maximum: 7 },
      },
    ],
    [
      'SC-8: exclusiveMinimum on a number is kept inclusive and reported weakened',
      {
        given: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        want: { type: 'NUMBER', minimum: 0, maximum: 1 },
        warnings: [['', 'exclusiveMinimum', 'weakened']],
      },
    ],
    [
      'SC-8: const inside anyOf becomes one string enum',
      {
        given: { anyOf: [{ const: 'asc' }, { const: 'desc' }, { type: 'null' }] },
        want: { type: 'STRING', enum: ['asc', 'desc'], nullable: true },
      },
    ],
    [
      'SC-8: properties and required on a non-object are dropped with warnings',
      {
        given: { type: 'string', properties: { a: { type: 'string' } }, required: ['a'] },
        want: { type: 'STRING' },
        warnings: [
          ['', 'properties', 'dropped'],
          ['', 'required', 'dropped'],
        ],
      },
    ],
    [
      'SC-8: an array without items gets permissive items',
      {
        given: { type: 'array', minItems: 1 },
        want: { type: 'ARRAY', items: ANY_ITEM, minItems: '1' },
        warnings: [['', 'items', 'rewritten']],
      },
    ],
    [
      'SC-8: an integer enum becomes exact ranges',
      {
        given: { type: 'integer', enum: [1, 2, 3, 7] },
        want: {
          anyOf: [
            { type: 'INTEGER', minimum: 1, maximum: 3 },
            { type: 'INTEGER', minimum: 7, maximum: 7 },
          ],
        },
        warnings: [['', 'enum', 'rewritten']],
      },
    ],
    [
      'SC-8: a mixed enum is split by type',
      {
        given: { enum: ['auto', 0.5, true, false, null] },
        want: {
          anyOf: [
            { type: 'STRING', enum: ['auto'], nullable: true },
            { type: 'NUMBER', minimum: 0.5, maximum: 0.5, nullable: true },
            { type: 'BOOLEAN', nullable: true },
          ],
        },
        warnings: [['', 'enum', 'rewritten']],
      },
    ],
    [
      'SC-8: a single boolean const is weakened to BOOLEAN',
      { given: { const: true }, want: { type: 'BOOLEAN' }, warnings: [['', 'const', 'weakened']] },
    ],
    [
      'SC-8: an object value in an enum is weakened to its type',
      {
        given: { enum: [{ a: 1 }] },
        want: { type: 'OBJECT' },
        warnings: [['', 'enum', 'weakened']],
      },
    ],
    [
      'SC-8: boolean schemas: true accepts anything, a false property is left out, false items allow only []',
      {
        given: {
          type: 'object',
          properties: { any: true, never: false, none: { type: 'array', items: false } },
        },
        want: {
          type: 'OBJECT',
          properties: {
            any: {
              anyOf: [
                { type: 'STRING', nullable: true },
                { type: 'NUMBER', nullable: true },
                { type: 'BOOLEAN', nullable: true },
                { type: 'ARRAY', items: ANY_ITEM, nullable: true },
                { type: 'OBJECT', nullable: true },
              ],
            },
            none: { type: 'ARRAY', items: { type: 'STRING' }, maxItems: '0' },
          },
          propertyOrdering: ['any', 'none'],
        },
        warnings: [
          ['/properties/any', 'type', 'rewritten'],
          ['/properties/never', 'properties', 'dropped'],
        ],
      },
    ],
    [
      'SC-8: formats Gemini does not take are dropped; date-time, int64 and float are kept',
      {
        given: {
          type: 'object',
          properties: {
            url: { type: 'string', format: 'uri' },
            at: { type: 'string', format: 'date-time' },
            id: { type: 'integer', format: 'int64' },
            f: { type: 'number', format: 'float' },
            d: { type: 'integer', format: 'double' },
          },
        },
        want: {
          type: 'OBJECT',
          properties: {
            url: { type: 'STRING' },
            at: { type: 'STRING', format: 'date-time' },
            id: { type: 'INTEGER', format: 'int64' },
            f: { type: 'NUMBER', format: 'float' },
            d: { type: 'INTEGER' },
          },
          propertyOrdering: ['url', 'at', 'id', 'f', 'd'],
        },
        warnings: [
          ['/properties/url', 'format', 'dropped'],
          ['/properties/d', 'format', 'dropped'],
        ],
      },
    ],
    [
      'SC-8: tuples (prefixItems) merge into one items union',
      {
        given: {
          type: 'array',
          prefixItems: [{ type: 'string' }, { type: 'integer' }],
          items: false,
        },
        want: {
          type: 'ARRAY',
          items: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] },
          maxItems: '2',
        },
        warnings: [['', 'prefixItems', 'weakened']],
      },
    ],
    [
      'SC-8: property names Gemini may refuse are reported; __proto__ is an ordinary name',
      {
        given: JSON.parse(
          '{"type":"object","properties":{"file-path":{"type":"string"},"__proto__":{"type":"string"}}}',
        ),
        want: (() => {
          const properties: Record<string, Schema> = {};
          properties['file-path'] = { type: 'STRING' };
          Object.defineProperty(properties, '__proto__', {
            value: { type: 'STRING' },
            enumerable: true,
            writable: true,
            configurable: true,
          });
          return {
            type: 'OBJECT',
            properties,
            propertyOrdering: ['file-path', '__proto__'],
          } as Schema;
        })(),
        warnings: [['/properties/file-path', 'properties', 'weakened']],
      },
    ],
    [
      'SC-8: a required name without a schema is declared as any value',
      {
        given: { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] },
        want: {
          type: 'OBJECT',
          properties: {
            a: { type: 'STRING' },
            b: {
              anyOf: [
                { type: 'STRING', nullable: true },
                { type: 'NUMBER', nullable: true },
                { type: 'BOOLEAN', nullable: true },
                { type: 'ARRAY', items: ANY_ITEM, nullable: true },
                { type: 'OBJECT', nullable: true },
              ],
            },
          },
          propertyOrdering: ['a', 'b'],
          required: ['a', 'b'],
        },
        warnings: [['', 'required', 'rewritten']],
      },
    ],
  ]);
});

describe('SC-8 no-argument tools and parameters', () => {
  it.each([
    [{ type: 'object' }],
    [{ type: 'object', properties: {} }],
    [{ type: 'object', properties: {}, $schema: 'http://json-schema.org/draft-07/schema#' }],
  ])('SC-8: a no-argument tool gets no parameters at all (%j)', (given) => {
    expect(toGeminiParameters(deepFreeze(given))).toEqual({ schema: undefined, warnings: [] });
  });

  it('SC-8: a no-argument tool with a description reports that it is not sent', () => {
    const { schema, warnings } = toGeminiParameters(
      deepFreeze({ type: 'object', description: 'none' }),
    );
    expect(schema).toBeUndefined();
    expect(warnings.map((w) => [w.path, w.keyword, w.action])).toEqual([
      ['', 'description', 'dropped'],
    ]);
  });

  it('SC-8: parameters with properties are the converted schema', () => {
    const given = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    expect(toGeminiParameters(deepFreeze(given)).schema).toEqual({
      type: 'OBJECT',
      properties: { q: { type: 'STRING' } },
      required: ['q'],
    });
  });

  it('SC-8: a root union of objects is merged into one OBJECT, reported weakened', () => {
    const given = {
      type: 'object',
      oneOf: [
        { properties: { id: { type: 'integer' } }, required: ['id'] },
        { properties: { name: { type: 'string' }, id: { type: 'string' } }, required: ['name'] },
      ],
      description: 'By id or by name',
    };
    const { schema, warnings } = toGeminiParameters(deepFreeze(given));
    expect(schema).toEqual({
      type: 'OBJECT',
      properties: {
        id: { anyOf: [{ type: 'INTEGER' }, { type: 'STRING' }] },
        name: { type: 'STRING' },
      },
      propertyOrdering: ['id', 'name'],
      description: 'By id or by name',
    });
    expect(checkSchema(schema)).toEqual([]);
    expect(warnings.map((w) => [w.path, w.keyword, w.action])).toEqual([['', 'oneOf', 'weakened']]);
  });

  it('SC-8: parameters that are not an object schema are refused', () => {
    expect(() => toGeminiParameters({ type: 'string' })).toThrow(
      expect.objectContaining({ code: 'SCHEMA_UNSUPPORTED', path: '' }),
    );
  });
});

describe('bad input is a typed error with a pointer', () => {
  it.each([
    ['not a schema', 42, 'SCHEMA_UNSUPPORTED', ''],
    [
      'a property that is not a schema',
      { properties: { a: 'string' } },
      'SCHEMA_UNSUPPORTED',
      '/properties/a',
    ],
    [
      'a remote $ref',
      { properties: { a: { $ref: 'https://example.com/s.json' } } },
      'SCHEMA_UNSUPPORTED',
      '/properties/a/$ref',
    ],
    [
      'a $ref to nowhere',
      { properties: { a: { $ref: '#/$defs/missing' } } },
      'SCHEMA_UNSUPPORTED',
      '/properties/a/$ref',
    ],
    [
      'a $ref to something that is no schema',
      { $ref: '#/required', required: ['a'] },
      'SCHEMA_UNSUPPORTED',
      '/$ref',
    ],
    ['the false schema', false, 'SCHEMA_UNSUPPORTED', ''],
    [
      'contradicting types',
      { allOf: [{ type: 'string' }, { type: 'integer' }] },
      'SCHEMA_UNSUPPORTED',
      '',
    ],
    [
      'a required property that accepts nothing',
      { type: 'object', properties: { a: false }, required: ['a'] },
      'SCHEMA_UNSUPPORTED',
      '/properties/a',
    ],
    [
      'an integer range with no integer',
      { type: 'integer', minimum: 1.2, maximum: 1.8 },
      'SCHEMA_UNSUPPORTED',
      '',
    ],
    ['a non-JSON value', { type: 'string', default: () => 1 }, 'SCHEMA_UNSUPPORTED', '/default'],
  ])('%s', (_name, given, code, path) => {
    let caught: unknown;
    try {
      toGeminiSchema(typeof given === 'object' && given !== null ? deepFreeze(given) : given);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GeminiMcpError);
    expect(caught).toMatchObject({ code, path });
  });

  it('a key holding undefined (JS-built schemas) is absent, as in JSON', () => {
    const given = {
      type: 'object',
      description: undefined,
      properties: { a: { type: 'string', format: undefined }, b: undefined },
    };
    expect(toGeminiSchema(deepFreeze(given))).toEqual({
      schema: { type: 'OBJECT', properties: { a: { type: 'STRING' } } },
      warnings: [],
    });
  });

  it('invalid options are INVALID_INPUT', () => {
    expect(() => toGeminiSchema({}, { maxDepth: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });
});
