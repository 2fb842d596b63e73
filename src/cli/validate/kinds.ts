/**
 * The payload kinds `gemini-mcp-kit validate` knows: one per vendored schema, in kebab case, taken
 * from the generated catalogue, plus the guess `--kind auto` makes from a payload's shape. The
 * catalogue loads no validator: {@link loadChecks} imports those of the families a run checks.
 */

import { type ApiDialect, apiDialect, type Dialect } from '../../adapter/dialect.js';
import type { ViolationDetail } from '../../errors.js';
import { CATALOG, loadFamily, type SchemaFamily } from '../../generated/catalog.js';
import type { ReadCheck, SchemaGuards, SchemaName } from '../../generated/guards-common.js';
import { isJsonObject } from '../../json/object.js';

/** A Vertex AI API version, as a dialect. */
type VertexDialect = Exclude<ApiDialect, 'gemini'>;

/** The Vertex AI version of each schema family (none for the Gemini API's, the Live API's and MCP's). */
const VERSION_OF: Readonly<Record<SchemaFamily, VertexDialect | undefined>> = {
  gemini: undefined,
  live: undefined,
  mcp: undefined,
  'vertex/v1': 'vertex-v1',
  'vertex/v1beta1': 'vertex-v1beta1',
};

/** One kind: its kebab-case name and the schema behind it in each dialect. */
export interface Kind {
  /**
   * Kebab-case name, e.g. `generate-content-response`; MCP schemas drop their `Mcp` prefix
   * where no Gemini schema has that name (`call-tool-result`, but `mcp-tool`); a shape only a
   * Vertex AI version has is named with its version (`vertex-v1-partial-arg`).
   */
  readonly name: string;
  /** The schema checked for the Gemini API (an MCP or a Vertex-only kind: in every dialect). */
  readonly schema: SchemaName;
  /** The same shape in each Vertex AI version that has it (`content`: `VertexV1Content`, ...). */
  readonly vertex: Readonly<Partial<Record<VertexDialect, SchemaName>>>;
  /** Other names that select this kind (`mcp-list-tools-result` for `list-tools-result`, ...). */
  readonly aliases: readonly string[];
}

const KEBAB = new Map<string, string>();

/**
 * `GenerateContentResponse` -> `generate-content-response`, `McpJSONObject` -> `mcp-json-object`.
 * Remembered: building the kinds asks for most names more than once, on every `validate` start.
 */
function kebabCase(name: string): string {
  let kebab = KEBAB.get(name);
  if (kebab === undefined) {
    kebab = name
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
      .toLowerCase();
    KEBAB.set(name, kebab);
  }
  return kebab;
}

/** `vertex/v1beta1/Part.schema.json` -> `Part`. */
const baseName = (file: string): string =>
  file.slice(file.lastIndexOf('/') + 1).replace(/\.schema\.json$/, '');

function buildKinds(): Kind[] {
  const names = Object.keys(CATALOG) as SchemaName[];
  const gemini = new Map<string, SchemaName>();
  for (const schema of names) {
    if (CATALOG[schema].family === 'gemini') gemini.set(baseName(CATALOG[schema].file), schema);
  }
  const twins = new Map<SchemaName, Partial<Record<VertexDialect, SchemaName>>>();
  const kinds: Kind[] = [];
  for (const schema of names) {
    const { file, family } = CATALOG[schema];
    const version = VERSION_OF[family];
    if (version === undefined) continue;
    const same = gemini.get(baseName(file));
    if (same === undefined) {
      kinds.push({
        name: `${version}-${kebabCase(baseName(file))}`,
        schema,
        vertex: {},
        aliases: [],
      });
    } else twins.set(same, { ...twins.get(same), [version]: schema });
  }
  const taken = new Set(names.filter((n) => CATALOG[n].family === 'gemini').map(kebabCase));
  for (const schema of names) {
    const { family } = CATALOG[schema];
    if (VERSION_OF[family] !== undefined) continue;
    const aliases: string[] = [];
    let name = kebabCase(schema);
    if (family === 'mcp') {
      // `list-tools-result` for McpListToolsResult (`mcp-list-tools-result` stays an alias),
      // unless a Gemini schema holds that name (`tool`, so McpTool stays `mcp-tool`).
      const bare = kebabCase(schema.slice(3));
      if (!taken.has(bare)) {
        aliases.push(name);
        name = bare;
      }
    }
    kinds.push({ name, schema, vertex: twins.get(schema) ?? {}, aliases });
  }
  return kinds;
}

