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
    .filter((f) => f !== 'manifest.json' && f !== LIMITS)
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

/** Compares two versions of `schemas/`: one line per change (the schemas', then the limits'). */
export function changeReport(
  before: Map<string, JsonObject>,
  after: Map<string, JsonObject>,
): string[] {
  return [
    ...schemaChanges(before, after).map((change) => change.text),
    ...limitChanges(before.get(LIMITS), after.get(LIMITS)),
  ];
}

/** The file of the API limits (written by the sync from scripts/lib/api-limits.ts). */
const LIMITS = 'limits.json';

const limitsOf = (document: JsonObject | undefined): JsonObject =>
  isJsonObject(document?.limits) ? document.limits : {};

/** The reference citations of a limit that the reference synced no longer says. */
function unfound(limit: Json | undefined): string[] {
  const sources = isJsonObject(limit) && Array.isArray(limit.sources) ? limit.sources : [];
  return sources.flatMap((source) =>
    isJsonObject(source) && source.kind === 'reference' && source.found !== true
      ? [`${String(source.document)} ${String(source.at)}: "${String(source.quote)}"`]
      : [],
  );
}

/**
 * What changes in the API limits (`schemas/limits.json`), one line each: a limit added or
 * removed, a value changed in a dialect, a cited reference text no longer (or again) found.
 */
export function limitChanges(
  before: JsonObject | undefined,
  after: JsonObject | undefined,
): string[] {
  const old = limitsOf(before);
  const now = limitsOf(after);
  const lines: string[] = [];
  for (const id of [...new Set([...Object.keys(old), ...Object.keys(now)])].sort()) {
    const a = old[id];
    const b = now[id];
    if (!isJsonObject(a)) lines.push(`limits.${id}: limit added`);
    else if (!isJsonObject(b)) lines.push(`limits.${id}: limit removed`);
    else {
      const valuesA = isJsonObject(a.value) ? a.value : {};
      const valuesB = isJsonObject(b.value) ? b.value : {};
      for (const dialect of [...new Set([...Object.keys(valuesA), ...Object.keys(valuesB)])]) {
        const x = JSON.stringify(valuesA[dialect]);
        const y = JSON.stringify(valuesB[dialect]);
        if (x !== y) lines.push(`limits.${id}.${dialect}: ${x ?? 'none'} -> ${y ?? 'none'}`);
      }
      const gone = new Set(unfound(a));
      for (const citation of unfound(b)) {
        if (!gone.has(citation))
          lines.push(`limits.${id}: the reference no longer says it: ${citation}`);
      }
      const still = new Set(unfound(b));
      for (const citation of gone) {
        if (!still.has(citation))
          lines.push(`limits.${id}: the reference says it again: ${citation}`);
      }
    }
  }
  return lines;
}

/** One warning line per reference citation of the limits in `tree` that its reference does not say. */
export function unfoundCitations(tree: Map<string, string>): string[] {
  const text = tree.get(LIMITS);
  if (text === undefined) return [];
  const limits = limitsOf(JSON.parse(text) as JsonObject);
  return Object.entries(limits).flatMap(([id, limit]) =>
    unfound(limit).map(
      (citation) =>
        `limits: ${id} cites ${citation}, which the reference synced does not say: review scripts/lib/api-limits.ts`,
    ),
  );
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
