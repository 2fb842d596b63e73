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

/** Every known keyword's {@link KeywordKind}, worked out once (the results are shared). */
const KEYWORD_KINDS: ReadonlyMap<string, KeywordKind> = new Map<string, KeywordKind>([
  ...[...HANDLED].map((keyword): [string, KeywordKind] => [keyword, { kind: 'handled' }]),
  ...Object.entries(TYPED_HANDLED).map(([keyword, target]): [string, KeywordKind] => [
    keyword,
    { kind: 'handled', target },
  ]),
  ...Object.entries(UNSUPPORTED).map(([keyword, entry]): [string, KeywordKind] => [
    keyword,
    entry.target === undefined
      ? { kind: 'unsupported', loss: entry.loss }
      : { kind: 'unsupported', target: entry.target, loss: entry.loss },
  ]),
]);

const UNKNOWN_KEYWORD: KeywordKind = { kind: 'unknown' };

/** Classifies `keyword`. */
export function classifyKeyword(keyword: string): KeywordKind {
  return KEYWORD_KINDS.get(keyword) ?? UNKNOWN_KEYWORD;
}

/** Formats Gemini acts on, by the Gemini type that takes them; any other format is dropped. */
export const ACCEPTED_FORMATS: Readonly<Record<string, readonly string[]>> = {
  STRING: ['enum', 'date-time'],
  NUMBER: ['float', 'double'],
  INTEGER: ['int32', 'int64'],
};

/** Property names Gemini accepts, per its reference: letters, digits and `_`, at most 64. */
export const GEMINI_PROPERTY_NAME = /^[A-Za-z0-9_]{1,64}$/;

/** Whether {@link GEMINI_PROPERTY_NAME} matches `name` (tested by character: run per property). */
export function isGeminiPropertyName(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    // 0-9, A-Z, _, a-z
    if (
      !(
        (code >= 48 && code <= 57) ||
        (code >= 65 && code <= 90) ||
        code === 95 ||
        (code >= 97 && code <= 122)
      )
    )
      return false;
  }
  return true;
}

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

/** The kinds of each JSON Schema type name. */
const TYPE_NAME_KINDS: ReadonlyMap<string, Kinds> = new Map(
  Object.entries(TYPE_KINDS).map(([name, kinds]) => [
    name,
    kinds.reduce<Kinds>((mask, kind) => mask | KIND[kind], 0),
  ]),
);

