/**
 * ARRAY nodes. Gemini requires `items` and has no tuples: positional schemas (`prefixItems`, or
 * draft-7 array `items`) are merged into one `items` union, and an array without `items` gets
 * the most permissive `items` Gemini can say.
 */
import type { Schema } from '../generated/types.js';
import { ANY_SCALAR_OR_OBJECT_NODES, anyScalarOrObject } from './any-value.js';
import { countBounds, int64 } from './bounds.js';
import type { Scope } from './context.js';
import type { Part } from './parts.js';
import { read, Unsatisfiable } from './parts.js';
import { childPointer } from './pointer.js';
import type { EnumIssues } from './scalars.js';

/** An ARRAY node for the conjunction `parts`, at `depth`. */
export function buildArray(
  scope: Scope,
  parts: readonly Part[],
  depth: number,
  values: readonly unknown[] | undefined,
  issues: EnumIssues,
): Schema {
  if (values?.some(Array.isArray)) {
    issues.weakened.push(
      'arrays cannot be listed in a Gemini enum: any array of the type is accepted',
    );
  }
  const itemParts: Part[] = [];
  let tupleMax: number | undefined;
  for (const part of parts) {
    const positional = readPositional(scope, part);
    if (positional === undefined) {
      const items = read(part, 'items');
      if (items !== undefined)
        itemParts.push({
          node: items,
          pointer: childPointer(part.pointer, 'items'),
          refs: part.refs,
        });
      continue;
    }
    const { tuple, keyword, rest, restKeyword } = positional;
    if (rest === false) tupleMax = Math.min(tupleMax ?? tuple.length, tuple.length);
    if (rest === undefined || rest === true) {
      scope.lose(
        part,
        keyword,
        'weakened',
        'positional item schemas cannot be expressed: items are not constrained',
      );
      continue;
    }
    scope.lose(
      part,
      keyword,
      'weakened',
      'positional item schemas merged into one items schema (anyOf)',
    );
    const branches = rest === false ? [...tuple] : [...tuple, rest];
    if (branches.length === 0) continue;
    itemParts.push({
      node: { anyOf: branches },
      pointer: childPointer(part.pointer, keyword),
      refs: part.refs,
      branchPointers: [
        ...tuple.map((_, i) => childPointer(part.pointer, keyword, i)),
        ...(rest === false ? [] : [childPointer(part.pointer, restKeyword)]),
      ],
    });
  }
  const counts = countBounds(scope, parts, 'minItems', 'maxItems');
  let max = tupleMax === undefined ? counts.max : Math.min(counts.max ?? tupleMax, tupleMax);
  const schema: Schema = { type: 'ARRAY' };
  if (itemParts.length > 0) {
    try {
      schema.items = scope.ctx.convert(itemParts, depth + 1);
    } catch (error) {
      if (!(error instanceof Unsatisfiable)) throw error;
      // No item can be valid: only the empty array is.
      schema.items = { type: 'STRING' };
      max = 0;
    }
  } else {
    scope.ctx.budget.spend(parts[0]?.pointer ?? '', ANY_SCALAR_OR_OBJECT_NODES);
    schema.items = anyScalarOrObject();
    if (max !== 0) reportAnyItems(scope, parts);
  }
  if (counts.min !== undefined && max !== undefined && counts.min > max) {
    throw new Unsatisfiable(parts[0]?.pointer ?? '', 'minItems exceeds the items allowed');
  }
  if (counts.min !== undefined) schema.minItems = int64(counts.min);
  if (max !== undefined) schema.maxItems = int64(max);
  return schema;
}

/** Reports the permissive `items`: of an array without them, or of "any value" (no type at all). */
function reportAnyItems(scope: Scope, parts: readonly Part[]): void {
  const declared = parts.some((part) => {
    const type = read(part, 'type');
    return type === 'array' || (Array.isArray(type) && type.includes('array'));
  });
  const first = parts[0] as Part;
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

function readPositional(scope: Scope, part: Part): Positional | undefined {
  const items = read(part, 'items');
  if (Array.isArray(items)) {
    return {
      tuple: items,
      keyword: 'items',
      rest: read(part, 'additionalItems'),
      restKeyword: 'additionalItems',
    };
  }
  const prefix = read(part, 'prefixItems');
  if (prefix === undefined) return undefined;
  if (!Array.isArray(prefix)) {
    scope.lose(part, 'prefixItems', 'dropped', 'not an array of schemas');
    return undefined;
  }
  return { tuple: prefix, keyword: 'prefixItems', rest: items, restKeyword: 'items' };
}
