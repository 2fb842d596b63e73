/**
 * The read/write rule, the one place it lives: `schemas/` holds the write contract (exact: no
 * unknown fields, known enum values only), and every shape we receive gets a generated read twin
 * derived from it here. The twins tolerate what a newer API or protocol adds; the generated
 * `readX` functions report each tolerance they use as a notice (see guards-template.ts).
 */
import { isJsonObject, type Json, type JsonObject } from './canonical-json.js';
import { SCHEMA_ID_BASE } from './schema-set.js';
import type { LoadedSchema } from './schema-tree.js';

/** The rule, as the manifest records hand rules. */
export const READ_RULE = {
  id: 'read-tolerant',
  fact:
    'What we receive (Gemini responses, Live API server messages, MCP tools, tools/list and tools/call results, sampling requests, resources and their lists, reads, updates and completions, prompts/list and prompts/get results, task handles and tasks/get results) is read with a twin ' +
    'of its schema that keeps unknown fields, accepts unknown enum values, a Part holding none of the ' +
    'data fields the revision knows and a block of a kind a union of kinds does not list (an MCP content block ' +
    'of a newer type); required fields stay required and every other rule stays.',
  source: 'DESIGN.md §2.5 (strict when we write, tolerant when we read)',
  /** The received shapes; everything they reference gets a twin too. */
  roots: [
    'gemini/GenerateContentResponse.schema.json',
    'live/BidiGenerateContentServerMessage.schema.json',
    'vertex/v1/GenerateContentResponse.schema.json',
    'vertex/v1beta1/GenerateContentResponse.schema.json',
    'mcp/Tool.schema.json',
    'mcp/ListToolsResult.schema.json',
    'mcp/CallToolResult.schema.json',
    'mcp/ContentBlock.schema.json',
    'mcp/CreateMessageRequest.schema.json',
    'mcp/ListResourcesResult.schema.json',
    'mcp/ListResourceTemplatesResult.schema.json',
    'mcp/ReadResourceResult.schema.json',
    'mcp/ResourceUpdatedNotificationParams.schema.json',
    'mcp/ListPromptsResult.schema.json',
    'mcp/GetPromptResult.schema.json',
    'mcp/CompleteResult.schema.json',
    'mcp/Task.schema.json',
    'mcp/CreateTaskResult.schema.json',
    'mcp/GetTaskResult.schema.json',
  ],
  /**
   * What we send the model: shapes these reach (Content, Part, FunctionCall, ...) are both sent
   * and received, so `validate` checks them with the write contract unless told otherwise. (To
   * servers we send a tool's name and arguments, and sampling results, whose shapes the MCP
   * union leaves open: every MCP shape with a twin is checked as received.)
   */
  sent: [
    'gemini/GenerateContentRequest.schema.json',
    'live/BidiGenerateContentClientMessage.schema.json',
    'vertex/v1/GenerateContentRequest.schema.json',
    'vertex/v1beta1/GenerateContentRequest.schema.json',
  ],
} as const;

/** The folder below `schemas/` (and `$id` base) the read twins live in; they are never written. */
const READ_FOLDER = 'read/';

/** A read twin's type name: `ReadGenerateContentResponse`, `ReadMcpTool`. */
export const readTypeName = (typeName: string): string => `Read${typeName}`;

/** `{oneOf: [{required: [a]}, {required: [b]}, ...]}`: "exactly one of these fields" (Part's data). */
function presenceBranches(node: JsonObject): JsonObject[] | undefined {
  const branches = node.oneOf;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const all = branches.every(
    (branch) =>
      isJsonObject(branch) &&
      Object.keys(branch).length === 1 &&
      Array.isArray(branch.required) &&
      branch.required.length === 1,
  );
  return all ? (branches as JsonObject[]) : undefined;
}

/**
 * The kinds a union knows, when it is a union of kinds: every branch of `anyOf` a `$ref` to an
 * object schema fixing `type` with a `const` (MCP's ContentBlock: text, image, audio, ...).
 */
export type KindsOf = (branches: readonly Json[]) => string[] | undefined;

/** The branch a union of kinds gets in its twin: an object whose `type` is a string it does not list. */
function unknownKind(kinds: readonly string[]): JsonObject {
  return {
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string', not: { enum: [...kinds] } } },
  };
}

/**
 * The tolerant twin of one schema (pure; references keep their relative form and so resolve to
 * the twins of what they point to):
 * - `additionalProperties: false` is dropped: unknown fields are kept;
 * - a string `enum` becomes a plain string: unknown enum values are accepted;
 * - "exactly one of these fields" becomes "at most one": a Part of a kind the revision does not
 *   know (none of its data fields) is accepted, one with two known data fields is not;
 * - a union of kinds (see {@link KindsOf}, given `kindsOf`) also takes an object of a kind it
 *   does not list: a content block of a newer type is read, not refused;
 * - everything else (types, `required`, `const`, patterns, bounds) is kept as it is.
 */
