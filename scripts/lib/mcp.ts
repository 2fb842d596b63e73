/**
 * Builds the MCP schema files from the specification's schema for several protocol versions.
 * What we read from servers must accept every supported version, so each definition is the
 * field-level union of its versions: properties of any version, required only where every version
 * requires, differing field schemas as `anyOf`, and never closed to unknown fields. A field one
 * version defines and another leaves to its explicit `additionalProperties` (2026-07-28's
 * `outputSchema` drops the `type: "object"` rule that way) takes the union of both.
 *
 * An extension's schema (the tasks extension, `io.modelcontextprotocol/tasks`) holds its own
 * definitions beside copies of the core's: its own are added as they are (never merged with a
 * same-named definition of an older core version, such as 2025-11-25's experimental tasks, a
 * different wire format), and what it references of the core is the core's union.
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

/**
 * Shapes of an older version the newest one dropped, still read from servers that speak it:
 * 2025-11-25's experimental tasks (a task-augmented tools/call, `tasks/get`), which 2026-07-28
 * moved into the tasks extension in another form.
 */
const MCP_LEGACY_ROOTS = ['Task'] as const;

/**
 * The shapes each MCP extension we follow contributes, by extension identifier; what they
 * reference comes along.
 */
const MCP_EXTENSION_ROOTS: Readonly<Record<string, readonly string[]>> = {
  // SEP-2663: a task handle in place of a tools/call result, and tasks/get's answer.
  'io.modelcontextprotocol/tasks': ['CreateTaskResult', 'GetTaskResult'],
};

/** One extension's schema, read. */
export interface McpExtension {
  input: string;
  /** The extension identifier, e.g. `io.modelcontextprotocol/tasks`. */
  identifier: string;
  definitions: Record<string, JsonObject>;
}

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

/** Reads one MCP extension's schema; it must define the shapes {@link MCP_EXTENSION_ROOTS} names. */
export function readMcpExtensionSchema(
  input: string,
  identifier: string,
  value: unknown,
): McpExtension {
  const roots = MCP_EXTENSION_ROOTS[identifier];
  if (roots === undefined) {
    throw new SyncInputError(
      input,
      `no shapes are followed for the extension "${identifier}" (known: ${Object.keys(MCP_EXTENSION_ROOTS).join(', ')})`,
    );
  }
  const definitions = isJsonObject(value) ? (value.$defs ?? value.definitions) : undefined;
  const missing = roots.find(
    (root) => !isJsonObject(definitions) || !isJsonObject(definitions[root]),
  );
  if (!isJsonObject(definitions) || missing !== undefined) {
    throw new SyncInputError(
      input,
      `not the schema of the extension "${identifier}" (no $defs/definitions with ${missing ?? roots[0]})`,
    );
  }
  const checked: Record<string, JsonObject> = {};
  for (const [name, schema] of Object.entries(definitions)) {
    if (isJsonObject(schema)) checked[name] = normalize(schema) as JsonObject;
  }
  return { input, identifier, definitions: checked };
}

/**
 * What an extension adds: its own definitions the roots reach (by name), and the core
 * definitions they reference, which the core's union supplies (`coreRoots`).
 */
function extensionClosure(
  extension: McpExtension,
  core: McpVersion,
): { own: Map<string, JsonObject>; coreRoots: string[] } {
  const own = new Map<string, JsonObject>();
  const coreRoots = new Set<string>();
  const pending = (MCP_EXTENSION_ROOTS[extension.identifier] ?? []).map((name) => ({
    name,
    from: '(requested)',
  }));
  while (pending.length > 0) {
    const { name, from } = pending.pop()!;
    if (own.has(name) || coreRoots.has(name)) continue;
    if (core.definitions[name] !== undefined) {
      coreRoots.add(name);
      continue;
    }
    const schema = extension.definitions[name];
    if (!schema) {
      throw new SyncInputError(
        extension.input,
        `$ref to nowhere: "${name}" (referenced from ${from}) is defined neither here nor in MCP ${core.protocolVersion}`,
      );
    }
    own.set(name, schema);
    for (const ref of refsIn(schema))
      pending.push({ name: ref.replace(/\.schema\.json$/, ''), from: name });
  }
  return { own, coreRoots: [...coreRoots] };
}

function closure(version: McpVersion, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const pending: { name: string; from: string }[] = roots
    .filter((root) => version.definitions[root])
    .map((name) => ({ name, from: '(requested)' }));
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

/**
 * The MCP schema files: the union of the given versions (sorted oldest to newest), and the shapes
 * of the given extensions.
 */
export function buildMcpSchemas(
  versions: McpVersion[],
  extensions: readonly McpExtension[] = [],
): SchemaFile[] {
  const ordered = [...versions].sort((a, b) => (a.protocolVersion < b.protocolVersion ? -1 : 1));
  const newest = ordered.at(-1);
  const added = newest === undefined ? [] : extensions.map((e) => extensionClosure(e, newest));
  const roots = [...MCP_ROOTS, ...MCP_LEGACY_ROOTS, ...added.flatMap((a) => a.coreRoots)];
  // To a fixed point: a name one version reaches brings what every version's definition of it
  // references (2025-06-18's PrimitiveSchemaDefinition names an EnumSchema later ones dropped).
  const names = new Set<string>();
  for (let size = -1; names.size !== size; ) {
    size = names.size;
    const reached = [...roots, ...names];
    for (const version of ordered) for (const name of closure(version, reached)) names.add(name);
  }
  const own = new Map<string, JsonObject>();
  for (const [index, { own: theirs }] of added.entries()) {
    for (const [name, schema] of theirs) {
      if (names.has(name) || own.has(name)) {
        throw new SyncInputError(
          extensions[index]!.input,
          `defines "${name}", a name the MCP schemas (or another extension) already use`,
        );
      }
      own.set(name, schema);
    }
  }
  for (const root of MCP_ROOTS) {
    if (newest && !newest.definitions[root]) {
      throw new SyncInputError(newest.input, `lacks the definition "${root}"`);
    }
  }
  const coreFiles = [...names].sort().map((name) => {
    const merged = openUp(
      merge(
        ordered.flatMap((version) =>
          version.definitions[name] ? [version.definitions[name]] : [],
        ),
      ),
    ) as JsonObject;
    return makeSchemaFile('mcp', name, merged, MCP_DESCRIPTIONS[name]);
  });
  const extensionFiles = [...own]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, schema]) =>
      makeSchemaFile('mcp', name, openUp(schema) as JsonObject, MCP_DESCRIPTIONS[name]),
    );
  return [...coreFiles, ...extensionFiles];
}
