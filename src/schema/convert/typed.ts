/**
 * A conjunction without unions: its `type`s intersected (or inferred from its keywords), its
 * `enum`/`const` intersected, every keyword checked (unknown, unsupported or vacuous for the
 * declared type), then one node per Gemini type, joined by `anyOf` when there are several.
 */

import type { Schema } from '../../generated/types.js';
import { isJsonObject } from '../../json/object.js';
import type { Conjunct, GeminiType, Kinds } from '../keywords.js';
import {
  ALL_KINDS,
  canonicalJson,
  classifyKeyword,
  describeType,
  geminiTypes,
  KIND,
  KW,
  keywordMask,
  kindOf,
  kindsOfTarget,
  kindsOfType,
  mayLose,
  pending,
  read,
  targetKinds,
  Unsatisfiable,
} from '../keywords.js';
import type { EnumValues } from '../scalars.js';
import { buildBoolean, buildNumber, buildString, readFormat } from '../scalars.js';
import { buildArray } from './array.js';
import { repeats } from './lists.js';
import { buildObject } from './object.js';
import type { NodeScope } from './scope.js';
import { markNullable } from './union.js';

/** The node (or `anyOf` of nodes) for `conjuncts`, before annotations. */
export function convertTyped(
  scope: NodeScope,
  conjuncts: readonly Conjunct[],
  depth: number,
): Schema {
  const first = conjuncts[0] as Conjunct;
  const at = first.pointer;
  // Each conjunct's own `type`: the first's, and by index when there are several.
  const firstType = readType(scope, first);
  let kinds = firstType;
  let declared: (Kinds | undefined)[] | undefined;
  if (conjuncts.length > 1) {
    declared = [firstType];
    for (let i = 1; i < conjuncts.length; i++) {
      const own = readType(scope, conjuncts[i] as Conjunct);
      declared.push(own);
      if (own === undefined) continue;
      kinds = kinds === undefined ? own : kinds & own;
    }
  }
  const enumeration = readEnum(scope, conjuncts);
  let allowed: EnumValues | undefined;
  if (enumeration !== undefined) {
    let valueKinds = 0;
    // By index, as every source list here (see lists.ts).
    const { values } = enumeration;
    for (let i = 0; i < values.length; i++) valueKinds |= kindOf(values[i]);
    kinds = kinds === undefined ? valueKinds : kinds & valueKinds;
    const within = kinds;
    allowed = {
      values:
        (valueKinds & ~within) === 0
          ? enumeration.values
          : enumeration.values.filter((value) => (within & kindOf(value)) !== 0),
      weakened: undefined,
      rewritten: undefined,
    };
  }
  kinds ??= inferKinds(conjuncts) ?? ALL_KINDS;
  if (kinds === 0 || allowed?.values.length === 0) {
    throw new Unsatisfiable(at, 'no value has the required type (and enum)');
  }
  checkKeywords(scope, conjuncts, firstType, declared, kinds);

  const types = geminiTypes(kinds);
  const format = readFormat(scope, conjuncts, types);
  // The node of the one type (most nodes), else the nodes of every type in order.
  let alternatives: Schema | Schema[] | undefined;
  let unsatisfiable: Unsatisfiable | undefined;
  // By index: an iterator over the shared (frozen) list would be allocated per node.
  for (let i = 0; i < types.length; i++) {
    const type = types[i] as GeminiType;
    let built: Schema | Schema[];
    try {
      built = buildType(scope, conjuncts, depth, type, allowed, format);
    } catch (error) {
      if (!(error instanceof Unsatisfiable)) throw error;
      unsatisfiable ??= error;
      continue;
    }
    alternatives =
      alternatives === undefined
        ? built
        : (Array.isArray(alternatives) ? alternatives : [alternatives]).concat(built);
  }
  if (enumeration !== undefined && allowed !== undefined)
    reportEnum(scope, enumeration.conjunct, enumeration.keyword, allowed);
  if (alternatives === undefined) {
    if ((kinds & KIND.null) === 0)
      throw unsatisfiable ?? new Unsatisfiable(at, 'no value satisfies every constraint');
    return { type: 'NULL' };
  }
  const schema = !Array.isArray(alternatives)
    ? alternatives
    : alternatives.length === 1
      ? (alternatives[0] as Schema)
      : { anyOf: alternatives };
  if ((kinds & KIND.null) !== 0) markNullable(schema);
  return schema;
}

/** The node of `type` for `conjuncts`, or several (the ranges of a numeric enum). */
function buildType(
  scope: NodeScope,
  conjuncts: readonly Conjunct[],
  depth: number,
  type: GeminiType,
  allowed: EnumValues | undefined,
  format: string | undefined,
): Schema | Schema[] {
  switch (type) {
    case 'STRING':
      return buildString(scope, conjuncts, allowed, format);
    case 'NUMBER':
    case 'INTEGER':
      return buildNumber(scope, conjuncts, type, allowed, format);
    case 'BOOLEAN':
      return buildBoolean(allowed);
    case 'ARRAY':
      return buildArray(scope, conjuncts, depth, allowed);
    case 'OBJECT':
      return buildObject(scope, conjuncts, depth, allowed);
  }
}

