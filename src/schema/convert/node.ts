/**
 * The recursion: one output node from a conjunction of source schemas. Expands `$ref`/`allOf`,
 * reads the annotations, then converts the first union (its siblings distributed into the
 * branches) or, without one, the typed node (ARRAY and OBJECT nodes converting their items and
 * properties one level deeper); finally writes the annotations and loss notes.
 */

import { GeminiMcpError } from '../../errors.js';
import type { Schema } from '../../generated/types.js';
import { isJsonObject, setOwn } from '../../json/object.js';
import type { Conjunct, GeminiType, Kinds } from '../keywords.js';
import {
  ALL_KINDS,
  ANNOTATIONS,
  canonicalJson,
  classifyKeyword,
  describeType,
  geminiTypes,
  isGeminiPropertyName,
  jsonEqual,
  KIND,
  KW,
  keywordMask,
  kindOf,
  kindsOfTarget,
  kindsOfType,
  conjunct as makeConjunct,
  mayLose,
  only,
  pending,
  read,
  targetKinds,
  Unsatisfiable,
  without,
} from '../keywords.js';
import type { ExpansionBudget, ExpansionPlan, Limits } from '../limits.js';
import type { LossReport } from '../losses.js';
import { describeLosses, Scope } from '../losses.js';
import type { RefResolver } from '../refs.js';
import { childPointer, propertyPointer } from '../refs.js';
import type { EnumValues } from '../scalars.js';
import {
  buildBoolean,
  buildNumber,
  buildString,
  countBounds,
  ITEM_COUNT,
  int64,
  PROPERTY_COUNT,
  readFormat,
  typedNode,
  weakenEnum,
} from '../scalars.js';

/** One conversion's shared state. */
export interface Context {
  readonly refs: RefResolver;
  /** How far `$ref`s are expanded, decided before the conversion. */
  readonly plan: ExpansionPlan;
  readonly limits: Limits;
  readonly budget: ExpansionBudget;
  readonly report: LossReport;
  readonly describeLosses: boolean;
}

/**
 * The losses of the output node being built, and the conversion it belongs to. Without
 * `describeLosses` no node keeps notes of its own, so one scope serves the whole conversion.
 */
class NodeScope extends Scope {
  declare readonly ctx: Context;

  constructor(ctx: Context) {
    super(ctx.report, ctx.describeLosses);
    this.ctx = ctx;
  }
}

/** Converts the conjunction `input`, `depth` levels below the root. */
export function convertNode(ctx: Context, input: readonly Conjunct[], depth: number): Schema {
  return convert(new NodeScope(ctx), input, depth);
}

/** Converts the conjunction `input` one level below the node of `parent`. */
function convertChild(parent: NodeScope, input: readonly Conjunct[], depth: number): Schema {
  const { ctx } = parent;
  return convert(ctx.describeLosses ? new NodeScope(ctx) : parent, input, depth);
}

/** Converts the conjunction `input`, `depth` levels below the root, its losses in `scope`. */
function convert(scope: NodeScope, input: readonly Conjunct[], depth: number): Schema {
  const { ctx } = scope;
  const at = input[0]?.pointer ?? '';
  if (depth > ctx.limits.maxDepth) {
    throw new GeminiMcpError(
      'SCHEMA_TOO_LARGE',
      `converted schema nested deeper than maxDepth (${ctx.limits.maxDepth})`,
      { path: at, data: { maxDepth: ctx.limits.maxDepth } },
    );
  }
  const expanded = flat(input) ? input : expand(scope, input, depth);
  // A conjunction of `true`s constrains nothing; it still has a place in the source.
  const conjuncts = expanded.length > 0 ? expanded : [makeConjunct({}, at, [])];
  // The work of a node grows with the source nodes merged into it: that is what is counted.
  ctx.budget.spend(at, conjuncts.length);
  const annotations = collectAnnotations(scope, conjuncts);
  const union = findUnion(scope, conjuncts);
  const schema =
    union === undefined
      ? convertTyped(scope, conjuncts, depth)
      : convertUnion(scope, conjuncts, union, depth, annotations);
  return applyAnnotations(schema, annotations, scope);
}

// Flattens a conjunction: `true` disappears, `false` makes it unsatisfiable, local `$ref`s are
// inlined (their targets become conjuncts, wherever in the document they live), `allOf` branches
// become conjuncts. A `$ref` already expanded `maxRefDepth` times on the current path is a cycle:
// it is cut, keeping only the target's type and annotations, with a warning naming the cycle.

const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'] as const;
type RefKeyword = (typeof REF_KEYWORDS)[number];

/** The keywords `expand` applies itself. */
const EXPANDED = keywordMask([...REF_KEYWORDS, 'allOf']);

/** What a cut recursion keeps of its target. */
const CUT_KEEPS = keywordMask(['type', 'title', 'description']);

