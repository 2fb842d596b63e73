/**
 * The recursion: one output node from a conjunction of source schemas. Expands `$ref`/`allOf`,
 * reads the annotations, then converts the first union (its siblings distributed into the
 * branches) or, without one, the typed node (ARRAY and OBJECT nodes converting their items and
 * properties one level deeper); finally writes the annotations and loss notes.
 */

import { GeminiMcpError } from '../../errors.js';
import type { Schema } from '../../generated/types.js';
import type { Conjunct } from '../keywords.js';
import {
  keywordMask,
  conjunct as makeConjunct,
  only,
  read,
  Unsatisfiable,
  without,
} from '../keywords.js';
import { childPointer } from '../refs.js';
import { applyAnnotations, collectAnnotations } from './annotations.js';
import { append, plus } from './lists.js';
import { type Context, NodeScope } from './scope.js';
import { convertTyped } from './typed.js';
import { convertUnion, findUnion } from './union.js';

/** The scope of a node of the recursion: its children are converted by {@link convert}. */
class ConvertScope extends NodeScope {
  convertChild(input: readonly Conjunct[], depth: number): Schema {
    const { ctx } = this;
    return convert(ctx.describeLosses ? new ConvertScope(ctx) : this, input, depth);
  }
}

/** Converts the conjunction `input`, `depth` levels below the root. */
export function convertNode(ctx: Context, input: readonly Conjunct[], depth: number): Schema {
  return convert(new ConvertScope(ctx), input, depth);
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
