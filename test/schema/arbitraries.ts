/**
 * fast-check arbitraries of JSON Schemas for the generative tests: `anySchemaDocument` uses every
 * keyword the converter meets (draft-4 to 2020-12 forms, refs and recursion, booleans, unknown
 * keywords, odd property names); `typedSchemaDocument` is the subset whose meaning ajv checks in
 * the semantic tests (every node typed, 2020-12 forms only).
 */
import fc from 'fast-check';

const TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'] as const;
const REFS = ['#/$defs/d0', '#/$defs/d1', '#/definitions/e0', '#'] as const;

const small = fc.integer({ min: 0, max: 4 });
const bound = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.double({ min: -5, max: 5, noNaN: true }),
);
const enumValue = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -3, max: 3 }),
  fc.double({ min: -3, max: 3, noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant({ k: 1 }),
  fc.constant([1]),
);

type Model = Record<string, fc.Arbitrary<unknown>>;

/** A record of some of `model`'s keys, always with `required`. */
function some(model: Model, required: string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(model, { requiredKeys: required });
}

/** Keywords that do not hold schemas. */
function scalarKeywords(): Model {
  return {
    minLength: small,
    maxLength: small,
    pattern: fc.constantFrom('^a', '[0-9]', 'b$'),
    minimum: bound,
    maximum: bound,
    exclusiveMinimum: fc.oneof(bound, fc.boolean()),
    exclusiveMaximum: fc.oneof(bound, fc.boolean()),
    multipleOf: fc.constantFrom(1, 2, 0.5),
    enum: fc.array(enumValue, { minLength: 1, maxLength: 4 }),
    const: enumValue,
    minItems: small,
    maxItems: small,
    uniqueItems: fc.boolean(),
    minProperties: small,
    maxProperties: small,
    required: fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 }),
    description: fc.constantFrom('d1', 'd2'),
    title: fc.constantFrom('t1', 't2'),
    default: enumValue,
    examples: fc.array(enumValue, { maxLength: 2 }),
    format: fc.constantFrom('date-time', 'uri', 'email', 'int32', 'float', 'enum'),
    nullable: fc.boolean(),
    $comment: fc.constant('c'),
    readOnly: fc.boolean(),
    'x-vendor': fc.constant(1),
    dependentRequired: fc.constant({ a: ['b'] }),
  };
}

/** Typed leaves, each with keywords of its own type only, so most are satisfiable. */
const typedLeaf: fc.Arbitrary<unknown> = fc.oneof(
  some(
    {
      type: fc.constantFrom('string', ['string', 'null']),
      minLength: fc.integer({ min: 0, max: 2 }),
      maxLength: fc.integer({ min: 2, max: 5 }),
      pattern: fc.constantFrom('^a', '[0-9]', 'b$'),
      enum: fc.uniqueArray(fc.constantFrom('a', 'ab', 'b', '12'), { minLength: 1, maxLength: 3 }),
      const: fc.constantFrom('ab', 'x'),
      description: fc.constant('s'),
    },
    ['type'],
  ),
  fc
    .tuple(
      some(
        {
          type: fc.constantFrom('number', 'integer', ['integer', 'null'], ['number', 'string']),
          minimum: fc.integer({ min: -5, max: 0 }),
          maximum: fc.integer({ min: 1, max: 5 }),
          exclusiveMinimum: fc.oneof(
            fc.integer({ min: -3, max: 0 }),
            fc.double({ min: -6, max: 0, noNaN: true }),
          ),
          exclusiveMaximum: fc.oneof(
            fc.integer({ min: 1, max: 3 }),
            fc.double({ min: 1, max: 6, noNaN: true }),
          ),
        },
        ['type'],
      ),
      fc.oneof(
        { arbitrary: fc.constant({}), weight: 3 },
        fc.record({ multipleOf: fc.constantFrom(1, 2, 0.5) }),
        fc.record({
          enum: fc.uniqueArray(fc.constantFrom(-1, 0, 1, 2, 3, 1.5, 'a', null), {
            minLength: 1,
            maxLength: 4,
          }),
        }),
      ),
    )
    .map(([bounds, extra]) => ({ ...bounds, ...extra })),
  some({ type: fc.constantFrom('boolean', 'null', ['boolean', 'null']), const: fc.boolean() }, [
    'type',
  ]),
);