/** Whether `input` is already flat: object conjuncts without `$ref` or `allOf` (most are). */
function flat(input: readonly Conjunct[]): boolean {
  for (const conjunct of input) {
    if ((conjunct.keys & EXPANDED) !== 0 || typeof conjunct.node === 'boolean') return false;
  }
  return input.length > 0;
}

/** The object conjuncts of the conjunction `input`, `$ref`s and `allOf`s expanded, in source order. */
function expand(scope: NodeScope, input: readonly Conjunct[], depth: number): Conjunct[] {
  let out: Conjunct[] | undefined;
  for (const conjunct of input) out = visit(scope, conjunct, depth, out);
  return out ?? [];
}

/** `out` with the object conjuncts `conjunct` expands to added. */
function visit(
  scope: NodeScope,
  conjunct: Conjunct,
  depth: number,
  out: Conjunct[] | undefined,
): Conjunct[] | undefined {
  if (conjunct.node === true) return out;
  if (conjunct.node === false) throw new Unsatisfiable(conjunct.pointer, 'the schema is false');
  if (!expandable(conjunct)) return append(out, conjunct);
  let list: Conjunct[] | undefined = append(out, without(conjunct, EXPANDED));
  for (const keyword of REF_KEYWORDS) {
    const ref = read(conjunct, keyword);
    if (ref !== undefined) list = followRef(scope, conjunct, keyword, ref, depth, list);
  }
  const allOf = read(conjunct, 'allOf');
  if (allOf === undefined) return list;
  if (!Array.isArray(allOf) || allOf.length === 0) {
    scope.lose(conjunct, 'allOf', 'dropped', 'not a non-empty array of schemas');
    return list;
  }
  for (let i = 0; i < allOf.length; i++) {
    const branch = makeConjunct(
      allOf[i],
      childPointer(conjunct.pointer, 'allOf', i),
      conjunct.refs,
    );
    list = visit(scope, branch, depth, list);
  }
  return list;
}

/** `list` with `item` added: a list of one made to size (most lists here hold one). */
function append<T>(list: T[] | undefined, item: T): T[] {
  if (list === undefined) return [item];
  list.push(item);
  return list;
}

/**
 * A new list: `list`, then `item` (made to size). Lists are copied by hand or spread here, not
 * with `slice` and the like: a source list may be frozen (a tool set's snapshot), which sends
 * the array builtins down their slow path.
 */
function plus<T>(list: readonly T[], item: T): T[] {
  const out = new Array<T>(list.length + 1);
  for (let i = 0; i < list.length; i++) out[i] = list[i] as T;
  out[list.length] = item;
  return out;
}

/** Whether `conjunct` holds a `$ref` or an `allOf` to expand (most do not). */
function expandable(conjunct: Conjunct): boolean {
  return (conjunct.keys & EXPANDED) !== 0;
}

function followRef(
  scope: NodeScope,
  conjunct: Conjunct,
  keyword: RefKeyword,
  ref: unknown,
  depth: number,
  out: Conjunct[] | undefined,
): Conjunct[] | undefined {
  const { ctx } = scope;
  ctx.budget.spend(conjunct.pointer);
  const target = ctx.refs.resolve(ref, conjunct.pointer, keyword);
  if (keyword !== '$ref') {
    scope.lose(
      conjunct,
      keyword,
      'rewritten',
      'resolved as a plain $ref: dynamic scope is not supported',
    );
  }
  if (conjunct.refs.length >= ctx.limits.maxDepth) {
    throw new GeminiMcpError(
      'SCHEMA_TOO_LARGE',
      `$ref chain longer than maxDepth (${ctx.limits.maxDepth})`,
      { path: conjunct.pointer, data: { maxDepth: ctx.limits.maxDepth } },
    );
  }
  const { plan } = ctx;
  if (depth > plan.cutDepth) {
    scope.lose(
      conjunct,
      keyword,
      'weakened',
      `#${target.pointer} not expanded here: the schema expands past maxOutputNodes ` +
        `(${plan.budget}) nodes, so $refs are expanded breadth-first and cut below level ` +
        `${plan.cutDepth}; this one keeps only the type and description`,
    );
    return visit(
      scope,
      only(makeConjunct(target.node, target.pointer, conjunct.refs), CUT_KEEPS),
      depth,
      out,
    );
  }
  let seen = 0;
  for (const pointer of conjunct.refs) if (pointer === target.pointer) seen++;
  if (seen < plan.refDepth) {
    const refs = plus(conjunct.refs, target.pointer);
    return visit(scope, makeConjunct(target.node, target.pointer, refs), depth, out);
  }
  const cycle = [...conjunct.refs.slice(conjunct.refs.lastIndexOf(target.pointer)), target.pointer];
  const path = cycle.map((pointer) => `#${pointer}`).join(' -> ');
  scope.lose(
    conjunct,
    keyword,
    'weakened',
    plan.reason === undefined
      ? `recursive $ref cycle ${path} cut after ${plan.refDepth} expansions: deeper levels keep only the type`
      : `recursive $ref cycle ${path} cut at its first re-entry, as the schema expands past ` +
          `maxOutputNodes (${plan.budget}) nodes otherwise: deeper levels keep only the type and description`,
  );
  return visit(
    scope,
    only(makeConjunct(target.node, target.pointer, conjunct.refs), CUT_KEEPS),
    depth,
    out,
  );
}

