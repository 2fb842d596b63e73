/**
 * Test helpers for the schema converter: deep-freezing inputs, mapping a Gemini Schema back to
 * JSON Schema (for semantic checks with ajv), sampling instances of a Gemini Schema, and reading
 * a JSON pointer.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Schema } from '../../src/generated/types.js';

/** Freezes `value` and everything in it, so a mutation throws (ESM code is strict). */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item === null || typeof item !== 'object' || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const child of Object.values(item)) stack.push(child);
  }
  return value;
}

/** The value at a JSON pointer, or `undefined` when it leads nowhere. */
export function atPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  STRING: 'string',
  NUMBER: 'number',
  INTEGER: 'integer',
  BOOLEAN: 'boolean',
  ARRAY: 'array',
  OBJECT: 'object',
  NULL: 'null',
};

/** The JSON Schema a Gemini Schema means (format left out: it is advisory). */
export function toJsonSchema(schema: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (schema.anyOf !== undefined) {
    out.anyOf = schema.anyOf.map(toJsonSchema);
    if (schema.nullable === true) (out.anyOf as unknown[]).push({ type: 'null' });
  }
  if (schema.type !== undefined && schema.type !== 'TYPE_UNSPECIFIED') {
    const name = TYPE_NAMES[schema.type] as string;
    out.type = schema.nullable === true && name !== 'null' ? [name, 'null'] : name;
  }
  if (schema.enum !== undefined)
    out.enum = schema.nullable === true ? [...schema.enum, null] : schema.enum;
  for (const key of [
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
    'minProperties',
    'maxProperties',
  ] as const) {
    if (schema[key] !== undefined) out[key] = Number(schema[key]);
  }
  for (const key of ['minimum', 'maximum', 'pattern'] as const) {
    if (schema[key] !== undefined) out[key] = schema[key];
  }
  if (schema.items !== undefined) out.items = toJsonSchema(schema.items);
  if (schema.properties !== undefined) {
    const properties: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(schema.properties)) {
      Object.defineProperty(properties, name, { value: toJsonSchema(sub), enumerable: true });
    }
    out.properties = properties;
  }
  if (schema.required !== undefined) out.required = schema.required;
  return out;
}

/** An ajv for draft 2020-12 that ignores unknown keywords and formats. */
export function makeAjv(): Ajv2020 {
  return new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
}

/** A small seeded PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value that follows `schema` in most cases (patterns are not honoured), sometimes with an extra property. */
export function sampleInstance(schema: Schema, random: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  if (schema.nullable === true && random() < 0.2) return null;
  if (schema.anyOf !== undefined && schema.anyOf.length > 0)
    return sampleInstance(pick(schema.anyOf), random, depth);
  switch (schema.type) {
    case 'STRING': {
      if (schema.enum !== undefined && schema.enum.length > 0) return pick(schema.enum);
      const min = Number(schema.minLength ?? 0);
      const max = Math.min(Number(schema.maxLength ?? min + 4), min + 4);
      return 'abcdefgh'.slice(0, min + Math.floor(random() * (max - min + 1)));
    }
    case 'INTEGER':
    case 'NUMBER': {
      const min = schema.minimum ?? (schema.maximum ?? 0) - 10;
      const max = schema.maximum ?? min + 10;
      const roll = random();
      // The bounds themselves half of the time: that is where off-by-one losses show.
      const value = roll < 0.25 ? min : roll < 0.5 ? max : min + random() * (max - min);
      return schema.type === 'INTEGER' ? Math.min(Math.ceil(value), Math.floor(max)) : value;
    }
    case 'BOOLEAN':
      return random() < 0.5;
    case 'NULL':
      return null;
    case 'ARRAY': {
      const min = Number(schema.minItems ?? 0);
      const max = Math.min(Number(schema.maxItems ?? min + 2), min + 2);
      const length = depth > 4 ? min : min + Math.floor(random() * (max - min + 1));
      return Array.from({ length }, () =>
        schema.items ? sampleInstance(schema.items, random, depth + 1) : null,
      );
    }
    case 'OBJECT': {
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(schema.properties ?? {})) {
        if ((schema.required ?? []).includes(name) || (depth < 4 && random() < 0.5)) {
          Object.defineProperty(out, name, {
            value: sampleInstance(sub, random, depth + 1),
            enumerable: true,
          });
        }
      }
      if (random() < 0.2) out.zz_extra = 1;
      return out;
    }
    default:
      return pick(['x', 1, true, null, {}, []]);
  }
}