/** The kinds a `type` keyword allows, or `undefined` when it is not a valid `type`. */
export function kindsOfType(type: unknown): Kinds | undefined {
  if (typeof type === 'string') return TYPE_NAME_KINDS.get(type);
  if (!Array.isArray(type) || type.length === 0) return undefined;
  let kinds = 0;
  // By index: the list may be frozen (a tool set's snapshot), where iterating allocates.
  for (let i = 0; i < type.length; i++) {
    const name: unknown = type[i];
    const named = typeof name === 'string' ? TYPE_NAME_KINDS.get(name) : undefined;
    if (named === undefined) return undefined;
    kinds |= named;
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

/** {@link geminiTypes} of every set of kinds, worked out once (the lists are shared). */
const GEMINI_TYPES: readonly (readonly GeminiType[])[] = Array.from(
  { length: ALL_KINDS + 1 },
  (_, kinds) => {
    const out: GeminiType[] = [];
    if (kinds & KIND.string) out.push('STRING');
    if (kinds & KIND.fraction) out.push('NUMBER');
    else if (kinds & KIND.integer) out.push('INTEGER');
    if (kinds & KIND.boolean) out.push('BOOLEAN');
    if (kinds & KIND.array) out.push('ARRAY');
    if (kinds & KIND.object) out.push('OBJECT');
    return Object.freeze(out);
  },
);

/** The Gemini types that together accept exactly the non-null `kinds`, in a fixed order. */
export function geminiTypes(kinds: Kinds): readonly GeminiType[] {
  return GEMINI_TYPES[kinds & ALL_KINDS] as readonly GeminiType[];
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
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      // As `join` writes them: nothing for a hole or a value JSON cannot write.
      out += canonicalJson(value[i]) ?? '';
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (i > 0) out += ',';
    out += `${JSON.stringify(key)}:${canonicalJson(record[key])}`;
  }
  return `${out}}`;
}

/**
 * Whether the JSON values `a` and `b` have the same {@link canonicalJson} text, compared without
 * writing it: the first difference ends the walk. (JSON values: arrays hold no `undefined`, which
 * the survey refuses in a source and the converter never writes.)
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const objectA = a !== null && typeof a === 'object';
  const objectB = b !== null && typeof b === 'object';
  if (!objectA || !objectB) return !objectA && !objectB && JSON.stringify(a) === JSON.stringify(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (!jsonEqual(a[i], b[i])) return false;
    }
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(right, key) || !jsonEqual(left[key], right[key])) return false;
  }
  return true;
}

// Conjunctions.

/**
 * The keywords the converter reads by name, one bit each: a {@link Conjunct} says in one mask
 * which of them it holds, so a keyword it lacks costs no lookup in its node. (Bit 31 makes a mask
 * negative: masks are only ever tested with `&`.)
 */
export const KW = {
  $ref: 1 << 0,
  $dynamicRef: 1 << 1,
  $recursiveRef: 1 << 2,
  allOf: 1 << 3,
  anyOf: 1 << 4,
  oneOf: 1 << 5,
  title: 1 << 6,
  description: 1 << 7,
  default: 1 << 8,
  examples: 1 << 9,
  example: 1 << 10,
  type: 1 << 11,
  nullable: 1 << 12,
  enum: 1 << 13,
  const: 1 << 14,
  format: 1 << 15,
  items: 1 << 16,
  prefixItems: 1 << 17,
  additionalItems: 1 << 18,
  minItems: 1 << 19,
  maxItems: 1 << 20,
  properties: 1 << 21,
  required: 1 << 22,
  minProperties: 1 << 23,
  maxProperties: 1 << 24,
  minLength: 1 << 25,
  maxLength: 1 << 26,
  pattern: 1 << 27,
  minimum: 1 << 28,
  maximum: 1 << 29,
  exclusiveMinimum: 1 << 30,
  exclusiveMaximum: 1 << 31,
} as const;

/** A keyword of {@link KW}. */
export type Keyword = keyof typeof KW;

/** The mask of `keywords`. */
export function keywordMask(keywords: readonly Keyword[]): number {
  let mask = 0;
  for (const keyword of keywords) mask |= KW[keyword];
  return mask;
}

/** The keywords of {@link KW} by name. */
const KEYWORD_BITS: ReadonlyMap<string, number> = new Map(Object.entries(KW));

/** The type-specific keywords of {@link KW} that constrain `target` values. */
function typedKeys(target: KeywordTarget): number {
  return keywordMask(
    (Object.keys(TYPED_HANDLED) as Keyword[]).filter(
      (keyword) => TYPED_HANDLED[keyword] === target,
    ),
  );
}

const STRING_KEYS = typedKeys('string');
const NUMBER_KEYS = typedKeys('number');
const ARRAY_KEYS = typedKeys('array');
const OBJECT_KEYS = typedKeys('object');
const TYPED_KEYS = STRING_KEYS | NUMBER_KEYS | ARRAY_KEYS | OBJECT_KEYS;
const NUMBER_KINDS = KIND.integer | KIND.fraction;

/** The kinds the type-specific keywords of {@link KW} in the mask `keys` constrain. */
function typedKinds(keys: number): Kinds {
  if ((keys & TYPED_KEYS) === 0) return 0;
  let kinds = 0;
  if ((keys & STRING_KEYS) !== 0) kinds |= KIND.string;
  if ((keys & NUMBER_KEYS) !== 0) kinds |= NUMBER_KINDS;
  if ((keys & ARRAY_KEYS) !== 0) kinds |= KIND.array;
  if ((keys & OBJECT_KEYS) !== 0) kinds |= KIND.object;
  return kinds;
}

/** {@link Conjunct.extra}: some keyword outside {@link KW} may have to be reported. */
const OTHER_KEYWORDS = 128;

/**
 * What a keyword outside {@link KW} adds to {@link Conjunct.extra}: the kinds an unsupported
 * keyword constrains and {@link OTHER_KEYWORDS}, nothing for a handled one (`$defs`, `$id`, ...).
 * A keyword not listed is unknown: {@link OTHER_KEYWORDS}.
 */
const OTHER_EXTRA: ReadonlyMap<string, number> = new Map(
  [...KEYWORD_KINDS]
    .filter(([keyword]) => !KEYWORD_BITS.has(keyword))
    .map(([keyword, entry]): [string, number] => [
      keyword,
      entry.kind === 'handled'
        ? 0
        : OTHER_KEYWORDS |
          (entry.kind === 'unsupported' && entry.target !== undefined
            ? kindsOfTarget(entry.target)
            : 0),
    ]),
);

/**
 * One source schema (object or boolean) taking part in a conjunction, its keywords classified
 * once ({@link conjunct}).
 */
export interface Conjunct {
  /** The source schema. */
  readonly node: unknown;
  /** Its JSON pointer in the source. */
  readonly pointer: string;
  /** The `$ref` targets (canonical pointers) expanded on the way here, outermost first. */
  readonly refs: readonly string[];
  /** The keywords of {@link KW} still to read (present, not `undefined`, not ignored). */
  readonly keys: number;
  /**
   * The kinds the unsupported keywords outside {@link KW} constrain, with
   * {@link OTHER_KEYWORDS} when a keyword outside {@link KW} may have to be reported; `0` when
   * only the keywords of {@link keys} are read.
   */
  readonly extra: number;
  /** Pointers of the branches of a synthetic `anyOf` node (a tuple turned into a union). */
  readonly branchPointers: readonly string[] | undefined;
}

/** The conjunct of `node` at `pointer`, its keywords classified in one pass over its own keys. */
export function conjunct(
  node: unknown,
  pointer: string,
  refs: readonly string[],
  branchPointers?: readonly string[],
): Conjunct {
  let keys = 0;
  let extra = 0;
  if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    for (const keyword in record) {
      if (!Object.hasOwn(record, keyword) || record[keyword] === undefined) continue;
      const bit = KEYWORD_BITS.get(keyword);
      if (bit !== undefined) keys |= bit;
      else extra |= OTHER_EXTRA.get(keyword) ?? OTHER_KEYWORDS;
    }
  }
  return { node, pointer, refs, keys, extra, branchPointers };
}

