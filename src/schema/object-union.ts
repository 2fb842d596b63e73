/**
 * Gemini's `parameters` must be one OBJECT, but a tool may take "these fields or those" (a root
 * `anyOf`/`oneOf` of objects, or a union distributed over the root's properties). Such a union
 * is merged into one OBJECT: every property of any branch, each property's schemas joined by
 * `anyOf`, and required only what every branch requires. That accepts more than the union did,
 * so the caller reports it as weakened.
 */
import type { Schema } from '../generated/types.js';
import { canonicalJson } from './kinds.js';

/** The OBJECT a root union of objects merges into, or `undefined` when `schema` is not one. */
export function mergeObjectUnion(schema: Schema): Schema | undefined {
  const branches = schema.anyOf;
  if (
    schema.type !== undefined ||
    branches === undefined ||
    !branches.every((b) => b.type === 'OBJECT')
  ) {
    return undefined;
  }
  const byName = new Map<string, Map<string, Schema>>();
  for (const branch of branches) {
    for (const [name, property] of Object.entries(branch.properties ?? {})) {
      const variants = byName.get(name) ?? new Map<string, Schema>();
      for (const variant of property.anyOf !== undefined && Object.keys(property).length === 1
        ? property.anyOf
        : [property]) {
        variants.set(canonicalJson(variant), variant);
      }
      byName.set(name, variants);
    }
  }
  const properties: Record<string, Schema> = {};
  for (const [name, variants] of byName) {
    const list = [...variants.values()];
    const value = list.length === 1 ? (list[0] as Schema) : { anyOf: list };
    Object.defineProperty(properties, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const merged: Schema = { type: 'OBJECT' };
  const names = Object.keys(properties);
  if (names.length > 0) merged.properties = properties;
  if (names.length > 1) merged.propertyOrdering = names;
  const required = (branches[0]?.required ?? []).filter((name) =>
    branches.every((branch) => branch.required?.includes(name) === true),
  );
  if (required.length > 0) merged.required = required;
  for (const key of ['title', 'description', 'default', 'example'] as const) {
    if (Object.hasOwn(schema, key)) merged[key] = schema[key] as never;
  }
  return merged;
}
