/**
 * The payload kinds `gemini-mcp validate` knows: one per vendored schema, in kebab case, taken
 * from the generated `SCHEMAS` table, plus the guess `--kind auto` makes from a payload's shape.
 */

import type { Dialect } from '../adapter/responses.js';
import type { ViolationDetail } from '../errors.js';
import { type ReadCheck, SCHEMAS, type SchemaName } from '../generated/guards.js';
import { isJsonObject } from '../json/object.js';

/** Which API's variant of a schema to use where the two differ. */

/** One kind: its kebab-case name and the schema behind it in each dialect. */
export interface Kind {
  /**
   * Kebab-case name, e.g. `generate-content-response`; MCP schemas drop their `Mcp` prefix
   * where no Gemini schema has that name (`call-tool-result`, but `mcp-tool`).
   */
  readonly name: string;
  /** The schema checked for the Gemini API (and for Vertex AI when it has no twin). */
  readonly schema: SchemaName;
  /** The Vertex AI twin, when one exists. */
  readonly vertex?: SchemaName;
  /** Other names that select this kind (`mcp-list-tools-result` for `list-tools-result`, ...). */
  readonly aliases: readonly string[];
}

/** `GenerateContentResponse` -> `generate-content-response`, `McpJSONObject` -> `mcp-json-object`. */
function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

function buildKinds(): Kind[] {
  const names = Object.keys(SCHEMAS) as SchemaName[];
  const all = new Set<string>(names);
  const plain = names.filter((n) => !n.startsWith('Vertex'));
  const taken = new Set(plain.map(kebabCase));
  return plain.map((schema) => {
    const twin = `Vertex${schema}`;
    const aliases: string[] = [];
    let name = kebabCase(schema);
    if (SCHEMAS[schema].file.startsWith('mcp/')) {
      // `list-tools-result` for McpListToolsResult (`mcp-list-tools-result` stays an alias),
      // unless a Gemini schema holds that name (`tool`, so McpTool stays `mcp-tool`).
      const bare = kebabCase(schema.slice(3));
      if (!taken.has(bare)) {
        aliases.push(name);
        name = bare;
      }
    }
    const kind: Kind = {
      name,
      schema,
      aliases,
      ...(all.has(twin) ? { vertex: twin as SchemaName } : {}),
    };
    return kind;
  });
}

/** Every kind, sorted by name. */
export const KINDS: readonly Kind[] = buildKinds().sort((a, b) => a.name.localeCompare(b.name));

const BY_NAME = new Map<string, Kind>();
for (const kind of KINDS) {
  for (const name of [kind.name, ...kind.aliases]) BY_NAME.set(name, kind);
  if (kind.vertex !== undefined) BY_NAME.set(kebabCase(kind.vertex), kind);
}

/** The kind called `name` (kebab case, an alias, or a schema name like `Content`), if any. */
export function findKind(name: string): Kind | undefined {
  return BY_NAME.get(name) ?? BY_NAME.get(kebabCase(name));
}

/** Whether `name` names the Vertex twin explicitly (`vertex-content`). */
export function namesVertexTwin(name: string): boolean {
  return name.startsWith('vertex-') || name.startsWith('Vertex');
}

/** The schema a kind stands for in a dialect. */
export function schemaOf(kind: Kind, dialect: Dialect): SchemaName {
  return dialect === 'vertex' && kind.vertex !== undefined ? kind.vertex : kind.schema;
}

/** Checks `value` against a schema: every violation, empty when valid. */
export function checkSchema(schema: SchemaName, value: unknown): ViolationDetail[] {
  return SCHEMAS[schema].check(value);
}

/**
 * Whether a schema is a received shape (a response, an MCP tool, result or content block),
 * read with its read contract; the others (requests, declarations, ...) are write contracts.
 */
export function isReceived(schema: SchemaName): boolean {
  return SCHEMAS[schema].read !== undefined;
}

