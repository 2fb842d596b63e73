/**
 * fast-check arbitraries for hostile input: strings from all of Unicode (lone surrogates, zero
 * width, bidi and tag characters, prototype keys), random JSON Schemas, MCP tools and results,
 * and model turns that mix well-formed and malformed function calls.
 */
import fc from 'fast-check';

/** Names that break code which looks things up in plain objects. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

/** Characters that hide text from a human reader. */
const INVISIBLE = [
  '\u200b',
  '\u200d',
  '\u202e',
  '\u2066',
  '\ufeff',
  '\u{e0041}',
  '\u{e007f}',
  '\ufe0f',
  '\u0000',
  '\u0085',
];

/** Any string: every code point (lone surrogates included), invisibles, prototype keys. */
export const hostileString = (maxLength = 40) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength }) },
    { weight: 2, arbitrary: fc.string({ maxLength }) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
    {
      weight: 2,
      arbitrary: fc
        .array(
          fc.oneof(
            fc.constantFrom(...INVISIBLE),
            fc.string({ maxLength: 4 }),
            fc.constant('\ud800'),
          ),
          {
            maxLength: 12,
          },
        )
        .map((pieces) => pieces.join('')),
    },
  );

/** Any JSON-ish value, NaN and Infinity and null-prototype objects included. */
export const anyValue = fc.anything({
  maxDepth: 3,
  maxKeys: 5,
  withNullPrototype: true,
  withBigInt: false,
  withDate: true,
  withSparseArray: true,
  key: hostileString(8),
});

/** A JSON value (what a schema's `default`, `const` or `examples` should hold). */
const jsonValue = fc.jsonValue({ maxDepth: 2 });

/** Random JSON Schemas: each node holds a few of the keywords the converter knows and some it does not. */
export const jsonSchema: fc.Arbitrary<unknown> = fc.letrec<{ schema: unknown }>((tie) => {
  const child = tie('schema');
  const keyword = fc.oneof(
    fc.tuple(
      fc.constant('type'),
      fc.oneof(
        fc.constantFrom(
          'string',
          'number',
          'integer',
          'boolean',
          'object',
          'array',
          'null',
          'STRING',
          'weird',
        ),
        fc.subarray(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'], {
          minLength: 1,
        }),
      ),
    ),
    fc.tuple(fc.constant('properties'), fc.dictionary(hostileString(10), child, { maxKeys: 3 })),
    fc.tuple(fc.constant('required'), fc.array(hostileString(10), { maxLength: 3 })),
    fc.tuple(fc.constant('items'), fc.oneof(child, fc.array(child, { maxLength: 2 }))),
    fc.tuple(
      fc.constant('enum'),
      fc.array(
        fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean(), fc.constant(null)),
        { maxLength: 4 },
      ),
    ),
    fc.tuple(fc.constant('const'), jsonValue),
    fc.tuple(fc.constantFrom('anyOf', 'oneOf', 'allOf'), fc.array(child, { maxLength: 3 })),
    fc.tuple(
      fc.constantFrom('not', 'if', 'then', 'else', 'contains', 'additionalProperties'),
      child,
    ),
    fc.tuple(
      fc.constant('$ref'),
      fc.constantFrom(
        '#',
        '#/$defs/a',
        '#/$defs/b',
        '#/definitions/a',
        '#/properties/x',
        'http://x/y',
        '#/nowhere',
      ),
    ),
    fc.tuple(
      fc.constantFrom('$defs', 'definitions'),
      fc.record({ a: child, b: child }, { requiredKeys: [] }),
    ),
    fc.tuple(
      fc.constantFrom(
        'minimum',
        'maximum',
        'exclusiveMinimum',
        'exclusiveMaximum',
        'minLength',
        'maxItems',
        'multipleOf',
      ),
      fc.oneof(
        fc.integer({ min: -3, max: 10 }),
        fc.double(),
        fc.boolean(),
        fc.string({ maxLength: 3 }),
      ),
    ),
    fc.tuple(fc.constant('pattern'), fc.constantFrom('^a+$', '[', '(a|b)*')),
    fc.tuple(
      fc.constant('format'),
      fc.constantFrom('date-time', 'enum', 'email', 'uuid', 'int64', 'bogus'),
    ),
    fc.tuple(fc.constantFrom('description', 'title', '$comment'), hostileString(20)),
    fc.tuple(
      fc.constantFrom('default', 'example'),
      fc.oneof({ weight: 5, arbitrary: jsonValue }, { weight: 1, arbitrary: anyValue }),
    ),
    fc.tuple(fc.constant('examples'), fc.array(jsonValue, { maxLength: 2 })),
    fc.tuple(fc.constantFrom('nullable', 'uniqueItems', 'readOnly'), fc.boolean()),
    fc.tuple(fc.constant('$schema'), fc.constant('https://json-schema.org/draft/2020-12/schema')),
  );
  return {
    schema: fc.oneof(
      { maxDepth: 4, depthSize: 'small' },
      fc.boolean(),
      fc.array(keyword, { maxLength: 5 }).map((entries) => Object.fromEntries(entries)),
    ),
  };
}).schema;

