/**
 * What the converter knows about each JSON Schema keyword: which type of value it constrains,
 * whether Gemini's Schema can carry it, and, when it cannot, what the loss is.
 */

/** The JSON types a keyword constrains (a keyword of another type is vacuous). */
export type KeywordTarget = 'string' | 'number' | 'array' | 'object';

/** Annotations: lifted to the node that carries them, never duplicated into branches. */
export const ANNOTATIONS = ['title', 'description', 'default', 'examples', 'example'] as const;

/** {@link ANNOTATIONS} as a set. */
const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set(ANNOTATIONS);

/** Keywords converted (or read) by the converter itself. */
const HANDLED = new Set([
  ...ANNOTATION_KEYWORDS,
  'type',
  'nullable',
  'enum',
  'const',
  'format',
  '$ref',
  'allOf',
  'anyOf',
  'oneOf',
  // identifiers and containers that carry no constraint of their own
  '$schema',
  '$id',
  '$anchor',
  '$defs',
  'definitions',
  '$vocabulary',
]);

/** Type-specific keywords the converter keeps or rewrites, by the type they constrain. */
const TYPED_HANDLED: Readonly<Record<string, KeywordTarget>> = {
  minLength: 'string',
  maxLength: 'string',
  pattern: 'string',
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  items: 'array',
  prefixItems: 'array',
  additionalItems: 'array',
  minItems: 'array',
  maxItems: 'array',
  properties: 'object',
  required: 'object',
  minProperties: 'object',
  maxProperties: 'object',
};

/** A keyword Gemini's Schema cannot carry: what it constrains and what is lost without it. */
interface Unsupported {
  readonly target?: KeywordTarget;
  readonly loss: string;
}

const UNSUPPORTED: Readonly<Record<string, Unsupported>> = {
  multipleOf: { target: 'number', loss: 'values need not be multiples' },
  uniqueItems: { target: 'array', loss: 'items need not be unique' },
  contains: { target: 'array', loss: 'no item is required to match contains' },
  minContains: { target: 'array', loss: 'contains counts are not enforced' },
  maxContains: { target: 'array', loss: 'contains counts are not enforced' },
  unevaluatedItems: { target: 'array', loss: 'extra items are not constrained' },
  additionalProperties: { target: 'object', loss: 'extra properties are not constrained' },
  patternProperties: { target: 'object', loss: 'properties matching patterns are not constrained' },
  propertyNames: { target: 'object', loss: 'property names are not constrained' },
  unevaluatedProperties: { target: 'object', loss: 'extra properties are not constrained' },
  dependentRequired: {
    target: 'object',
    loss: 'conditionally required properties are not required',
  },
  dependentSchemas: { target: 'object', loss: 'conditional schemas are not applied' },
  dependencies: { target: 'object', loss: 'property dependencies are not applied' },
  contentEncoding: { target: 'string', loss: 'the encoding is not declared' },
  contentMediaType: { target: 'string', loss: 'the media type is not declared' },
  contentSchema: { target: 'string', loss: 'the content schema is not applied' },
  not: { loss: 'the excluded values are accepted' },
  if: { loss: 'the conditional schema is not applied' },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
  then: { loss: 'the conditional schema is not applied' },
  else: { loss: 'the conditional schema is not applied' },
  $comment: { loss: 'the comment is not sent' },
  readOnly: { loss: 'the value is not marked read-only' },
  writeOnly: { loss: 'the value is not marked write-only' },
  deprecated: { loss: 'the value is not marked deprecated' },
  $dynamicAnchor: { loss: 'dynamic scope is not supported' },
  $recursiveAnchor: { loss: 'dynamic scope is not supported' },
};

/** How the converter treats one keyword. */
export type KeywordKind =
  | { readonly kind: 'handled'; readonly target?: KeywordTarget }
  | { readonly kind: 'unsupported'; readonly target?: KeywordTarget; readonly loss: string }
  | { readonly kind: 'unknown' };

/** Classifies `keyword`. */
export function classifyKeyword(keyword: string): KeywordKind {
  if (HANDLED.has(keyword)) return { kind: 'handled' };
  const target = TYPED_HANDLED[keyword];
  if (target !== undefined && Object.hasOwn(TYPED_HANDLED, keyword))
    return { kind: 'handled', target };
  if (Object.hasOwn(UNSUPPORTED, keyword)) {
    const entry = UNSUPPORTED[keyword] as Unsupported;
    return entry.target === undefined
      ? { kind: 'unsupported', loss: entry.loss }
      : { kind: 'unsupported', target: entry.target, loss: entry.loss };
  }
  return { kind: 'unknown' };
}

/** Formats Gemini acts on, by the Gemini type that takes them; any other format is dropped. */
export const ACCEPTED_FORMATS: Readonly<Record<string, readonly string[]>> = {
  STRING: ['enum', 'date-time'],
  NUMBER: ['float', 'double'],
  INTEGER: ['int32', 'int64'],
};

/** Property names Gemini accepts, per its reference: letters, digits and `_`, at most 64. */
export const GEMINI_PROPERTY_NAME = /^[A-Za-z0-9_]{1,64}$/;
