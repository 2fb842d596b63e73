/**
 * ARRAY nodes. Gemini requires `items` and has no tuples: positional schemas (`prefixItems`, or
 * draft-7 array `items`) are merged into one `items` union, and an array without `items` gets
 * the most permissive `items` Gemini can say.
 */

import type { Schema } from '../../generated/types.js';
import type { Conjunct } from '../keywords.js';
import { conjunct as makeConjunct, read, Unsatisfiable } from '../keywords.js';
import { childPointer } from '../refs.js';
import type { EnumValues } from '../scalars.js';
import { countBounds, ITEM_COUNT, int64, typedNode, weakenEnum } from '../scalars.js';
import { ANY_SCALAR_OR_OBJECT_NODES, anyScalarOrObject } from './any.js';
import { append } from './lists.js';
import type { NodeScope } from './scope.js';

/** An ARRAY node for the conjunction `conjuncts`, at `depth`. */
export function buildArray(
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
      schema.items = scope.convertChild(itemConjuncts, depth + 1);
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