/** An MCP tool: mostly valid shapes with hostile names, descriptions and schemas; sometimes junk. */
const mcpTool = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        name: hostileString(80),
        description: hostileString(60),
        inputSchema: fc.record(
          {
            type: fc.constant('object'),
            properties: fc.dictionary(hostileString(10), jsonSchema, { maxKeys: 3 }),
          },
          { requiredKeys: ['type'] },
        ),
        outputSchema: fc.record({
          type: fc.constant('object'),
          properties: fc.dictionary(hostileString(6), jsonSchema, { maxKeys: 2 }),
        }),
      },
      { requiredKeys: ['name', 'inputSchema'] },
    ),
  },
  { weight: 1, arbitrary: anyValue },
);

/** The tool lists of several servers, ids hostile too. */
export const serverList = fc.array(
  fc.record({ serverId: hostileString(20), tools: fc.array(mcpTool, { maxLength: 6 }) }),
  { maxLength: 4 },
);

const base64 = fc.oneof(
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  fc.constantFrom('not base64!', '====', '', 'AA=A'),
);

/** MCP content blocks, valid and broken. */
const contentBlock = fc.oneof(
  fc.record({ type: fc.constant('text'), text: hostileString(200) }),
  fc.record({
    type: fc.constantFrom('image', 'audio'),
    data: base64,
    mimeType: fc.constantFrom('image/png', 'audio/wav', '', 'x'),
  }),
  fc.record(
    {
      type: fc.constant('resource_link'),
      uri: hostileString(20),
      name: hostileString(10),
      mimeType: fc.string(),
      size: fc.integer(),
    },
    { requiredKeys: ['type', 'uri', 'name'] },
  ),
  fc.record({
    type: fc.constant('resource'),
    resource: fc.oneof(
      fc.record({ uri: hostileString(20), text: hostileString(50) }),
      fc.record({ uri: hostileString(20), blob: base64, mimeType: fc.string() }),
    ),
  }),
  anyValue,
);

/** A CallToolResult as a server might send it, or something else entirely. */
export const callToolResult = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        content: fc.array(contentBlock, { maxLength: 5 }),
        structuredContent: fc.oneof(
          fc.dictionary(hostileString(8), anyValue, { maxKeys: 4 }),
          fc.constant({ $ref: '#/x' }),
        ),
        isError: fc.boolean(),
      },
      { requiredKeys: ['content'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({ code: hostileString(10), message: hostileString(40), data: anyValue }),
  },
  { weight: 1, arbitrary: anyValue },
);

/** A model turn: a response, a content or a part list, its calls naming `names` or anything. */
export const modelTurn = (names: readonly string[]) => {
  const functionCall = fc.record(
    {
      name:
        names.length > 0
          ? fc.oneof(fc.constantFrom(...names), hostileString(20))
          : hostileString(20),
      args: fc.oneof(fc.dictionary(hostileString(8), anyValue, { maxKeys: 4 }), anyValue),
      id: fc.oneof(fc.string({ maxLength: 8 }), anyValue),
    },
    { requiredKeys: ['name'] },
  );
  const part = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record(
        { functionCall, thoughtSignature: fc.constant('c2ln') },
        { requiredKeys: ['functionCall'] },
      ),
    },
    { weight: 1, arbitrary: fc.record({ text: hostileString(20) }) },
    { weight: 1, arbitrary: fc.record({ functionCall: anyValue }) },
    { weight: 1, arbitrary: anyValue },
  );
  const parts = fc.array(part, { maxLength: 5 });
  const content = fc.record({
    role: fc.constantFrom('model', 'user', 'x'),
    parts: fc.oneof(parts, anyValue),
  });
  return fc.oneof(
    parts,
    content,
    fc.record({
      candidates: fc.array(
        fc.record(
          {
            content,
            finishReason: fc.constantFrom(
              'STOP',
              'MALFORMED_FUNCTION_CALL',
              'TOO_MANY_TOOL_CALLS',
              'X',
            ),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 2 },
      ),
    }),
    anyValue,
  );
};