/** Reads `value` with a received shape's read contract; `undefined` for a write-only schema. */
export function readSchema(schema: SchemaName, value: unknown): ReadCheck | undefined {
  return SCHEMAS[schema].read?.(value);
}

/** Up to three kind names close to `name`, for "did you mean". */
export function similarKinds(name: string): string[] {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let previous = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const current = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
        previous = current;
      }
    }
    return row[b.length]!;
  };
  const wanted = name.toLowerCase();
  return KINDS.flatMap((k) => [k.name, ...k.aliases])
    .map((candidate) => ({
      candidate,
      score: candidate.includes(wanted) ? 0 : distance(wanted, candidate),
    }))
    .filter(({ score }) => score <= Math.max(2, Math.floor(wanted.length / 3)))
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

const has = (value: Record<string, unknown>, keys: readonly string[]): boolean =>
  keys.some((key) => Object.hasOwn(value, key));

const PART_FIELDS = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
  'thought',
  'thoughtSignature',
];
const TOOL_FIELDS = [
  'functionDeclarations',
  'googleSearch',
  'googleSearchRetrieval',
  'codeExecution',
  'urlContext',
  'computerUse',
  'fileSearch',
  'googleMaps',
];
const MCP_BLOCK_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);
const GEMINI_TYPES = new Set([
  'TYPE_UNSPECIFIED',
  'STRING',
  'NUMBER',
  'INTEGER',
  'BOOLEAN',
  'ARRAY',
  'OBJECT',
  'NULL',
]);

/**
 * The kind a payload's shape suggests, or `undefined` when nothing fits. Looks only at top-level
 * field names (never at the values' validity), most specific shapes first:
 *
 * | shape | kind |
 * | --- | --- |
 * | `candidates` or `promptFeedback` | generate-content-response |
 * | `contents` | generate-content-request |
 * | `tools` (an array) | list-tools-result (MCP) |
 * | `inputSchema` | mcp-tool |
 * | `content` (an array) | call-tool-result (MCP) |
 * | `functionDeclarations`, `googleSearch`, ... | tool |
 * | `parts` or `role` | content |
 * | `name` and `arguments` | call-tool-request-params (MCP) |
 * | `name` and `args` | function-call |
 * | `name` and `response` | function-response |
 * | `name` and (`description`, `parameters`, `parametersJsonSchema`) | function-declaration |
 * | `text`, `functionCall`, `inlineData`, ... | part |
 * | `type` one of text, image, audio, resource_link, resource | content-block (MCP) |
 * | `type` a Gemini type (STRING, OBJECT, ...) | schema |
 */
export function guessKind(value: unknown): Kind | undefined {
  if (!isJsonObject(value)) return undefined;
  const pick = (name: string): Kind | undefined => findKind(name);
  if (has(value, ['candidates', 'promptFeedback'])) return pick('generate-content-response');
  if (has(value, ['contents'])) return pick('generate-content-request');
  if (Array.isArray(value.tools)) return pick('list-tools-result');
  if (has(value, ['inputSchema'])) return pick('mcp-tool');
  if (Array.isArray(value.content)) return pick('call-tool-result');
  if (has(value, TOOL_FIELDS)) return pick('tool');
  if (has(value, ['parts', 'role'])) return pick('content');
  if (typeof value.name === 'string') {
    if (has(value, ['arguments'])) return pick('call-tool-request-params');
    if (has(value, ['args'])) return pick('function-call');
    if (has(value, ['response'])) return pick('function-response');
    if (has(value, ['description', 'parameters', 'parametersJsonSchema', 'behavior'])) {
      return pick('function-declaration');
    }
    return pick('function-call');
  }
  if (has(value, PART_FIELDS)) return pick('part');
  if (typeof value.type === 'string') {
    if (MCP_BLOCK_TYPES.has(value.type)) return pick('content-block');
    if (GEMINI_TYPES.has(value.type)) return pick('schema');
  }
  if (has(value, ['properties', 'anyOf', 'items', 'enum'])) return pick('schema');
  return undefined;
}
