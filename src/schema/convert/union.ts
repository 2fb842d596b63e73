/**
 * `anyOf`/`oneOf`. The union's siblings are distributed into every branch (A ∧ (B ∨ C) is
 * (A ∧ B) ∨ (A ∧ C)), so each branch is a complete Gemini node; a null branch becomes
 * `nullable`; branches that accept nothing disappear; one remaining branch stands alone; string
 * enum branches merge into one enum. `oneOf` becomes `anyOf`, reported as weakened unless its
 * branches provably exclude each other (different types, disjoint enums or ranges, or a shared
 * required discriminator).
 */

import type { Schema } from '../../generated/types.js';
import type { Conjunct } from '../keywords.js';
import {
  canonicalJson,
  jsonEqual,
  KW,
  conjunct as makeConjunct,
  read,
  Unsatisfiable,
  without,
} from '../keywords.js';
import { childPointer } from '../refs.js';
import { ANNOTATION_KEYS, descriptionOf, type Found } from './annotations.js';
import { plus } from './lists.js';
import type { NodeScope } from './scope.js';

/** The first union of a conjunction. */
export interface Union {
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
export function findUnion(scope: NodeScope, conjuncts: readonly Conjunct[]): Union | undefined {
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
export function convertUnion(
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
      schema = scope.convertChild(plus(rest, branch), depth + 1);
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
export function markNullable(schema: Schema): void {
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
