/**
 * The recursion: one output node from a conjunction of source parts. Expands `$ref`/`allOf`,
 * reads the annotations, then converts the first union (its siblings distributed into the
 * branches) or, without one, the typed node; finally writes the annotations and loss notes.
 */
import { GeminiMcpError } from '../errors.js';
import type { Schema } from '../generated/types.js';
import { applyAnnotations, collectAnnotations } from './annotations.js';
import type { Context } from './context.js';
import { Scope } from './context.js';
import { expand } from './expand.js';
import type { Part } from './parts.js';
import { convertTyped } from './typed.js';
import { convertUnion, findUnion } from './unions.js';

/** Converts the conjunction `input`, `depth` levels below the root. */
export function convertNode(ctx: Context, input: readonly Part[], depth: number): Schema {
  const at = input[0]?.pointer ?? '';
  if (depth > ctx.limits.maxDepth) {
    throw new GeminiMcpError(
      'SCHEMA_TOO_LARGE',
      `converted schema nested deeper than maxDepth (${ctx.limits.maxDepth})`,
      { path: at, data: { maxDepth: ctx.limits.maxDepth } },
    );
  }
  const scope = new Scope(ctx);
  const expanded = expand(scope, input);
  // A conjunction of `true`s constrains nothing; it still has a place in the source.
  const parts = expanded.length > 0 ? expanded : [{ node: {}, pointer: at, refs: [] }];
  // The work of a node grows with the source nodes merged into it: that is what is counted.
  ctx.budget.spend(at, parts.length);
  const annotations = collectAnnotations(scope, parts);
  const union = findUnion(scope, parts);
  const schema =
    union === undefined
      ? convertTyped(scope, parts, depth)
      : convertUnion(scope, parts, union, depth, annotations);
  return applyAnnotations(schema, annotations, scope);
}
