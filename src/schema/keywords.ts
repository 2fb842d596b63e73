/**
 * What the converter knows of JSON Schema keywords and values: which type of value each keyword
 * constrains and whether Gemini's Schema can carry it; JSON types as sets of value kinds; and the
 * converter's unit of work, the {@link Conjunct}: one source schema of a conjunction that must all
 * hold at one place of the output (`$ref` targets, `allOf` branches and a union's siblings all
 * become conjuncts of one conjunction, each keeping its own JSON pointer into the source).
 */
import type { Schema } from '../generated/types.js';

/** The JSON types a keyword constrains (a keyword of another type is vacuous). */
type KeywordTarget = 'string' | 'number' | 'array' | 'object';

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
type KeywordKind =
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

// JSON Schema types as sets of value kinds (bit masks), so `type` keywords intersect exactly
// (`number` holds `integer`), and their mapping onto Gemini's `Type` enum.

/** A set of kinds of JSON value, one bit each; `number` is `integer` plus `fraction`. */
export type Kinds = number;

/** One bit per kind of JSON value. */
export const KIND = {
  string: 1,
  integer: 2,
  fraction: 4,
  boolean: 8,
  array: 16,
  object: 32,
  null: 64,
} as const;

/** Gemini's types of non-null values (null is `nullable`, or `NULL` alone). */
export type GeminiType = Exclude<NonNullable<Schema['type']>, 'TYPE_UNSPECIFIED' | 'NULL'>;

/** Every kind: what a schema without `type` allows. */
export const ALL_KINDS: Kinds = 127;

/** The kinds of each JSON Schema type name, in order. */
const TYPE_KINDS: Readonly<Record<string, readonly (keyof typeof KIND)[]>> = {
  string: ['string'],
  integer: ['integer'],
  number: ['integer', 'fraction'],
  boolean: ['boolean'],
  array: ['array'],
  object: ['object'],
  null: ['null'],
};

/** The kinds a `type` keyword allows, or `undefined` when it is not a valid `type`. */
export function kindsOfType(type: unknown): Kinds | undefined {
  const names = Array.isArray(type) ? type : [type];
  if (names.length === 0) return undefined;
  let kinds = 0;
  for (const name of names) {
    if (typeof name !== 'string' || !Object.hasOwn(TYPE_KINDS, name)) return undefined;
    for (const kind of TYPE_KINDS[name] ?? []) kinds |= KIND[kind];
  }
  return kinds;
}

/** The kinds a type-specific keyword constrains. */
export function kindsOfTarget(target: KeywordTarget): Kinds {
  return target === 'number' ? KIND.integer | KIND.fraction : KIND[target];
}

/** The kind of a JSON value. */
export function kindOf(value: unknown): Kinds {
  if (value === null) return KIND.null;
  if (Array.isArray(value)) return KIND.array;
  switch (typeof value) {
    case 'string':
      return KIND.string;
    case 'number':
      return Number.isInteger(value) ? KIND.integer : KIND.fraction;
    case 'boolean':
      return KIND.boolean;
    default:
      return KIND.object;
  }
}

/** The Gemini types that together accept exactly the non-null `kinds`, in a fixed order. */
export function geminiTypes(kinds: Kinds): GeminiType[] {
  const out: GeminiType[] = [];
  if (kinds & KIND.string) out.push('STRING');
  if (kinds & KIND.fraction) out.push('NUMBER');
  else if (kinds & KIND.integer) out.push('INTEGER');
  if (kinds & KIND.boolean) out.push('BOOLEAN');
  if (kinds & KIND.array) out.push('ARRAY');
  if (kinds & KIND.object) out.push('OBJECT');
  return out;
}

/** The kinds a valid `type` keyword (and `nullable`) names, for messages (`integer`, `number`, ...). */
export function describeType(type: unknown, nullable: boolean): string {
  const kinds = new Set<string>();
  for (const name of Array.isArray(type) ? type : [type]) {
    for (const kind of TYPE_KINDS[name as string] ?? []) kinds.add(kind);
  }
  if (nullable) kinds.add('null');
  const names = [...kinds].map((kind) => (kind === 'fraction' ? 'number' : kind));
  if (kinds.has('fraction') && kinds.has('integer')) names.splice(names.indexOf('integer'), 1);
  return [...new Set(names)].join(' or ');
}

/** A canonical JSON text (sorted keys) for comparing JSON values. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// Conjunctions.

/** One source schema (object or boolean) taking conjunct in a conjunction. */
export interface Conjunct {
  /** The source schema. */
  readonly node: unknown;
  /** Its JSON pointer in the source. */
  readonly pointer: string;
  /** The `$ref` targets (canonical pointers) expanded on the way here, outermost first. */
  readonly refs: readonly string[];
  /** Keywords of `node` to ignore (already applied elsewhere), as a {@link skipMask}. */
  readonly skip?: number;
  /** When set, the only keywords of `node` to read. */
  readonly only?: ReadonlySet<string>;
  /** Pointers of the branches of a synthetic `anyOf` node (a tuple turned into a union). */
  readonly branchPointers?: readonly string[];
}

/** The value of `keyword` in `conjunct`, unless the conjunct ignores it or lacks it. */
export function read(conjunct: Conjunct, keyword: string): unknown {
  const node = conjunct.node;
  if (node === null || typeof node !== 'object' || !Object.hasOwn(node, keyword)) return undefined;
  if (skips(conjunct, keyword)) return undefined;
  return (node as Record<string, unknown>)[keyword];
}

/** The keywords of `conjunct` still to read, in source order (a keyword holding `undefined` is absent). */
export function keywordsOf(conjunct: Conjunct): string[] {
  const node = conjunct.node;
  if (node === null || typeof node !== 'object') return [];
  const record = node as Record<string, unknown>;
  const out: string[] = [];
  for (const keyword of Object.keys(record)) {
    if (record[keyword] !== undefined && !skips(conjunct, keyword)) out.push(keyword);
  }
  return out;
}

/** The keywords a conjunct can be told to ignore. */
const SKIPPABLE_KEYWORDS = [
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'allOf',
  'anyOf',
  'oneOf',
  ...ANNOTATIONS,
] as const;

/** A keyword a conjunct can be told to ignore. */
type SkippableKeyword = (typeof SKIPPABLE_KEYWORDS)[number];

/** One bit per skippable keyword. */
const SKIPPABLE: ReadonlyMap<string, number> = new Map(
  SKIPPABLE_KEYWORDS.map((keyword, i) => [keyword, 1 << i]),
);

/** The mask of `keywords` for {@link without}. */
export function skipMask(keywords: readonly SkippableKeyword[]): number {
  return keywords.reduce((mask, keyword) => mask | (SKIPPABLE.get(keyword) ?? 0), 0);
}

function skips(conjunct: Conjunct, keyword: string): boolean {
  if (conjunct.only !== undefined && !conjunct.only.has(keyword)) return true;
  if (conjunct.skip === undefined) return false;
  const bit = SKIPPABLE.get(keyword);
  return bit !== undefined && (conjunct.skip & bit) !== 0;
}

/** `conjunct` with the keywords of the mask `more` ignored as well. */
export function without(conjunct: Conjunct, more: number): Conjunct {
  return { ...conjunct, skip: (conjunct.skip ?? 0) | more };
}

/** Raised inside the converter when a conjunction accepts no value at all. */
export class Unsatisfiable extends Error {
  readonly pointer: string;

  constructor(pointer: string, reason: string) {
    super(reason);
    this.name = 'Unsatisfiable';
    this.pointer = pointer;
  }
}
