/**
 * `anyOf`/`oneOf`. The union's siblings are distributed into every branch (A ∧ (B ∨ C) is
 * (A ∧ B) ∨ (A ∧ C)), so each branch is a complete Gemini node; a null branch becomes
 * `nullable`; branches that accept nothing disappear; one remaining branch stands alone; string
 * enum branches merge into one enum. `oneOf` becomes `anyOf`, reported as weakened unless its
 * branches provably exclude each other (different types, disjoint enums or ranges, or a shared
 * required discriminator).
 */
import type { Schema } from '../generated/types.js';
import type { Annotations } from './annotations.js';
import type { Scope } from './context.js';
import { ANNOTATIONS } from './keywords.js';
import { canonicalJson } from './kinds.js';
import type { Part } from './parts.js';
import { read, skipMask, Unsatisfiable, without } from './parts.js';
import { childPointer } from './pointer.js';

/** The first union of a conjunction. */
export interface Union {
  readonly part: Part;
  readonly keyword: 'anyOf' | 'oneOf';
  readonly branches: readonly unknown[];
}

/** What a union's owner no longer says once its branches are converted. */
const WITHOUT_UNION: Readonly<Record<Union['keyword'], number>> = {
  anyOf: skipMask(['anyOf', ...ANNOTATIONS]),
  oneOf: skipMask(['oneOf', ...ANNOTATIONS]),
};
const WITHOUT_ANNOTATIONS = skipMask(ANNOTATIONS);

/** Finds the first valid `anyOf`/`oneOf` among `parts`; malformed ones are reported and skipped. */
export function findUnion(scope: Scope, parts: readonly Part[]): Union | undefined {
  for (const part of parts) {
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = read(part, keyword);
      if (branches === undefined) continue;
      if (Array.isArray(branches) && branches.length > 0) return { part, keyword, branches };
      scope.lose(part, keyword, 'dropped', 'not a non-empty array of schemas');
    }
  }
  return undefined;
}

/** Converts the conjunction `parts` whose first union is `union`; `annotations` stay on the outside. */
export function convertUnion(
  scope: Scope,
  parts: readonly Part[],
  union: Union,
  depth: number,
  annotations: Annotations,
): Schema {
  const { part: owner, keyword, branches } = union;
  const rest = parts.map((part) =>
    without(part, part === owner ? WITHOUT_UNION[keyword] : WITHOUT_ANNOTATIONS),
  );
  let nullable = false;
  const alternatives: Schema[] = [];
  branches.forEach((node, i) => {
    const pointer = owner.branchPointers?.[i] ?? childPointer(owner.pointer, keyword, i);
    const branch: Part = { node, pointer, refs: owner.refs };
    let schema: Schema;
    try {
      schema = scope.ctx.convert([...rest, branch], depth + 1);
    } catch (error) {
      if (error instanceof Unsatisfiable) return;
      throw error;
    }
    if (schema.type === 'NULL') {
      nullable = true;
      if (schema.description !== undefined && schema.description !== annotations.description) {
        scope.lose(
          branch,
          'description',
          'dropped',
          'the null branch became nullable; its description is not sent',
        );
      }
      return;
    }
    alternatives.push(...(isBareUnion(schema) ? (schema.anyOf ?? []) : [schema]));
  });
  if (keyword === 'oneOf' && !pairwiseDisjoint(alternatives, nullable)) {
    scope.lose(owner, keyword, 'weakened', 'written as anyOf: a value may match several branches');
  }
  if (alternatives.length === 0) {
    if (!nullable)
      throw new Unsatisfiable(owner.pointer, `no branch of ${keyword} accepts a value`);
    return { type: 'NULL' };
  }
  const merged = mergeAlternatives(alternatives);
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
  return schema.anyOf !== undefined && Object.keys(schema).length === 1;
}

/** Drops duplicate alternatives and merges bare string enums into the first one. */
function mergeAlternatives(alternatives: readonly Schema[]): Schema[] {
  const out: Schema[] = [];
  const seen = new Set<string>();
  let stringEnum: Schema | undefined;
  for (const alternative of alternatives) {
    const text = canonicalJson(alternative);
    if (seen.has(text)) continue;
    seen.add(text);
    const bareEnum =
      alternative.type === 'STRING' &&
      alternative.enum !== undefined &&
      Object.keys(alternative).every((key) => key === 'type' || key === 'enum');
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

/** True when no value can match two of `alternatives` (a null branch counts as one more). */
function pairwiseDisjoint(alternatives: readonly Schema[], nullBranch: boolean): boolean {
  if (nullBranch && alternatives.some((schema) => schema.nullable === true)) return false;
  return alternatives.every((a, i) => alternatives.slice(i + 1).every((b) => disjoint(a, b)));
}

function disjoint(a: Schema, b: Schema): boolean {
  if (a.type === undefined || b.type === undefined) return false;
  if (a.nullable === true && b.nullable === true) return false;
  if (a.type !== b.type) {
    const numeric = new Set(['NUMBER', 'INTEGER']);
    return !(numeric.has(a.type) && numeric.has(b.type));
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