// Annotations (title, description, default, example) of a conjunction, and writing them onto
// the output node together with the `describeLosses` note.

/** The annotations one output node carries. */
interface Annotations {
  title?: string;
  description?: string;
  default?: unknown;
  example?: unknown;
}

/** The annotation keywords of {@link KW}. */
const ANNOTATION_KEYS = keywordMask(ANNOTATIONS);

/** `example` and `examples`. */
const EXAMPLE_KEYS = KW.example | KW.examples;

/**
 * The annotations of a node as {@link collectAnnotations} finds them: none, a description alone
 * (most nodes: no record then), or {@link Annotations}.
 */
type Found = Annotations | string | undefined;

/** The description of `found`. */
function descriptionOf(found: Found): string | undefined {
  return typeof found === 'object' ? found.description : found;
}

/**
 * Reads the annotations of `conjuncts`: distinct descriptions are joined (a `$ref`'s target and the
 * place that uses it often both describe), the first title, default and example win, and
 * `examples` gives its first entry.
 */
function collectAnnotations(scope: NodeScope, conjuncts: readonly Conjunct[]): Found {
  // Made for a title, default or example.
  let out: Annotations | undefined;
  // The first description, then all of them once there are two.
  let description: string | undefined;
  let descriptions: string[] | undefined;
  for (const conjunct of conjuncts) {
    if ((conjunct.keys & ANNOTATION_KEYS) === 0) continue;
    const node = conjunct.node as Record<string, unknown>;
    const title = (conjunct.keys & KW.title) === 0 ? undefined : node.title;
    if (title !== undefined) {
      out ??= {};
      if (typeof title !== 'string') {
        scope.lose(conjunct, 'title', 'dropped', 'not a string');
      } else if (out.title === undefined) {
        out.title = title;
      } else if (out.title !== title) {
        scope.lose(conjunct, 'title', 'dropped', 'another title applies here; the first is kept');
      }
    }
    const text = (conjunct.keys & KW.description) === 0 ? undefined : node.description;
    if (text !== undefined) {
      if (typeof text !== 'string') {
        scope.lose(conjunct, 'description', 'dropped', 'not a string');
      } else if (description === undefined) {
        description = text;
      } else if (descriptions === undefined) {
        if (text !== description) descriptions = [description, text];
      } else if (!descriptions.includes(text)) {
        descriptions.push(text);
      }
    }
    const fallback = (conjunct.keys & KW.default) === 0 ? undefined : node.default;
    if (fallback !== undefined) {
      out ??= {};
      if (!Object.hasOwn(out, 'default')) out.default = copyValue(fallback);
      else
        scope.lose(
          conjunct,
          'default',
          'dropped',
          'another default applies here; the first is kept',
        );
    }
    if ((conjunct.keys & EXAMPLE_KEYS) !== 0) {
      out ??= {};
      readExample(scope, conjunct, out);
    }
  }
  const text = description === undefined ? undefined : (descriptions?.join('\n\n') ?? description);
  if (out === undefined) return text;
  if (text !== undefined) out.description = text;
  return out;
}

function readExample(scope: NodeScope, conjunct: Conjunct, out: Annotations): void {
  const example = read(conjunct, 'example');
  const examples = read(conjunct, 'examples');
  if (examples !== undefined && !Array.isArray(examples)) {
    scope.lose(conjunct, 'examples', 'dropped', 'not an array');
  }
  const first = example !== undefined ? example : Array.isArray(examples) ? examples[0] : undefined;
  if (Array.isArray(examples) && examples.length > (example === undefined ? 1 : 0)) {
    scope.lose(
      conjunct,
      'examples',
      'weakened',
      'Gemini takes one example; the others are not sent',
    );
  }
  if (first === undefined) return;
  if (!Object.hasOwn(out, 'example')) out.example = copyValue(first);
  else
    scope.lose(
      conjunct,
      example === undefined ? 'examples' : 'example',
      'dropped',
      'another example applies here; the first is kept',
    );
}

