/**
 * Flattens a conjunction: `true` disappears, `false` makes it unsatisfiable, local `$ref`s are
 * inlined (their targets become parts, wherever in the document they live), `allOf` branches
 * become parts. A `$ref` already expanded `maxRefDepth` times on the current path is a cycle:
 * it is cut, keeping only the target's type and annotations, with a warning naming the cycle.
 */
import { GeminiMcpError } from '../errors.js';
import type { Scope } from './context.js';
import type { Part } from './parts.js';
import { read, skipMask, Unsatisfiable, without } from './parts.js';
import { childPointer } from './pointer.js';
import { resolveRef } from './refs.js';

const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'] as const;
type RefKeyword = (typeof REF_KEYWORDS)[number];

/** The keywords `expand` applies itself. */
const EXPANDED = skipMask([...REF_KEYWORDS, 'allOf']);

/** What a cut recursion keeps of its target. */
const CUT_KEEPS: ReadonlySet<string> = new Set(['type', 'title', 'description']);

/** The object parts of the conjunction `input`, `$ref`s and `allOf`s expanded, in source order. */
export function expand(scope: Scope, input: readonly Part[]): Part[] {
  const out: Part[] = [];
  const visit = (part: Part): void => {
    if (part.node === true) return;
    if (part.node === false) throw new Unsatisfiable(part.pointer, 'the schema is false');
    const refs = REF_KEYWORDS.map((keyword) => read(part, keyword));
    const allOf = read(part, 'allOf');
    const expands = allOf !== undefined || refs.some((ref) => ref !== undefined);
    out.push(expands ? without(part, EXPANDED) : part);
    refs.forEach((ref, i) => {
      if (ref !== undefined) followRef(scope, part, REF_KEYWORDS[i] as RefKeyword, ref, visit);
    });
    if (allOf === undefined) return;
    if (!Array.isArray(allOf) || allOf.length === 0) {
      scope.lose(part, 'allOf', 'dropped', 'not a non-empty array of schemas');
      return;
    }
    allOf.forEach((branch, i) => {
      visit({ node: branch, pointer: childPointer(part.pointer, 'allOf', i), refs: part.refs });
    });
  };
  for (const part of input) visit(part);
  return out;
}

function followRef(
  scope: Scope,
  part: Part,
  keyword: RefKeyword,
  ref: unknown,
  visit: (part: Part) => void,
): void {
  const { ctx } = scope;
  ctx.budget.spend(part.pointer);
  const target = resolveRef(ctx.index, ctx.rootId, ref, childPointer(part.pointer, keyword));
  if (keyword !== '$ref') {
    scope.lose(
      part,
      keyword,
      'rewritten',
      'resolved as a plain $ref: dynamic scope is not supported',
    );
  }
  if (part.refs.length >= ctx.limits.maxDepth) {
    throw new GeminiMcpError(
      'SCHEMA_TOO_LARGE',
      `$ref chain longer than maxDepth (${ctx.limits.maxDepth})`,
      { path: part.pointer, data: { maxDepth: ctx.limits.maxDepth } },
    );
  }
  const seen = part.refs.filter((pointer) => pointer === target.pointer).length;
  if (seen < ctx.limits.maxRefDepth) {
    visit({ node: target.node, pointer: target.pointer, refs: [...part.refs, target.pointer] });
    return;
  }
  const cycle = [...part.refs.slice(part.refs.lastIndexOf(target.pointer)), target.pointer];
  scope.lose(
    part,
    keyword,
    'weakened',
    `recursive $ref cycle ${cycle.map((pointer) => `#${pointer}`).join(' -> ')} cut after ` +
      `${ctx.limits.maxRefDepth} expansions: deeper levels keep only the type`,
  );
  visit({ node: target.node, pointer: target.pointer, refs: part.refs, only: CUT_KEEPS });
}