/**
 * Every kind, sorted by name. Names are lowercase ASCII letters, digits and hyphens, whose
 * code-unit order is also their collation order: `localeCompare` would give the same list but
 * first load ICU's collator, about 15 ms of every `validate` run's start.
 */
export const KINDS: readonly Kind[] = buildKinds().sort((a, b) => (a.name < b.name ? -1 : 1));

/** A kind as a name selects it: the name may fix the dialect too (`vertex-v1-content`). */
interface Named {
  readonly kind: Kind;
  readonly dialect?: ApiDialect;
}

const BY_NAME = new Map<string, Named>();
for (const kind of KINDS) {
  for (const name of [kind.name, ...kind.aliases]) BY_NAME.set(name, { kind });
  BY_NAME.set(kebabCase(kind.schema), { kind });
  for (const [dialect, twin] of Object.entries(kind.vertex) as [VertexDialect, SchemaName][]) {
    BY_NAME.set(`${dialect}-${kind.name}`, { kind, dialect });
    BY_NAME.set(kebabCase(twin), { kind, dialect });
    // `vertex-content`: the alias dialect's version
    if (dialect === apiDialect('vertex')) BY_NAME.set(`vertex-${kind.name}`, { kind, dialect });
  }
}

/** The kind called `name` (kebab case, an alias, or a schema name like `Content`), if any. */
export function findKind(name: string): Kind | undefined {
  return findNamed(name)?.kind;
}

/**
 * The kind called `name` and the dialect the name fixes, if it names one (`vertex-v1-content`,
 * `VertexV1Beta1Part`, `vertex-content` for the `vertex` alias's version).
 */
export function findNamed(name: string): Named | undefined {
  return BY_NAME.get(name) ?? BY_NAME.get(kebabCase(name));
}

/**
 * The schema a kind stands for in a dialect; `undefined` when it is a Gemini API shape the
 * Vertex AI version lacks (`prompt-feedback` in `vertex-v1`).
 */
export function schemaOf(kind: Kind, dialect: Dialect): SchemaName | undefined {
  const api = apiDialect(dialect);
  if (api === 'gemini' || CATALOG[kind.schema].family !== 'gemini') return kind.schema;
  return kind.vertex[api];
}

/**
 * Whether a schema is a received shape (a response, an MCP tool, result or content block),
 * read with its read contract; the others (requests, declarations, ...) are write contracts.
 */
export function isReceived(schema: SchemaName): boolean {
  return CATALOG[schema].received;
}

/** The checks of the schemas a run may meet, their families' validators loaded. */
export class SchemaChecks {
  private constructor(private readonly guards: ReadonlyMap<SchemaName, SchemaGuards>) {}

  /** Loads the validators of the families `schemas` belong to (each family once). */
  static async load(schemas: Iterable<SchemaName>): Promise<SchemaChecks> {
    const families = new Set<SchemaFamily>();
    for (const schema of schemas) families.add(CATALOG[schema].family);
    const guards = new Map<SchemaName, SchemaGuards>();
    for (const table of await Promise.all([...families].map(loadFamily))) {
      for (const [name, guard] of Object.entries(table) as [SchemaName, SchemaGuards][]) {
        guards.set(name, guard);
      }
    }
    return new SchemaChecks(guards);
  }

  private of(schema: SchemaName): SchemaGuards {
    const guard = this.guards.get(schema);
    if (guard === undefined) throw new Error(`the validators of ${schema} were not loaded`);
    return guard;
  }

  /** Checks `value` against a schema: every violation, empty when valid. */
  check(schema: SchemaName, value: unknown): ViolationDetail[] {
    return this.of(schema).check(value);
  }

  /** Reads `value` with a received shape's read contract; `undefined` for a write-only schema. */
  read(schema: SchemaName, value: unknown): ReadCheck | undefined {
    return this.of(schema).read?.(value);
  }
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

/** The kinds {@link guessKind} picks from (it can pick no other). */
const GUESSES = [
  'generate-content-response',
  'generate-content-request',
  'list-tools-result',
  'mcp-tool',
  'call-tool-result',
  'tool',
  'content',
  'call-tool-request-params',
  'function-call',
  'function-response',
  'function-declaration',
  'part',
  'content-block',
  'schema',
] as const;
type Guess = (typeof GUESSES)[number];

/** The schemas `--kind auto` may check in a dialect: those of every kind {@link guessKind} picks. */
export function guessableSchemas(dialect: Dialect): SchemaName[] {
  return GUESSES.flatMap((name) => {
    const kind = findKind(name);
    const schema = kind === undefined ? undefined : schemaOf(kind, dialect);
    return schema === undefined ? [] : [schema];
  });
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
  const pick = (name: Guess): Kind | undefined => findKind(name);
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
