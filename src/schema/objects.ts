/**
 * OBJECT nodes: properties (merged across the conjunction, in source order, which also gives
 * `propertyOrdering`), required, property counts. A property that accepts nothing is left out;
 * a required name without a schema gets "any value"; names Gemini may refuse are reported.
 */
import type { Schema } from '../generated/types.js';
import { ANY_VALUE_NODES, anyValue } from './any-value.js';
import { countBounds, int64 } from './bounds.js';
import type { Scope } from './context.js';
import { GEMINI_PROPERTY_NAME } from './keywords.js';
import type { Part } from './parts.js';
import { isObject, read, Unsatisfiable } from './parts.js';
import { childPointer } from './pointer.js';
import type { EnumIssues } from './scalars.js';

/** An OBJECT node for the conjunction `parts`, at `depth`. */
export function buildObject(
  scope: Scope,
  parts: readonly Part[],
  depth: number,
  values: readonly unknown[] | undefined,
  issues: EnumIssues,
): Schema {
  if (values?.some(isObject)) {
    issues.weakened.push(
      'objects cannot be listed in a Gemini enum: any object of the type is accepted',
    );
  }
  const byName = new Map<string, Part[]>();
  for (const part of parts) {
    const properties = read(part, 'properties');
    if (properties === undefined) continue;
    if (!isObject(properties)) {
      scope.lose(part, 'properties', 'dropped', 'not an object of schemas');
      continue;
    }
    for (const [name, node] of Object.entries(properties)) {
      if (node === undefined) continue;
      const list = byName.get(name) ?? [];
      list.push({ node, pointer: childPointer(part.pointer, 'properties', name), refs: part.refs });
      byName.set(name, list);
    }
  }
  const required = readRequired(scope, parts);
  const properties: Record<string, Schema> = {};
  for (const [name, list] of byName) {
    const at = list[0] as Part;
    try {
      define(properties, name, scope.ctx.convert(list, depth + 1));
    } catch (error) {
      if (!(error instanceof Unsatisfiable)) throw error;
      if (required.has(name)) throw error;
      scope.lose(
        at,
        'properties',
        'dropped',
        `property "${name}" accepts no value: left out, so it is not forbidden`,
      );
      continue;
    }
    if (!GEMINI_PROPERTY_NAME.test(name)) {
      scope.lose(
        at,
        'properties',
        'weakened',
        `property name "${name}" kept, but Gemini's reference allows only letters, digits and _ (at most 64): the API may refuse it`,
      );
    }
  }
  const missing = [...required.keys()].filter((name) => !byName.has(name));
  for (const name of missing) {
    scope.ctx.budget.spend(required.get(name)?.pointer ?? '', ANY_VALUE_NODES);
    define(properties, name, anyValue());
  }
  if (missing.length > 0) {
    scope.lose(
      required.get(missing[0] as string) as Part,
      'required',
      'rewritten',
      `required without a schema (${missing.map((name) => `"${name}"`).join(', ')}): declared as any value`,
    );
  }
  const schema: Schema = { type: 'OBJECT' };
  const names = Object.keys(properties);
  if (names.length > 0) schema.properties = properties;
  if (names.length > 1) schema.propertyOrdering = names;
  const kept = [...required.keys()].filter((name) => Object.hasOwn(properties, name));
  if (kept.length > 0) schema.required = kept;
  const { min, max } = countBounds(scope, parts, 'minProperties', 'maxProperties');
  if (min !== undefined) schema.minProperties = int64(min);
  if (max !== undefined) schema.maxProperties = int64(max);
  return schema;
}

/** The required names of the conjunction, each with the part that requires it. */
function readRequired(scope: Scope, parts: readonly Part[]): Map<string, Part> {
  const required = new Map<string, Part>();
  for (const part of parts) {
    const names = read(part, 'required');
    if (names === undefined) continue;
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
      scope.lose(part, 'required', 'dropped', 'not an array of property names');
      continue;
    }
    for (const name of names as string[]) if (!required.has(name)) required.set(name, part);
  }
  return required;
}

/** Sets an own, enumerable property, even one named `__proto__`. */
function define(target: Record<string, Schema>, name: string, value: Schema): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