/** The kinds `type` (plus OpenAPI's `nullable: true`) allows in `conjunct`, if it says. */
function readType(scope: NodeScope, conjunct: Conjunct): Kinds | undefined {
  if ((conjunct.keys & KW.type) === 0) return undefined;
  const type = (conjunct.node as Record<string, unknown>).type;
  const kinds = kindsOfType(type);
  if (kinds === undefined) {
    scope.lose(conjunct, 'type', 'dropped', 'not a JSON Schema type (or array of types)');
    return undefined;
  }
  return (conjunct.keys & KW.nullable) !== 0 &&
    (conjunct.node as Record<string, unknown>).nullable === true
    ? kinds | KIND.null
    : kinds;
}

interface Enumeration {
  readonly values: readonly unknown[];
  readonly conjunct: Conjunct;
  readonly keyword: 'enum' | 'const';
}

const ENUM_KEYWORDS = ['enum', 'const'] as const;
const ENUM_KEYS = keywordMask(ENUM_KEYWORDS);

/** The values every `enum`/`const` of the conjunction allows, with the first place that says. */
function readEnum(scope: NodeScope, conjuncts: readonly Conjunct[]): Enumeration | undefined {
  let out: Enumeration | undefined;
  for (const conjunct of conjuncts) {
    if ((conjunct.keys & ENUM_KEYS) === 0) continue;
    for (const keyword of ENUM_KEYWORDS) {
      const value = read(conjunct, keyword);
      if (value === undefined) continue;
      if (keyword === 'enum' && !Array.isArray(value)) {
        scope.lose(conjunct, keyword, 'dropped', 'not an array');
        continue;
      }
      const list: readonly unknown[] = keyword === 'enum' ? (value as unknown[]) : [value];
      if (out === undefined) {
        out = { values: distinct(list), conjunct, keyword };
      } else {
        const texts = new Set(list.map(canonicalJson));
        out = { ...out, values: out.values.filter((entry) => texts.has(canonicalJson(entry))) };
      }
    }
  }
  return out;
}

/** The distinct values of a list, in first-seen order (JSON equality): the list itself if they are. */
function distinct(list: readonly unknown[]): readonly unknown[] {
  // Plain values compare as themselves (a JSON number has one value, -0 written as 0).
  if (plainValues(list)) {
    return repeats(list) ? [...new Set(list)] : list;
  }
  const unique = new Map(list.map((entry) => [canonicalJson(entry), entry]));
  return [...unique.values()];
}

/** Whether `list` holds no object or array (by hand: it may be frozen, see lists.ts). */
function plainValues(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    if (entry !== null && typeof entry === 'object') return false;
  }
  return true;
}
/** The kinds the type-specific keywords of an untyped conjunction point at, if any. */
function inferKinds(conjuncts: readonly Conjunct[]): Kinds | undefined {
  let kinds = 0;
  for (const conjunct of conjuncts) kinds |= targetKinds(conjunct);
  return kinds === 0 ? undefined : kinds;
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
  const empty = value === true || (isJsonObject(value) && Object.keys(value).length === 0);
  return empty && VACUOUS_WHEN_TRUE.has(keyword);
}

/**
 * Reports every keyword the output cannot carry: unknown ones, unsupported ones (when their
 * type is still possible here), and type-specific ones the conjunct's own `type` makes vacuous.
 */
function checkKeywords(
  scope: NodeScope,
  conjuncts: readonly Conjunct[],
  firstType: Kinds | undefined,
  declared: readonly (Kinds | undefined)[] | undefined,
  kinds: Kinds,
): void {
  for (let i = 0; i < conjuncts.length; i++) {
    const conjunct = conjuncts[i] as Conjunct;
    const own = declared === undefined ? firstType : declared[i];
    if (!mayLose(conjunct, own)) continue;
    const node = conjunct.node as Record<string, unknown>;
    for (const keyword in node) {
      if (!Object.hasOwn(node, keyword) || !pending(conjunct, keyword)) continue;
      const entry = classifyKeyword(keyword);
      if (entry.kind === 'unknown') {
        scope.lose(conjunct, keyword, 'dropped', "not a keyword Gemini's Schema has");
        continue;
      }
      const targets = entry.target === undefined ? undefined : kindsOfTarget(entry.target);
      if (targets !== undefined && own !== undefined && (targets & own) === 0) {
        scope.lose(
          conjunct,
          keyword,
          'dropped',
          `applies to ${entry.target} values only, and this schema is ${describeType(read(conjunct, 'type'), read(conjunct, 'nullable') === true)}`,
        );
        continue;
      }
      if (entry.kind !== 'unsupported') continue;
      if (targets !== undefined && (targets & kinds) === 0) continue;
      const value = node[keyword];
      if (isVacuous(keyword, value)) continue;
      const detail =
        keyword === 'additionalProperties' && value === false
          ? 'extra properties are not forbidden'
          : entry.loss;
      scope.lose(conjunct, keyword, 'dropped', `Gemini's Schema cannot say it: ${detail}`);
    }
  }
}

function reportEnum(
  scope: NodeScope,
  conjunct: Conjunct,
  keyword: 'enum' | 'const',
  issues: EnumValues,
): void {
  if (issues.weakened !== undefined) {
    scope.lose(
      conjunct,
      keyword,
      'weakened',
      [...issues.weakened, ...(issues.rewritten ?? [])].join('; '),
    );
  } else if (issues.rewritten !== undefined) {
    scope.lose(conjunct, keyword, 'rewritten', issues.rewritten.join('; '));
  }
}