/** The value of `keyword` in `conjunct`, unless the conjunct ignores it or lacks it. */
export function read(conjunct: Conjunct, keyword: Keyword): unknown {
  return (conjunct.keys & KW[keyword]) === 0
    ? undefined
    : (conjunct.node as Record<string, unknown>)[keyword];
}

/**
 * Whether `keyword`, an own key of the object `conjunct`, is still to read: present (not
 * `undefined`) and not ignored. (The keywords of a conjunct, in source order, are its own keys
 * that are.)
 */
export function pending(conjunct: Conjunct, keyword: string): boolean {
  if ((conjunct.node as Record<string, unknown>)[keyword] === undefined) return false;
  const bit = KEYWORD_BITS.get(keyword);
  return bit === undefined ? conjunct.extra !== 0 : (conjunct.keys & bit) !== 0;
}

/** The kinds the type-specific keywords of `conjunct` constrain (`0`: none). */
export function targetKinds(conjunct: Conjunct): Kinds {
  return (conjunct.extra & ALL_KINDS) | typedKinds(conjunct.keys);
}

/**
 * Whether `conjunct` may hold a keyword to report: one outside {@link KW} that is not simply
 * handled, or a type-specific one its own type `own` excludes.
 */
export function mayLose(conjunct: Conjunct, own: Kinds | undefined): boolean {
  if ((conjunct.extra & OTHER_KEYWORDS) !== 0) return true;
  if (own === undefined || (conjunct.keys & TYPED_KEYS) === 0) return false;
  const kinds = typedKinds(conjunct.keys);
  // Some group of keywords present whose kinds `own` excludes entirely.
  return (
    ((kinds & KIND.string) !== 0 && (own & KIND.string) === 0) ||
    ((kinds & NUMBER_KINDS) !== 0 && (own & NUMBER_KINDS) === 0) ||
    ((kinds & KIND.array) !== 0 && (own & KIND.array) === 0) ||
    ((kinds & KIND.object) !== 0 && (own & KIND.object) === 0)
  );
}

/** `conjunct` with the keywords of the mask `more` ignored as well. */
export function without(conjunct: Conjunct, more: number): Conjunct {
  return { ...conjunct, keys: conjunct.keys & ~more };
}

/** `conjunct` with only the keywords of the mask `kept` read. */
export function only(conjunct: Conjunct, kept: number): Conjunct {
  return { ...conjunct, keys: conjunct.keys & kept, extra: 0 };
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