export function readSchema(node: Json, kindsOf?: KindsOf): Json {
  if (Array.isArray(node)) return node.map((child) => readSchema(child, kindsOf));
  if (!isJsonObject(node)) return node;
  const out: JsonObject = {};
  const stringEnum =
    Array.isArray(node.enum) && node.enum.every((value) => typeof value === 'string');
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    if (key === 'enum' && stringEnum) continue;
    out[key] =
      key === 'properties' || key === '$defs'
        ? readMap(value, kindsOf)
        : readSchema(value, kindsOf);
  }
  if (stringEnum) out.type = 'string';
  const kinds = Array.isArray(node.anyOf) ? kindsOf?.(node.anyOf) : undefined;
  if (kinds !== undefined) out.anyOf = [...(out.anyOf as Json[]), unknownKind(kinds)];
  const presence = presenceBranches(node);
  if (presence) out.oneOf = [...presence, { not: { anyOf: presence } }];
  return out;
}

/** A map of names to schemas (`properties`): names are kept, each schema made tolerant. */
function readMap(value: Json, kindsOf: KindsOf | undefined): Json {
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, child]) => [name, readSchema(child, kindsOf)]),
  );
}

/**
 * {@link KindsOf} for the schemas of one file (`id` its `$id`): each branch's `$ref` resolved
 * among `schemas`, and its `properties.type.const` read.
 */
export function kindsIn(schemas: readonly LoadedSchema[], id: string): KindsOf {
  const byId = new Map(schemas.map((s) => [s.schema.$id as string, s.schema]));
  return (branches) => {
    const kinds: string[] = [];
    for (const branch of branches) {
      if (!isJsonObject(branch) || typeof branch.$ref !== 'string') return undefined;
      const target = byId.get(resolved(branch.$ref, id));
      const properties = isJsonObject(target) ? target.properties : undefined;
      const type = isJsonObject(properties) ? properties.type : undefined;
      const kind = isJsonObject(type) ? type.const : undefined;
      if (typeof kind !== 'string') return undefined;
      kinds.push(kind);
    }
    return kinds.length === 0 ? undefined : kinds;
  };
}

function resolved(ref: string, base: string): string {
  return new URL(ref, base).href;
}

/** Every schema the roots reach through `$ref` (the roots included), by `$id`. */
function reached(schemas: readonly LoadedSchema[], roots: readonly string[]): LoadedSchema[] {
  const byId = new Map(schemas.map((s) => [s.schema.$id as string, s]));
  const found = new Map<string, LoadedSchema>();
  const pending = roots.map((file) => `${SCHEMA_ID_BASE}${file}`);
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (found.has(id)) continue;
    const schema = byId.get(id);
    if (!schema) throw new Error(`read rule: ${id.slice(SCHEMA_ID_BASE.length)} is not vendored`);
    found.set(id, schema);
    const walk = (node: Json): void => {
      if (Array.isArray(node)) for (const child of node) walk(child);
      else if (isJsonObject(node)) {
        if (typeof node.$ref === 'string') pending.push(resolved(node.$ref, id));
        for (const child of Object.values(node)) walk(child);
      }
    };
    walk(schema.schema);
  }
  return [...found.values()];
}

/**
 * The read twins of every received shape and of everything it references: `schemas/read/...`
 * (in `$id` only), titled `Read<Type>`. Each twin's `$id` mirrors its source's, so relative
 * references resolve to twins.
 */
export function readTwins(schemas: readonly LoadedSchema[]): LoadedSchema[] {
  return reached(schemas, READ_RULE.roots).map(({ file, typeName, schema }) => {
    const twin = readSchema(schema, kindsIn(schemas, schema.$id as string)) as JsonObject;
    const name = readTypeName(typeName);
    return {
      file: `${READ_FOLDER}${file}`,
      typeName: name,
      schema: {
        ...twin,
        $id: `${SCHEMA_ID_BASE}${READ_FOLDER}${file}`,
        title: name,
        description: `${typeof schema.description === 'string' ? `${schema.description} ` : ''}Read contract: unknown fields and enum values tolerated.`,
      },
    };
  });
}

/**
 * The type names of the shapes we only receive (a read twin, and nothing we send reaches them):
 * responses, candidates, usage, MCP tools and results. `validate` reads these with the read
 * contract by default.
 */
export function receivedOnly(schemas: readonly LoadedSchema[]): Set<string> {
  const sent = new Set(reached(schemas, READ_RULE.sent).map((s) => s.typeName));
  return new Set(
    reached(schemas, READ_RULE.roots)
      .map((s) => s.typeName)
      .filter((name) => !sent.has(name)),
  );
}
