/** TypeScript types from the vendored schemas, with json-schema-to-typescript. */
import { compile } from 'json-schema-to-typescript';
import { isJsonObject, type Json, type JsonObject } from './canonical-json.js';
import type { LoadedSchema } from './schema-tree.js';

/** Validation-only constraints (which fields exclude each other) say nothing about the shape. */
function isPresenceRule(node: Json): boolean {
  if (!isJsonObject(node)) return false;
  const keys = Object.keys(node);
  if (keys.length === 1 && keys[0] === 'required') return true;
  if (keys.length === 1 && keys[0] === 'not') return isPresenceRule(node.not!);
  if (keys.length === 1 && keys[0] === 'oneOf' && Array.isArray(node.oneOf))
    return node.oneOf.every(isPresenceRule);
  return false;
}

function forTypes(node: Json, refToType: (ref: string) => string): Json {
  if (Array.isArray(node)) return node.map((child) => forTypes(child, refToType));
  if (!isJsonObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id' || key === '$schema') continue;
    if (key === '$ref' && typeof value === 'string') out.tsType = refToType(value);
    else if (key === 'allOf' && Array.isArray(value)) {
      const kept = value.filter((entry) => !isPresenceRule(entry));
      if (kept.length > 0) out.allOf = kept.map((child) => forTypes(child, refToType));
    } else if (key === 'properties' && isJsonObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, forTypes(child, refToType)]),
      );
    } else out[key] = forTypes(value, refToType);
  }
  return out;
}

/**
 * Compiles each schema on its own, its references written as the referenced type's name
 * (`tsType`), so every schema yields exactly one named type and nothing is duplicated.
 */
export async function generateTypes(schemas: readonly LoadedSchema[]): Promise<string> {
  const byId = new Map(schemas.map((s) => [s.schema.$id as string, s.typeName]));
  const units: string[] = [];
  for (const loaded of schemas) {
    const base = loaded.schema.$id as string;
    const schema = forTypes(loaded.schema, (ref) => {
      const target = byId.get(new URL(ref, base).href);
      if (!target) throw new Error(`${loaded.file}: $ref ${ref} points to no vendored schema`);
      return target;
    });
    units.push(
      await compile(schema as never, loaded.typeName, {
        bannerComment: '',
        additionalProperties: true,
        declareExternallyReferenced: false,
        strictIndexSignatures: false,
        format: false,
      }),
    );
  }
  return units.join('\n');
}