/** Patterns that backtrack catastrophically under RegExp, or that RE2 cannot run at all. */
const hostilePattern = fc.constantFrom(
  '^(a+)+$',
  '^(a|aa)+$',
  '(x+x+)+y',
  '^(\\w+\\s?)*$',
  '^(?!admin)',
  '(a)\\1',
  '(?<=a)b',
  '[\\w-.]',
  '[',
  '\\p{L}+',
  '\\u00e9',
);

/** Hidden text: invisible and tag characters around a visible word (what a model still reads). */
const hiddenText = fc
  .array(fc.constantFrom(...INVISIBLE), { minLength: 1, maxLength: 6 })
  .map((chars) => `note${chars.join('')}`);

/**
 * An adversarial server schema and a value that attacks it: a catastrophic or unsupported
 * pattern with the string that triggers it, `uniqueItems` on a large (possibly duplicated or
 * invalid) array, `multipleOf` 0.01, and hidden text in every string the model reads
 * (title, descriptions, enum values, default, examples), nested a few levels down.
 */
export const adversarialSchema = fc
  .record({
    pattern: hostilePattern,
    attackLength: fc.integer({ min: 10, max: 40 }),
    hidden: hiddenText,
    nesting: fc.integer({ min: 0, max: 4 }),
    items: fc.integer({ min: 0, max: 5_000 }),
    itemShape: fc.constantFrom('distinct', 'duplicates', 'invalid'),
    cents: fc.integer({ min: 0, max: 10_000 }),
  })
  .map(({ pattern, attackLength, hidden, nesting, items, itemShape, cents }) => {
    let leaf: Record<string, unknown> = {
      type: 'object',
      title: hidden,
      properties: {
        s: { type: 'string', pattern, description: hidden, default: hidden, examples: [hidden] },
        mode: { type: 'string', enum: ['plain', hidden] },
        list: {
          type: 'array',
          uniqueItems: true,
          items: { anyOf: [{ type: 'number' }, { type: 'object', required: ['id'] }] },
        },
        price: { type: 'number', multipleOf: 0.01 },
      },
    };
    let value: Record<string, unknown> = {
      s: `${'a'.repeat(attackLength)}!`,
      list: Array.from({ length: items }, (_, i) =>
        itemShape === 'distinct' ? i : itemShape === 'duplicates' ? i % 7 : {},
      ),
      price: cents / 100,
    };
    for (let level = 0; level < nesting; level += 1) {
      leaf = { type: 'object', description: hidden, properties: { inner: leaf } };
      value = { inner: value };
    }
    return { schema: leaf, value };
  });

/** A large structuredContent: a long array, a wide object, a deep chain, or a `$ref` far down. */
export const largeStructuredResult = fc
  .record({
    shape: fc.constantFrom('numbers', 'keys', 'deep', 'ref'),
    size: fc.integer({ min: 1_000, max: 150_000 }),
  })
  .map(({ shape, size }) => {
    let structuredContent: Record<string, unknown>;
    if (shape === 'numbers')
      structuredContent = { a: Array.from({ length: size }, (_, i) => i % 10) };
    else if (shape === 'keys') {
      structuredContent = {};
      // Wide objects cost about 5 µs a key in V8's dictionary mode: 30,000 at most here.
      for (let i = 0; i < size / 5; i += 1) structuredContent[`k${i}`] = i % 10;
    } else {
      let nested: unknown = shape === 'ref' ? { $ref: '#/x' } : 0;
      for (let i = 0; i < Math.min(size, 20_000); i += 1) nested = [nested];
      structuredContent = { nested };
    }
    return { content: [], structuredContent };
  });