/** `not`, `if` and `then`, each holding `schema`. */
function conditionals(schema: fc.Arbitrary<unknown>): Model {
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
  return { not: schema, if: schema, then: schema };
}

function schemaArbitrary(typed: boolean): fc.Arbitrary<unknown> {
  const names = typed
    ? fc.constantFrom('a', 'b', 'c')
    : fc.constantFrom('a', 'b', 'c', 'file-path', '__proto__');
  const { schema } = fc.letrec<{ schema: unknown; node: unknown }>((tie) => ({
    schema: typed
      ? tie('node')
      : fc.oneof(
          { maxDepth: 3, depthIdentifier: 'schema' },
          { arbitrary: tie('node'), weight: 6 },
          { arbitrary: fc.boolean(), weight: 1 },
          {
            arbitrary: some({ $ref: fc.constantFrom(...REFS), description: fc.constant('r') }, [
              '$ref',
            ]),
            weight: 2,
          },
        ),
    node: fc.oneof(
      { maxDepth: 3, depthIdentifier: 'schema' },
      typed
        ? typedLeaf
        : some(
            {
              type: fc.oneof(
                fc.constantFrom(...TYPES),
                fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }),
              ),
              ...scalarKeywords(),
            },
            [],
          ),
      some(
        {
          type: fc.constant('object'),
          properties: fc.dictionary(names, tie('schema'), { maxKeys: 3 }),
          required: fc.uniqueArray(names, { maxLength: 3 }),
          additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
          ...(typed
            ? {}
            : {
                patternProperties: fc.dictionary(fc.constant('^x'), tie('schema'), { maxKeys: 1 }),
              }),
        },
        typed ? ['type'] : [],
      ),
      some(
        {
          type: fc.constant('array'),
          items: typed
            ? tie('schema')
            : fc.oneof(tie('schema'), fc.array(tie('schema'), { maxLength: 2 })),
          minItems: fc.integer({ min: 0, max: 1 }),
          maxItems: fc.integer({ min: 1, max: 4 }),
          ...(typed
            ? {}
            : {
                prefixItems: fc.array(tie('schema'), { maxLength: 2 }),
                additionalItems: tie('schema'),
                contains: tie('schema'),
              }),
        },
        typed ? ['type', 'items'] : [],
      ),
      some(
        {
          anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }),
          oneOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }),
          allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }),
          description: fc.constant('u'),
          ...(typed ? {} : conditionals(tie('schema'))),
        },
        typed ? ['anyOf'] : [],
      ),
      ...(typed ? [fc.record({ $ref: fc.constantFrom('#/$defs/d0', '#/$defs/d1') })] : []),
    ),
  }));
  return schema;
}

function documentArbitrary(typed: boolean): fc.Arbitrary<Record<string, unknown>> {
  const schema = schemaArbitrary(typed);
  const leaf = typed ? typedLeaf : schema;
  return fc
    .record({
      root: schema,
      d0: typed ? leaf : schema,
      d1: typed
        ? fc.record({
            type: fc.constant('object'),
            properties: fc.dictionary(fc.constantFrom('a', 'b'), leaf, { maxKeys: 2 }),
          })
        : schema,
      e0: schema,
    })
    .map(({ root, d0, d1, e0 }) => {
      const base =
        typeof root === 'object' && root !== null ? { ...(root as object) } : { allOf: [root] };
      return { ...base, $defs: { d0, d1 }, ...(typed ? {} : { definitions: { e0 } }) };
    });
}

/** Any JSON Schema document: every keyword, refs (recursive ones too), boolean schemas. */
export const anySchemaDocument = documentArbitrary(false);

/** A JSON Schema document whose every node has a `type`, in 2020-12 forms ajv checks exactly. */
export const typedSchemaDocument = documentArbitrary(true);