/** A copy of a JSON value from the source (surveyed: plain JSON), primitives as they are. */
function copyValue(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/**
 * Writes `annotations` onto `schema` (they win over a single union branch's own, descriptions
 * are joined), then the loss note when `describeLosses` is on.
 */
function applyAnnotations(schema: Schema, found: Found, scope: NodeScope): Schema {
  if (found === undefined && !scope.ctx.describeLosses) return schema;
  const annotations = typeof found === 'object' ? found : undefined;
  if (annotations?.title !== undefined) schema.title = annotations.title;
  const description = descriptionOf(found);
  if (description !== undefined) {
    schema.description =
      schema.description === undefined || schema.description === description
        ? description
        : `${description}\n\n${schema.description}`;
  }
  if (annotations !== undefined) {
    if (Object.hasOwn(annotations, 'default')) schema.default = annotations.default;
    if (Object.hasOwn(annotations, 'example')) schema.example = annotations.example;
  }
  if (scope.ctx.describeLosses) {
    const description = describeLosses(schema.description, scope.notes);
    if (description !== undefined) schema.description = description;
  }
  return schema;
}

// A conjunction without unions: its `type`s intersected (or inferred from its keywords), its
// `enum`/`const` intersected, every keyword checked (unknown, unsupported or vacuous for the
// declared type), then one node per Gemini type, joined by `anyOf` when there are several.

/** The node (or `anyOf` of nodes) for `conjuncts`, before annotations. */
function convertTyped(scope: NodeScope, conjuncts: readonly Conjunct[], depth: number): Schema {
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
    // By index, as every source list here (see {@link plus}).
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

/** Whether `list` holds no object or array (by hand: it may be frozen, see {@link plus}). */
function plainValues(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    if (entry !== null && typeof entry === 'object') return false;
  }
  return true;
}

/** Whether a list of plain values holds one twice (short lists, most enums, without a `Set`). */
function repeats(list: readonly unknown[]): boolean {
  if (list.length > 16) return new Set(list).size !== list.length;
  for (let i = 1; i < list.length; i++) {
    for (let j = 0; j < i; j++) if (list[i] === list[j]) return true;
  }
  return false;
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

// `anyOf`/`oneOf`. The union's siblings are distributed into every branch (A ∧ (B ∨ C) is
// (A ∧ B) ∨ (A ∧ C)), so each branch is a complete Gemini node; a null branch becomes
// `nullable`; branches that accept nothing disappear; one remaining branch stands alone; string
// enum branches merge into one enum. `oneOf` becomes `anyOf`, reported as weakened unless its
// branches provably exclude each other (different types, disjoint enums or ranges, or a shared
// required discriminator).

/** The first union of a conjunction. */
interface Union {
  readonly conjunct: Conjunct;
  readonly keyword: 'anyOf' | 'oneOf';
  readonly branches: readonly unknown[];
}

/** What a union's owner no longer says once its branches are converted. */
const WITHOUT_UNION: Readonly<Record<Union['keyword'], number>> = {
  anyOf: KW.anyOf | ANNOTATION_KEYS,
  oneOf: KW.oneOf | ANNOTATION_KEYS,
};

const UNION_KEYWORDS = ['anyOf', 'oneOf'] as const;
const UNION_KEYS = KW.anyOf | KW.oneOf;

/** Finds the first valid `anyOf`/`oneOf` among `conjuncts`; malformed ones are reported and skipped. */
function findUnion(scope: NodeScope, conjuncts: readonly Conjunct[]): Union | undefined {
  for (const conjunct of conjuncts) {
    if ((conjunct.keys & UNION_KEYS) === 0) continue;
    for (const keyword of UNION_KEYWORDS) {
      const branches = read(conjunct, keyword);
      if (branches === undefined) continue;
      if (Array.isArray(branches) && branches.length > 0) return { conjunct, keyword, branches };
      scope.lose(conjunct, keyword, 'dropped', 'not a non-empty array of schemas');
    }
  }
  return undefined;
}

/** Converts the conjunction `conjuncts` whose first union is `union`; `annotations` stay on the outside. */
function convertUnion(
  scope: NodeScope,
  conjuncts: readonly Conjunct[],
  union: Union,
  depth: number,
  annotations: Found,
): Schema {
  const { conjunct: owner, keyword, branches } = union;
  const rest = new Array<Conjunct>(conjuncts.length);
  for (let i = 0; i < conjuncts.length; i++) {
    const conjunct = conjuncts[i] as Conjunct;
    rest[i] = without(conjunct, conjunct === owner ? WITHOUT_UNION[keyword] : ANNOTATION_KEYS);
  }
  let nullable = false;
  // The branches' nodes, a bare union's branches each one: one (no list), or a list.
  let alternatives: Schema | Schema[] | undefined;
  for (let i = 0; i < branches.length; i++) {
    const pointer = owner.branchPointers?.[i] ?? childPointer(owner.pointer, keyword, i);
    const branch = makeConjunct(branches[i], pointer, owner.refs);
    let schema: Schema;
    try {
      schema = convertChild(scope, plus(rest, branch), depth + 1);
    } catch (error) {
      if (error instanceof Unsatisfiable) continue;
      throw error;
    }
    if (schema.type === 'NULL') {
      nullable = true;
      if (schema.description !== undefined && schema.description !== descriptionOf(annotations)) {
        scope.lose(
          branch,
          'description',
          'dropped',
          'the null branch became nullable; its description is not sent',
        );
      }
      continue;
    }
    const parts = isBareUnion(schema) ? (schema.anyOf as Schema[]) : schema;
    alternatives =
      alternatives === undefined && !Array.isArray(parts)
        ? parts
        : (alternatives === undefined
            ? []
            : Array.isArray(alternatives)
              ? alternatives
              : [alternatives]
          ).concat(parts);
  }
  if (keyword === 'oneOf') {
    const list =
      alternatives === undefined ? [] : Array.isArray(alternatives) ? alternatives : [alternatives];
    if (!pairwiseDisjoint(list, nullable)) {
      scope.lose(
        owner,
        keyword,
        'weakened',
        'written as anyOf: a value may match several branches',
      );
    }
  }
  if (alternatives === undefined || (Array.isArray(alternatives) && alternatives.length === 0)) {
    if (!nullable)
      throw new Unsatisfiable(owner.pointer, `no branch of ${keyword} accepts a value`);
    return { type: 'NULL' };
  }
  const merged = Array.isArray(alternatives) ? mergeAlternatives(alternatives) : [alternatives];
  const schema = merged.length === 1 ? (merged[0] as Schema) : { anyOf: merged };
  if (nullable) markNullable(schema);
  return schema;
}

/** Makes `schema` accept null: on itself, or on every branch of a bare union. */
function markNullable(schema: Schema): void {
  if (schema.anyOf !== undefined && schema.type === undefined) {
    for (const branch of schema.anyOf) markNullable(branch);
  } else if (schema.type !== 'NULL') {
    schema.nullable = true;
  }
}

function isBareUnion(schema: Schema): boolean {
  return schema.anyOf !== undefined && onlyKeys(schema, 'anyOf', 'anyOf');
}

/** Whether every own key of `schema` is `a` or `b` (counted without listing them). */
function onlyKeys(schema: Schema, a: keyof Schema, b: keyof Schema): boolean {
  for (const key in schema) {
    if (key !== a && key !== b && Object.hasOwn(schema, key)) return false;
  }
  return true;
}

/** Drops duplicate alternatives and merges bare string enums into the first one. */
function mergeAlternatives(alternatives: readonly Schema[]): Schema[] {
  if (alternatives.length < 2) return [...alternatives];
  const out: Schema[] = [];
  // The alternatives met, by type (an alternative can only repeat an earlier one of its own
  // type), compared as JSON values; a bare string enum as its canonical text, taken when it is
  // met, as it may grow below.
  const seen = new Map<Schema['type'], (Schema | string)[]>();
  let stringEnum: Schema | undefined;
  for (const alternative of alternatives) {
    const bareEnum = isBareStringEnum(alternative);
    const met = bareEnum ? canonicalJson(alternative) : alternative;
    const sameType = seen.get(alternative.type);
    if (sameType === undefined) {
      seen.set(alternative.type, [met]);
    } else {
      // A text is only ever equal to the text of another bare string enum.
      const repeated = sameType.some((earlier) =>
        typeof earlier === 'string' || typeof met === 'string'
          ? earlier === met
          : jsonEqual(earlier, met),
      );
      if (repeated) continue;
      sameType.push(met);
    }
    if (bareEnum && stringEnum?.enum !== undefined) {
      for (const value of alternative.enum ?? []) {
        if (!stringEnum.enum.includes(value)) stringEnum.enum.push(value);
      }
      continue;
    }
    if (bareEnum) stringEnum = alternative;
    out.push(alternative);
  }
  return out;
}

/** A STRING node with an enum and nothing else. */
function isBareStringEnum(schema: Schema): boolean {
  return schema.type === 'STRING' && schema.enum !== undefined && onlyKeys(schema, 'type', 'enum');
}

/** True when no value can match two of `alternatives` (a null branch counts as one more). */
function pairwiseDisjoint(alternatives: readonly Schema[], nullBranch: boolean): boolean {
  if (nullBranch && alternatives.some((schema) => schema.nullable === true)) return false;
  for (let i = 0; i < alternatives.length; i++) {
    for (let j = i + 1; j < alternatives.length; j++) {
      if (!disjoint(alternatives[i] as Schema, alternatives[j] as Schema)) return false;
    }
  }
  return true;
}

function disjoint(a: Schema, b: Schema): boolean {
  if (a.type === undefined || b.type === undefined) return false;
  if (a.nullable === true && b.nullable === true) return false;
  if (a.type !== b.type) {
    const numeric = (type: string): boolean => type === 'NUMBER' || type === 'INTEGER';
    return !(numeric(a.type) && numeric(b.type));
  }
  switch (a.type) {
    case 'STRING':
      return (
        a.enum !== undefined &&
        b.enum !== undefined &&
        !a.enum.some((value) => b.enum?.includes(value))
      );
    case 'NUMBER':
    case 'INTEGER':
      return (
        (a.maximum !== undefined && b.minimum !== undefined && a.maximum < b.minimum) ||
        (b.maximum !== undefined && a.minimum !== undefined && b.maximum < a.minimum)
      );
    case 'BOOLEAN':
      return false;
    case 'OBJECT':
      return (a.required ?? []).some((name) => {
        const left = a.properties?.[name];
        const right = b.properties?.[name];
        return (
          (b.required ?? []).includes(name) &&
          left !== undefined &&
          right !== undefined &&
          disjoint(left, right)
        );
      });
    default:
      return false;
  }
}

// ARRAY nodes. Gemini requires `items` and has no tuples: positional schemas (`prefixItems`, or
// draft-7 array `items`) are merged into one `items` union, and an array without `items` gets
// the most permissive `items` Gemini can say.

/** An ARRAY node for the conjunction `conjuncts`, at `depth`. */
function buildArray(
  scope: NodeScope,
  conjuncts: readonly Conjunct[],
  depth: number,
  allowed: EnumValues | undefined,
): Schema {
  if (allowed?.values.some(Array.isArray)) {
    weakenEnum(
      allowed,
      'arrays cannot be listed in a Gemini enum: any array of the type is accepted',
    );
  }
  let itemConjuncts: Conjunct[] | undefined;
  let tupleMax: number | undefined;
  for (const conjunct of conjuncts) {
    const positional = readPositional(scope, conjunct);
    if (positional === undefined) {
      const items = read(conjunct, 'items');
      if (items !== undefined) {
        const item = makeConjunct(items, `${conjunct.pointer}/items`, conjunct.refs);
        itemConjuncts = append(itemConjuncts, item);
      }
      continue;
    }
    const { tuple, keyword, rest, restKeyword } = positional;
    if (rest === false) tupleMax = Math.min(tupleMax ?? tuple.length, tuple.length);
    if (rest === undefined || rest === true) {
      scope.lose(
        conjunct,
        keyword,
        'weakened',
        'positional item schemas cannot be expressed: items are not constrained',
      );
      continue;
    }
    scope.lose(
      conjunct,
      keyword,
      'weakened',
      'positional item schemas merged into one items schema (anyOf)',
    );
    const branches = rest === false ? [...tuple] : [...tuple, rest];
    if (branches.length === 0) continue;
    itemConjuncts = append(
      itemConjuncts,
      makeConjunct({ anyOf: branches }, childPointer(conjunct.pointer, keyword), conjunct.refs, [
        ...tuple.map((_, i) => childPointer(conjunct.pointer, keyword, i)),
        ...(rest === false ? [] : [childPointer(conjunct.pointer, restKeyword)]),
      ]),
    );
  }
  const counts = countBounds(scope, conjuncts, ITEM_COUNT);
  let max = tupleMax === undefined ? counts.max : Math.min(counts.max ?? tupleMax, tupleMax);
  const schema = typedNode('ARRAY');
  if (itemConjuncts !== undefined) {
    try {
      schema.items = convertChild(scope, itemConjuncts, depth + 1);
    } catch (error) {
      if (!(error instanceof Unsatisfiable)) throw error;
      // No item can be valid: only the empty array is.
      schema.items = { type: 'STRING' };
      max = 0;
    }
  } else {
    scope.ctx.budget.spend(conjuncts[0]?.pointer ?? '', ANY_SCALAR_OR_OBJECT_NODES);
    schema.items = anyScalarOrObject();
    if (max !== 0) reportAnyItems(scope, conjuncts);
  }
  if (counts.min !== undefined && max !== undefined && counts.min > max) {
    throw new Unsatisfiable(conjuncts[0]?.pointer ?? '', 'minItems exceeds the items allowed');
  }
  if (counts.min !== undefined) schema.minItems = int64(counts.min);
  if (max !== undefined) schema.maxItems = int64(max);
  return schema;
}

/** Reports the permissive `items`: of an array without them, or of "any value" (no type at all). */
function reportAnyItems(scope: NodeScope, conjuncts: readonly Conjunct[]): void {
  const declared = conjuncts.some((conjunct) => {
    const type = read(conjunct, 'type');
    return type === 'array' || (Array.isArray(type) && type.includes('array'));
  });
  const first = conjuncts[0] as Conjunct;
  if (declared) {
    scope.lose(
      first,
      'items',
      'rewritten',
      'no items schema: Gemini requires one, so items may be any string, number, boolean, object or null, but not an array',
    );
  } else {
    scope.lose(
      first,
      'type',
      'rewritten',
      'any value: Gemini has no "any" type, so this is an anyOf of every type, whose arrays hold no arrays',
    );
  }
}

interface Positional {
  readonly tuple: readonly unknown[];
  readonly keyword: 'items' | 'prefixItems';
  /** The schema of the items after the tuple (`undefined`: any). */
  readonly rest: unknown;
  readonly restKeyword: 'additionalItems' | 'items';
}

function readPositional(scope: NodeScope, conjunct: Conjunct): Positional | undefined {
  const items = read(conjunct, 'items');
  if (Array.isArray(items)) {
    return {
      tuple: items,
      keyword: 'items',
      rest: read(conjunct, 'additionalItems'),
      restKeyword: 'additionalItems',
    };
  }
  const prefix = read(conjunct, 'prefixItems');
  if (prefix === undefined) return undefined;
  if (!Array.isArray(prefix)) {
    scope.lose(conjunct, 'prefixItems', 'dropped', 'not an array of schemas');
    return undefined;
  }
  return { tuple: prefix, keyword: 'prefixItems', rest: items, restKeyword: 'items' };
}

// OBJECT nodes: properties (merged across the conjunction, in source order, which also gives
// `propertyOrdering`), required, property counts. A property that accepts nothing is left out;
// a required name without a schema gets "any value"; names Gemini may refuse are reported.

/** An OBJECT node for the conjunction `conjuncts`, at `depth`. */
function buildObject(
  scope: NodeScope,
  conjuncts: readonly Conjunct[],
  depth: number,
  allowed: EnumValues | undefined,
): Schema {
  if (allowed?.values.some(isJsonObject)) {
    weakenEnum(
      allowed,
      'objects cannot be listed in a Gemini enum: any object of the type is accepted',
    );
  }
  // The source properties: those of the one conjunct that has some (most objects), else by name.
  let sole: Conjunct | undefined;
  let byName: Map<string, Conjunct[]> | undefined;
  for (const conjunct of conjuncts) {
    if ((conjunct.keys & KW.properties) === 0) continue;
    if (!isJsonObject((conjunct.node as Record<string, unknown>).properties)) {
      scope.lose(conjunct, 'properties', 'dropped', 'not an object of schemas');
      continue;
    }
    if (sole === undefined && byName === undefined) {
      sole = conjunct;
      continue;
    }
    if (sole !== undefined) {
      byName = propertiesByName(sole, new Map());
      sole = undefined;
    }
    propertiesByName(conjunct, byName as Map<string, Conjunct[]>);
  }
  const required = readRequired(scope, conjuncts);
  let properties: Record<string, Schema>;
  if (sole !== undefined) {
    const source = propertiesOf(sole);
    const base = `${sole.pointer}/properties/`;
    properties = {};
    for (const name in source) {
      if (!Object.hasOwn(source, name)) continue;
      const node = source[name];
      if (node === undefined) continue;
      const pointer =
        name.includes('~') || name.includes('/')
          ? propertyPointer(sole.pointer, name)
          : base + name;
      const schema = convertProperty(
        scope,
        name,
        [makeConjunct(node, pointer, sole.refs)],
        depth,
        required,
      );
      if (schema === undefined) continue;
      if (name === '__proto__') setOwn(properties, name, schema);
      else properties[name] = schema;
    }
  } else {
    properties = {};
    for (const [name, list] of byName ?? []) {
      const schema = convertProperty(scope, name, list, depth, required);
      if (schema !== undefined) setOwn(properties, name, schema);
    }
  }
  if (required !== undefined) {
    // A required name in the source properties is converted, or its conversion threw.
    let missing: number[] | undefined;
    for (let i = 0; i < required.names.length; i++) {
      if (Object.hasOwn(properties, required.names[i] as string)) continue;
      missing ??= [];
      missing.push(i);
    }
    if (missing !== undefined) {
      for (const i of missing) {
        scope.ctx.budget.spend(required.owner(i).pointer, ANY_VALUE_NODES);
        setOwn(properties, required.names[i] as string, anyValue());
      }
      scope.lose(
        required.owner(missing[0] as number),
        'required',
        'rewritten',
        `required without a schema (${missing.map((i) => `"${required.names[i]}"`).join(', ')}): declared as any value`,
      );
    }
  }
  const schema = typedNode('OBJECT');
  const names = Object.keys(properties);
  if (names.length > 0) schema.properties = properties;
  if (names.length > 1) schema.propertyOrdering = names;
  if (required !== undefined && required.names.length > 0) schema.required = required.names;
  const { min, max } = countBounds(scope, conjuncts, PROPERTY_COUNT);
  if (min !== undefined) schema.minProperties = int64(min);
  if (max !== undefined) schema.maxProperties = int64(max);
  return schema;
}

/** The `properties` of `conjunct`, known to be an object. */
function propertiesOf(conjunct: Conjunct): Record<string, unknown> {
  return (conjunct.node as Record<string, Record<string, unknown>>).properties as Record<
    string,
    unknown
  >;
}

/** Adds each property of `conjunct` to the conjunction of its name in `out`. */
function propertiesByName(
  conjunct: Conjunct,
  out: Map<string, Conjunct[]>,
): Map<string, Conjunct[]> {
  const properties = propertiesOf(conjunct);
  for (const name of Object.keys(properties)) {
    const node = properties[name];
    if (node === undefined) continue;
    const list = out.get(name) ?? [];
    list.push(makeConjunct(node, propertyPointer(conjunct.pointer, name), conjunct.refs));
    out.set(name, list);
  }
  return out;
}

/**
 * The property `name` (the conjunction `list`) converted, or `undefined` when it accepts no
 * value and `required` does not name it (it is left out).
 */
function convertProperty(
  scope: NodeScope,
  name: string,
  list: readonly Conjunct[],
  depth: number,
  required: Required | undefined,
): Schema | undefined {
  const at = list[0] as Conjunct;
  let schema: Schema;
  try {
    schema = convertChild(scope, list, depth + 1);
  } catch (error) {
    if (!(error instanceof Unsatisfiable)) throw error;
    if (required?.has(name) === true) throw error;
    scope.lose(
      at,
      'properties',
      'dropped',
      `property "${name}" accepts no value: left out, so it is not forbidden`,
    );
    return undefined;
  }
  if (!isGeminiPropertyName(name)) {
    scope.lose(
      at,
      'properties',
      'weakened',
      `property name "${name}" kept, but Gemini's reference allows only letters, digits and _ (at most 64): the API may refuse it`,
    );
  }
  return schema;
}

/** Whether `value` is an array of strings. */
function isNameList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

/**
 * The names a conjunction requires, distinct, in the order first met, each with the conjunct
 * that requires it first (most objects: one conjunct requires them all).
 */
class Required {
  /** The names: a new list, the output's `required`. */
  readonly names: string[];
  readonly #first: Conjunct;
  /** The conjunct of each name, once a second conjunct adds names. */
  #owners: Conjunct[] | undefined;
  /** The names as a set, made when first asked (or a second conjunct adds names). */
  #set: Set<string> | undefined;

  constructor(names: readonly string[], conjunct: Conjunct) {
    this.names = repeats(names) ? [...new Set(names)] : [...names];
    this.#first = conjunct;
    this.#owners = undefined;
    this.#set = undefined;
  }

  /** Whether `name` is required. */
  has(name: string): boolean {
    this.#set ??= new Set(this.names);
    return this.#set.has(name);
  }

  /** The conjunct that requires the name at `index` of {@link names}. */
  owner(index: number): Conjunct {
    return this.#owners?.[index] ?? this.#first;
  }

  /** Adds the names `conjunct` requires that are not yet. */
  add(names: readonly string[], conjunct: Conjunct): void {
    this.#set ??= new Set(this.names);
    const set = this.#set;
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      if (set.has(name)) continue;
      set.add(name);
      this.#owners ??= this.names.map(() => this.#first);
      this.names.push(name);
      this.#owners.push(conjunct);
    }
  }
}

/** The required names of the conjunction, each with the conjunct that requires it. */
function readRequired(scope: NodeScope, conjuncts: readonly Conjunct[]): Required | undefined {
  let required: Required | undefined;
  for (const conjunct of conjuncts) {
    if ((conjunct.keys & KW.required) === 0) continue;
    const names = (conjunct.node as Record<string, unknown>).required;
    if (!isNameList(names)) {
      scope.lose(conjunct, 'required', 'dropped', 'not an array of property names');
      continue;
    }
    if (required === undefined) required = new Required(names, conjunct);
    else required.add(names, conjunct);
  }
  return required;
}

// Gemini's Schema has no "any value". These are the closest it can say: every type, nullable,
// with arrays one level deep (their items any scalar or object), since an array's `items` is
// mandatory and cannot refer back to itself.

/** Any string, number, boolean, object or null: the items of an array that declares none. */
function anyScalarOrObject(): Schema {
  return {
    anyOf: [
      { type: 'STRING', nullable: true },
      { type: 'NUMBER', nullable: true },
      { type: 'BOOLEAN', nullable: true },
      { type: 'OBJECT', nullable: true },
    ],
  };
}

/** Any value, arrays holding scalars or objects only. */
function anyValue(): Schema {
  return {
    anyOf: [
      { type: 'STRING', nullable: true },
      { type: 'NUMBER', nullable: true },
      { type: 'BOOLEAN', nullable: true },
      { type: 'ARRAY', items: anyScalarOrObject(), nullable: true },
      { type: 'OBJECT', nullable: true },
    ],
  };
}

/** How many schema nodes {@link anyScalarOrObject} writes (for the expansion budget). */
const ANY_SCALAR_OR_OBJECT_NODES = 5;

/** How many schema nodes {@link anyValue} writes (for the expansion budget). */
const ANY_VALUE_NODES = 11;
