/** A field-level report of what a sync changes in `schemas/`. */
import { isJsonObject, type Json, type JsonObject } from './canonical-json.js';

/** One field as the report sees it. */
interface FieldShape {
  type: string;
  enum: string[];
}

/** One change the report lists. */
export interface SchemaChange {
  /** The schema file below `schemas/`, e.g. `gemini/Part.schema.json`. */
  file: string;
  /** The generated type the schema gives (its `title`), before or after the change. */
  typeName: string;
  /** The change as one line: `gemini/Part.text: field removed`. */
  text: string;
}

function typeOf(schema: JsonObject): string {
  if (typeof schema.$ref === 'string') return `$ref ${schema.$ref}`;
  if (Array.isArray(schema.anyOf)) return `anyOf(${schema.anyOf.length})`;
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.join('|');
  return 'any';
}

function collect(schema: Json, path: string, out: Map<string, FieldShape>): void {
  if (!isJsonObject(schema)) return;
  out.set(path, {
    type: typeOf(schema),
    enum: Array.isArray(schema.enum) ? schema.enum.map((value) => JSON.stringify(value)) : [],
  });
  if (isJsonObject(schema.properties)) {
    for (const [key, value] of Object.entries(schema.properties))
      collect(value, `${path}.${key}`, out);
  }
  if (isJsonObject(schema.items)) collect(schema.items, `${path}[]`, out);
  if (isJsonObject(schema.additionalProperties))
    collect(schema.additionalProperties, `${path}{}`, out);
}

function requiredOf(schema: JsonObject): Set<string> {
  return new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
}

const schemaName = (file: string): string => file.replace(/\.schema\.json$/, '');

/** Parses a tree of schema texts; a file that is not a JSON object is left out (seen as removed). */
export function parseTree(tree: Map<string, string>): Map<string, JsonObject> {
  const parsed = new Map<string, JsonObject>();
  for (const [file, text] of tree) {
    try {
      const value: unknown = JSON.parse(text);
      if (isJsonObject(value)) parsed.set(file, value);
    } catch {
      // an unparsable old file shows up as removed and re-added
    }
  }
  return parsed;
}

/** Every change between two versions of `schemas/` (path below `schemas/` to parsed schema). */
export function schemaChanges(
  before: Map<string, JsonObject>,
  after: Map<string, JsonObject>,
): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const files = [...new Set([...before.keys(), ...after.keys()])]
    .filter((f) => f !== 'manifest.json')
    .sort();
  for (const file of files) {
    const old = before.get(file);
    const now = after.get(file);
    const name = schemaName(file);
    const title = (now ?? old)?.title;
    const typeName = typeof title === 'string' ? title : name;
    const lines = !old
      ? [`+ schema ${name}`]
      : !now
        ? [`- schema ${name}`]
        : fieldChanges(name, old, now);
    for (const text of lines) changes.push({ file, typeName, text });
  }
  return changes;
}

/** Compares two versions of `schemas/`: one line per change. */
export function changeReport(
  before: Map<string, JsonObject>,
  after: Map<string, JsonObject>,
): string[] {
  return schemaChanges(before, after).map((change) => change.text);
}

function fieldChanges(name: string, old: JsonObject, now: JsonObject): string[] {
  const lines: string[] = [];
  const oldFields = new Map<string, FieldShape>();
  const newFields = new Map<string, FieldShape>();
  collect(old, name, oldFields);
  collect(now, name, newFields);
  for (const path of [...new Set([...oldFields.keys(), ...newFields.keys()])].sort()) {
    const a = oldFields.get(path);
    const b = newFields.get(path);
    if (!a) lines.push(`${path}: field added (${b!.type})`);
    else if (!b) lines.push(`${path}: field removed`);
    else {
      if (a.type !== b.type) lines.push(`${path}: type ${a.type} -> ${b.type}`);
      const added = b.enum.filter((v) => !a.enum.includes(v));
      const removed = a.enum.filter((v) => !b.enum.includes(v));
      if (added.length > 0) lines.push(`${path}: enum values added ${added.join(', ')}`);
      if (removed.length > 0) lines.push(`${path}: enum values removed ${removed.join(', ')}`);
    }
  }
  const oldRequired = requiredOf(old);
  const newRequired = requiredOf(now);
  for (const key of newRequired)
    if (!oldRequired.has(key)) lines.push(`${name}.${key}: now required`);
  for (const key of oldRequired)
    if (!newRequired.has(key)) lines.push(`${name}.${key}: no longer required`);
  return lines;
}
