/**
 * A conjunction without unions: its `type`s intersected (or inferred from its keywords), its
 * `enum`/`const` intersected, every keyword checked (unknown, unsupported or vacuous for the
 * declared type), then one node per Gemini type, joined by `anyOf` when there are several.
 */
import type { Schema } from '../generated/types.js';
import { buildArray } from './arrays.js';
import type { Scope } from './context.js';
import { classifyKeyword } from './keywords.js';
import type { GeminiType, Kind } from './kinds.js';
import {
  ALL_KINDS,
  canonicalJson,
  describeKinds,
  geminiTypes,
  intersect,
  kindOf,
  kindsOfTarget,
  kindsOfType,
} from './kinds.js';
import { buildObject } from './objects.js';
import type { Part } from './parts.js';
import { isObject, keywords, read, Unsatisfiable } from './parts.js';
import type { EnumIssues } from './scalars.js';
import { buildBoolean, buildNumber, buildString, readFormat } from './scalars.js';
import { markNullable } from './unions.js';

/** The node (or `anyOf` of nodes) for `parts`, before annotations. */
export function convertTyped(scope: Scope, parts: readonly Part[], depth: number): Schema {
  const at = parts[0]?.pointer ?? '';
  const declared = new Map<Part, Set<Kind>>();
  let kinds: Set<Kind> | undefined;
  for (const part of parts) {
    const own = readType(scope, part);
    if (own === undefined) continue;
    declared.set(part, own);
    kinds = kinds === undefined ? own : intersect(kinds, own);
  }
  const enumeration = readEnum(scope, parts);
  let values = enumeration?.values;
  if (values !== undefined) {
    const valueKinds = new Set(values.map(kindOf));
    kinds = kinds === undefined ? valueKinds : intersect(kinds, valueKinds);
    const allowed = kinds;
    values = values.filter((value) => allowed.has(kindOf(value)));
  }
  kinds ??= inferKinds(parts) ?? new Set(ALL_KINDS);
  if (kinds.size === 0 || values?.length === 0) {
    throw new Unsatisfiable(at, 'no value has the required type (and enum)');
  }
  checkKeywords(scope, parts, declared, kinds);

  const types = geminiTypes(kinds);
  const format = readFormat(scope, parts, types);
  const issues: EnumIssues = { weakened: [], rewritten: [] };
  const alternatives: Schema[] = [];
  let unsatisfiable: Unsatisfiable | undefined;
  for (const type of types) {
    try {
      alternatives.push(...buildType(scope, parts, depth, type, values, format, issues));
    } catch (error) {
      if (!(error instanceof Unsatisfiable)) throw error;
      unsatisfiable ??= error;
    }
  }
  if (enumeration !== undefined) reportEnum(scope, enumeration.part, enumeration.keyword, issues);
  if (alternatives.length === 0) {
    if (!kinds.has('null'))
      throw unsatisfiable ?? new Unsatisfiable(at, 'no value satisfies every constraint');
    return { type: 'NULL' };
  }
  const schema = alternatives.length === 1 ? (alternatives[0] as Schema) : { anyOf: alternatives };
  if (kinds.has('null')) markNullable(schema);
  return schema;
}

function buildType(
  scope: Scope,
  parts: readonly Part[],
  depth: number,
  type: GeminiType,
  values: readonly unknown[] | undefined,
  format: string | undefined,
  issues: EnumIssues,
): Schema[] {
  switch (type) {
    case 'STRING':
      return [buildString(scope, parts, values, format)];
    case 'NUMBER':
    case 'INTEGER':
      return buildNumber(scope, parts, type, values, format, issues);
    case 'BOOLEAN':
      return [buildBoolean(values, issues)];
    case 'ARRAY':
      return [buildArray(scope, parts, depth, values, issues)];
    case 'OBJECT':
      return [buildObject(scope, parts, depth, values, issues)];
  }
}

/** The kinds `type` (plus OpenAPI's `nullable: true`) allows in `part`, if it says. */
function readType(scope: Scope, part: Part): Set<Kind> | undefined {
  const type = read(part, 'type');
  if (type === undefined) return undefined;
  const kinds = kindsOfType(type);
  if (kinds === undefined) {
    scope.lose(part, 'type', 'dropped', 'not a JSON Schema type (or array of types)');
    return undefined;
  }
  if (read(part, 'nullable') === true) kinds.add('null');
  return kinds;
}

