/**
 * Builds the MCP schema files from the specification's schema for several protocol versions.
 * What we read from servers must accept every supported version, so each definition is the
 * field-level union of its versions: properties of any version, required only where every version
 * requires, differing field schemas as `anyOf`, and never closed to unknown fields. A field one
 * version defines and another leaves to its explicit `additionalProperties` (2026-07-28's
 * `outputSchema` drops the `type: "object"` rule that way) takes the union of both.
 */
import { isJsonObject, type Json, type JsonObject, jsonEqual, refsIn } from './canonical-json.js';
import { MCP_DESCRIPTIONS } from './descriptions.js';
import { makeSchemaFile, type SchemaFile } from './schema-set.js';
import { SyncInputError } from './sync-error.js';

/** The MCP shapes the project extracts; what they reference comes along. */
export const MCP_ROOTS = [
  'Tool',
  'ListToolsResult',
  'CallToolRequestParams',
  'CallToolResult',
  'ContentBlock',
  'TextContent',
  'ImageContent',
  'AudioContent',
  'ResourceLink',
  'EmbeddedResource',
  'TextResourceContents',
  'BlobResourceContents',
  // Sampling (sampling/createMessage, served by the client; tools in it since 2025-11-25).
  'CreateMessageRequest',
  'CreateMessageRequestParams',
  'CreateMessageResult',
  'SamplingMessage',
  'ToolUseContent',
  'ToolResultContent',
  // Resources (resources/list, resources/templates/list, resources/read, completion/complete).
  'Resource',
  'ResourceTemplate',
  'ListResourcesResult',
  'ListResourceTemplatesResult',
  'ReadResourceRequestParams',
  'ReadResourceResult',
  'ResourceUpdatedNotificationParams',
  'CompleteRequestParams',
  // Prompts (prompts/list, prompts/get) and the completion of their arguments (completion/complete).
  'ListPromptsResult',
  'GetPromptResult',
  'CompleteResult',
] as const;

/** One version's specification schema, read. */
export interface McpVersion {
  input: string;
  protocolVersion: string;
  definitions: Record<string, JsonObject>;
}

const DEFINITION_REF = /^#\/(?:definitions|\$defs)\/(.+)$/;
const ANNOTATIONS = new Set(['description', '$comment', 'examples']);

/** Reads one MCP specification schema; the version comes from `VERSION=path` or a date in the name. */
export function readMcpSchema(input: string, protocolVersion: string, value: unknown): McpVersion {
  if (!isJsonObject(value))
    throw new SyncInputError(input, 'not a JSON Schema document (an object)');
  const definitions = value.$defs ?? value.definitions;
  if (!isJsonObject(definitions) || !isJsonObject(definitions.CallToolResult)) {
    throw new SyncInputError(
      input,
      'not an MCP specification schema (no $defs/definitions with CallToolResult)',
    );
  }
  const checked: Record<string, JsonObject> = {};
  for (const [name, schema] of Object.entries(definitions)) {
    if (isJsonObject(schema)) checked[name] = normalize(schema) as JsonObject;
  }
  return { input, protocolVersion, definitions: checked };
}

/** Drops prose and rewrites local definition references to our file names. */
function normalize(node: Json): Json {
  if (Array.isArray(node)) return node.map(normalize);
  if (!isJsonObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key) && (key !== 'description' || typeof value === 'string')) continue;
    if (key === '$ref' && typeof value === 'string') {
      const local = DEFINITION_REF.exec(value);
      out.$ref = local ? `${local[1]}.schema.json` : value;
    } else out[key] = normalize(value);
  }
  return out;
}

