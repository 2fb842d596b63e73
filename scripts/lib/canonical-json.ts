/** Deterministic JSON: sorted keys, two-space indent, LF, trailing newline; and hashing. */
import { createHash } from 'node:crypto';

/** A JSON value as the schema scripts handle it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const sorted: JsonObject = {};
    for (const key of Object.keys(value).sort()) sorted[key] = sortKeys(value[key] as Json);
    return sorted;
  }
  return value;
}

/** Serialises with sorted keys, so that equal values always give equal bytes. */
export function canonicalJson(value: Json): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/** Hex sha256 of a string or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** True when a value is a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Structural equality of two JSON values, key order ignored. */
export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}

/** Every `$ref` string found anywhere in a JSON value. */
export function refsIn(node: Json): Set<string> {
  const found = new Set<string>();
  const walk = (value: Json): void => {
    if (Array.isArray(value)) {
      for (const child of value) walk(child);
    } else if (isJsonObject(value)) {
      if (typeof value.$ref === 'string') found.add(value.$ref);
      for (const child of Object.values(value)) walk(child);
    }
  };
  walk(node);
  return found;
}