interface Enumeration {
  readonly values: unknown[];
  readonly part: Part;
  readonly keyword: 'enum' | 'const';
}

/** The values every `enum`/`const` of the conjunction allows, with the first place that says. */
function readEnum(scope: Scope, parts: readonly Part[]): Enumeration | undefined {
  let out: Enumeration | undefined;
  for (const part of parts) {
    for (const keyword of ['enum', 'const'] as const) {
      const value = read(part, keyword);
      if (value === undefined) continue;
      if (keyword === 'enum' && !Array.isArray(value)) {
        scope.lose(part, keyword, 'dropped', 'not an array');
        continue;
      }
      const list: unknown[] = keyword === 'enum' ? (value as unknown[]) : [value];
      const texts = new Set(list.map(canonicalJson));
      if (out === undefined) {
        const unique = new Map(list.map((entry) => [canonicalJson(entry), entry]));
        out = { values: [...unique.values()], part, keyword };
      } else {
        out = { ...out, values: out.values.filter((entry) => texts.has(canonicalJson(entry))) };
      }
    }
  }
  return out;
}

/** The kinds the type-specific keywords of an untyped conjunction point at, if any. */
function inferKinds(parts: readonly Part[]): Set<Kind> | undefined {
  const kinds = new Set<Kind>();
  for (const part of parts) {
    for (const keyword of keywords(part)) {
      const entry = classifyKeyword(keyword);
      if (entry.kind !== 'unknown' && entry.target !== undefined) {
        for (const kind of kindsOfTarget(entry.target)) kinds.add(kind);
      }
    }
  }
  return kinds.size === 0 ? undefined : kinds;
}

/** Keywords that constrain nothing when they hold `true` or `{}`. */
const VACUOUS_WHEN_TRUE = new Set([
  'additionalItems',
  'additionalProperties',
  'else',
  'if',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
/** Keywords that constrain nothing when they hold `false`. */
const VACUOUS_WHEN_FALSE = new Set(['deprecated', 'readOnly', 'uniqueItems', 'writeOnly']);

function isVacuous(keyword: string, value: unknown): boolean {
  if (value === false) return VACUOUS_WHEN_FALSE.has(keyword);
  const empty = value === true || (isObject(value) && Object.keys(value).length === 0);
  return empty && VACUOUS_WHEN_TRUE.has(keyword);
}

/**
 * Reports every keyword the output cannot carry: unknown ones, unsupported ones (when their
 * type is still possible here), and type-specific ones the part's own `type` makes vacuous.
 */
function checkKeywords(
  scope: Scope,
  parts: readonly Part[],
  declared: ReadonlyMap<Part, Set<Kind>>,
  kinds: ReadonlySet<Kind>,
): void {
  for (const part of parts) {
    const own = declared.get(part);
    for (const keyword of keywords(part)) {
      const entry = classifyKeyword(keyword);
      if (entry.kind === 'unknown') {
        scope.lose(part, keyword, 'dropped', "not a keyword Gemini's Schema has");
        continue;
      }
      const targets = entry.target === undefined ? undefined : kindsOfTarget(entry.target);
      if (targets !== undefined && own !== undefined && !targets.some((kind) => own.has(kind))) {
        scope.lose(
          part,
          keyword,
          'dropped',
          `applies to ${entry.target} values only, and this schema is ${describeKinds(own)}`,
        );
        continue;
      }
      if (entry.kind !== 'unsupported') continue;
      if (targets !== undefined && !targets.some((kind) => kinds.has(kind))) continue;
      const value = (part.node as Record<string, unknown>)[keyword];
      if (isVacuous(keyword, value)) continue;
      const detail =
        keyword === 'additionalProperties' && value === false
          ? 'extra properties are not forbidden'
          : entry.loss;
      scope.lose(part, keyword, 'dropped', `Gemini's Schema cannot say it: ${detail}`);
    }
  }
}

function reportEnum(scope: Scope, part: Part, keyword: 'enum' | 'const', issues: EnumIssues): void {
  if (issues.weakened.length > 0) {
    scope.lose(part, keyword, 'weakened', [...issues.weakened, ...issues.rewritten].join('; '));
  } else if (issues.rewritten.length > 0) {
    scope.lose(part, keyword, 'rewritten', issues.rewritten.join('; '));
  }
}
