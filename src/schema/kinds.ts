/**
 * JSON Schema types as sets of value kinds, so `type` keywords intersect exactly (`number`
 * holds `integer`), and their mapping onto Gemini's `Type` enum.
 */
import type { Schema } from '../generated/types.js';
import type { KeywordTarget } from './keywords.js';

/** A kind of JSON value; `number` is `integer` plus `fraction`. */
export type Kind = 'string' | 'integer' | 'fraction' | 'boolean' | 'array' | 'object' | 'null';

/** Gemini's types of non-null values (null is `nullable`, or `NULL` alone). */
export type GeminiType = Exclude<NonNullable<Schema['type']>, 'TYPE_UNSPECIFIED' | 'NULL'>;

/** Every kind: what a schema without `type` allows. */
export const ALL_KINDS: ReadonlySet<Kind> = new Set<Kind>([
  'string',
  'integer',
  'fraction',
  'boolean',
  'array',
  'object',
  'null',
]);

const TYPE_KINDS: Readonly<Record<string, readonly Kind[]>> = {
  string: ['string'],
  integer: ['integer'],
  number: ['integer', 'fraction'],
  boolean: ['boolean'],
  array: ['array'],
  object: ['object'],
  null: ['null'],
};

/** The kinds a `type` keyword allows, or `undefined` when it is not a valid `type`. */
export function kindsOfType(type: unknown): Set<Kind> | undefined {
  const names = Array.isArray(type) ? type : [type];
  if (names.length === 0) return undefined;
  const kinds = new Set<Kind>();
  for (const name of names) {
    if (typeof name !== 'string' || !Object.hasOwn(TYPE_KINDS, name)) return undefined;
    for (const kind of TYPE_KINDS[name] ?? []) kinds.add(kind);
  }
  return kinds;
}

/** The kinds a type-specific keyword constrains. */
export function kindsOfTarget(target: KeywordTarget): readonly Kind[] {
  return target === 'number' ? ['integer', 'fraction'] : [target];
}

/** The kind of a JSON value. */
export function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'fraction';
    case 'boolean':
      return 'boolean';
    default:
      return 'object';
  }
}

/** `a` ∩ `b`. */
export function intersect(a: ReadonlySet<Kind>, b: ReadonlySet<Kind>): Set<Kind> {
  return new Set([...a].filter((kind) => b.has(kind)));
}

/** The Gemini types that together accept exactly the non-null `kinds`, in a fixed order. */
export function geminiTypes(kinds: ReadonlySet<Kind>): GeminiType[] {
  const out: GeminiType[] = [];
  if (kinds.has('string')) out.push('STRING');
  if (kinds.has('fraction')) out.push('NUMBER');
  else if (kinds.has('integer')) out.push('INTEGER');
  if (kinds.has('boolean')) out.push('BOOLEAN');
  if (kinds.has('array')) out.push('ARRAY');
  if (kinds.has('object')) out.push('OBJECT');
  return out;
}

/** Kind names for messages (`integer`, `number`, ...). */
export function describeKinds(kinds: ReadonlySet<Kind>): string {
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
