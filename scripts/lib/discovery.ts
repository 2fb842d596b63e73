/**
 * Google API discovery documents to JSON Schema 2020-12.
 *
 * A discovery document describes each message under `schemas`, with discovery's own dialect:
 * `type: "any"`, int64 as `type: "string", format: "int64"`, bytes as `format: "byte"`,
 * references as bare names. This module reads that dialect; it copies no prose.
 */
import { isJsonObject, type JsonObject, refsIn } from './canonical-json.js';
import { SyncInputError } from './sync-error.js';

/** The facts a discovery document contributes. */
export interface DiscoveryDocument {
  id: string;
  revision: string;
  schemas: Record<string, JsonObject>;
}

/** Reads and checks the parts of a discovery document we rely on. */
export function readDiscovery(input: string, value: unknown): DiscoveryDocument {
  if (!isJsonObject(value) || value.kind !== 'discovery#restDescription') {
    throw new SyncInputError(
      input,
      'not a Google API discovery document (kind must be "discovery#restDescription")',
    );
  }
  const { id, revision, schemas } = value;
  if (typeof id !== 'string' || typeof revision !== 'string' || !isJsonObject(schemas)) {
    throw new SyncInputError(input, 'discovery document lacks "id", "revision" or "schemas"');
  }
  const checked: Record<string, JsonObject> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    if (!isJsonObject(schema)) throw new SyncInputError(input, `schemas.${name} is not an object`);
    checked[name] = schema;
  }
  return { id, revision, schemas: checked };
}

/**
 * The names reachable from `roots` through `$ref`s. A reference to a schema the document does
 * not define is an error naming both ends, unless `supplied` provides it.
 */
export function referenceClosure(
  input: string,
  schemas: Record<string, JsonObject>,
  roots: readonly string[],
): string[] {
  const seen = new Set<string>();
  const pending = roots.map((name) => ({ name, from: '(requested)' }));
  while (pending.length > 0) {
    const { name, from } = pending.pop()!;
    if (seen.has(name)) continue;
    const schema = schemas[name];
    if (schema === undefined) {
      throw new SyncInputError(
        input,
        `$ref to nowhere: "${name}" (referenced from ${from}) is not defined`,
      );
    }
    seen.add(name);
    for (const ref of refsIn(schema)) pending.push({ name: ref, from: name });
  }
  return [...seen].sort();
}

const INT_BOUNDS: Record<string, [number, number]> = {
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

/** Proto3 JSON accepts standard and URL-safe base64, padded or not. */
const BASE64_PATTERN = '^[A-Za-z0-9+/_-]*={0,2}$';
/** int64 and uint64 travel as decimal strings in proto3 JSON. */
const INT64_PATTERN = '^-?[0-9]+$';

/** How a converted schema refers to another named schema. */
export type RefWriter = (name: string) => string;

function convertString(schema: JsonObject): JsonObject {
  const out: JsonObject = { type: 'string' };
  if (Array.isArray(schema.enum)) out.enum = schema.enum;
  if (schema.format === 'int64' || schema.format === 'uint64') out.pattern = INT64_PATTERN;
  if (schema.format === 'byte') {
    out.contentEncoding = 'base64';
    out.pattern = BASE64_PATTERN;
  }
  return out;
}

/**
 * Converts one discovery schema (a message or a field) to JSON Schema, the write contract: objects
 * that have declared properties are closed (`additionalProperties: false`), as the API rejects
 * unknown names. The tolerant read twins are derived from it (scripts/lib/read-rule.ts).
 */
export function convertDiscoverySchema(schema: JsonObject, ref: RefWriter): JsonObject {
  const out = convertType(schema, ref);
  if (schema.readOnly === true) out.readOnly = true;
  if (schema.deprecated === true) out.deprecated = true;
  return out;
}

function convertType(schema: JsonObject, ref: RefWriter): JsonObject {
  if (typeof schema.$ref === 'string') return { $ref: ref(schema.$ref) };
  switch (schema.type) {
    case 'any':
      return {};
    case 'string':
      return convertString(schema);
    case 'boolean':
      return { type: 'boolean' };
    case 'number':
      return { type: 'number' };
    case 'integer': {
      const bounds = INT_BOUNDS[String(schema.format)];
      return bounds
        ? { type: 'integer', minimum: bounds[0], maximum: bounds[1] }
        : { type: 'integer' };
    }
    case 'array':
      return {
        type: 'array',
        items: isJsonObject(schema.items) ? convertDiscoverySchema(schema.items, ref) : {},
      };
    case 'object':
      return convertObject(schema, ref);
    default:
      throw new Error(`unknown discovery type ${JSON.stringify(schema.type)}`);
  }
}

function convertObject(schema: JsonObject, ref: RefWriter): JsonObject {
  const out: JsonObject = { type: 'object' };
  if (isJsonObject(schema.properties)) {
    const properties: JsonObject = {};
    for (const [key, value] of Object.entries(schema.properties)) {
      if (isJsonObject(value)) properties[key] = convertDiscoverySchema(value, ref);
    }
    out.properties = properties;
    out.additionalProperties = false;
  }
  const extra = schema.additionalProperties;
  if (isJsonObject(extra) && extra.type !== 'any') {
    out.additionalProperties = convertDiscoverySchema(extra, ref);
  }
  return out;
}