function closure(version: McpVersion): Set<string> {
  const seen = new Set<string>();
  const pending: { name: string; from: string }[] = MCP_ROOTS.filter(
    (root) => version.definitions[root],
  ).map((name) => ({ name, from: '(requested)' }));
  while (pending.length > 0) {
    const { name, from } = pending.pop()!;
    if (seen.has(name)) continue;
    const schema = version.definitions[name];
    if (!schema) {
      throw new SyncInputError(
        version.input,
        `$ref to nowhere: "${name}" (referenced from ${from}) is not defined`,
      );
    }
    seen.add(name);
    for (const ref of refsIn(schema))
      pending.push({ name: ref.replace(/\.schema\.json$/, ''), from: name });
  }
  return seen;
}

function isPlainObjectSchema(schema: Json): schema is JsonObject {
  return isJsonObject(schema) && schema.type === 'object' && isJsonObject(schema.properties);
}

function distinct(variants: Json[]): Json[] {
  return variants.filter(
    (variant, index) => variants.findIndex((other) => jsonEqual(other, variant)) === index,
  );
}

/** Whether a schema accepts every value (`{}` or `true`). */
const acceptsAll = (schema: Json): boolean =>
  schema === true || (isJsonObject(schema) && Object.keys(schema).length === 0);

/** Merges the versions of one schema, newest last. */
function merge(variants: Json[]): Json {
  const unique = distinct(variants);
  if (unique.length === 1) return unique[0]!;
  if (unique.some(acceptsAll)) return {};
  if (unique.every(isPlainObjectSchema)) return mergeObjects(unique);
  const enums = unique.filter(
    (v) => isJsonObject(v) && Array.isArray(v.enum) && Object.keys(v).length <= 2,
  );
  if (
    enums.length === unique.length &&
    distinct(unique.map((v) => (v as JsonObject).type ?? null)).length === 1
  ) {
    const values = distinct(unique.flatMap((v) => (v as JsonObject).enum as Json[]));
    return { ...(unique.at(-1) as JsonObject), enum: values };
  }
  return { anyOf: unique };
}

function mergeObjects(variants: JsonObject[]): JsonObject {
  const newest = variants.at(-1)!;
  const keys = new Set(
    variants.flatMap((variant) => Object.keys(variant.properties as JsonObject)),
  );
  const properties: JsonObject = {};
  for (const key of [...keys].sort()) {
    properties[key] = merge(
      variants.flatMap((variant) => {
        const value = (variant.properties as JsonObject)[key];
        if (value !== undefined) return [value];
        // A version without the field: what its explicit `additionalProperties` allows there.
        const extra = variant.additionalProperties;
        return extra === undefined || extra === false ? [] : [extra];
      }),
    );
  }
  const requiredSets = variants.map(
    (variant) => new Set(Array.isArray(variant.required) ? variant.required : []),
  );
  const required = [...(requiredSets.at(-1) ?? [])].filter((key) =>
    requiredSets.every((set) => set.has(key)),
  );
  const { required: _dropped, ...rest } = newest;
  return { ...rest, properties, ...(required.length > 0 ? { required: required.sort() } : {}) };
}

/** Tolerant reading: nothing we read from a server is closed to fields a later version adds. */
function openUp(node: Json): Json {
  if (Array.isArray(node)) return node.map(openUp);
  if (!isJsonObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = openUp(value);
  }
  return out;
}

/** The MCP schema files: the union of the given versions (sorted oldest to newest). */
export function buildMcpSchemas(versions: McpVersion[]): SchemaFile[] {
  const ordered = [...versions].sort((a, b) => (a.protocolVersion < b.protocolVersion ? -1 : 1));
  const names = new Set<string>();
  for (const version of ordered) for (const name of closure(version)) names.add(name);
  const newest = ordered.at(-1);
  for (const root of MCP_ROOTS) {
    if (newest && !newest.definitions[root]) {
      throw new SyncInputError(newest.input, `lacks the definition "${root}"`);
    }
  }
  return [...names].sort().map((name) => {
    const merged = openUp(
      merge(
        ordered.flatMap((version) =>
          version.definitions[name] ? [version.definitions[name]] : [],
        ),
      ),
    ) as JsonObject;
    return makeSchemaFile('mcp', name, merged, MCP_DESCRIPTIONS[name]);
  });
}
