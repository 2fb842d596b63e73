/**
 * API limits: what the Gemini API and Vertex AI enforce beyond their schemas, per dialect, each
 * with the sources it rests on. This is the one reviewed file for them, beside the hand rules:
 * `npm run schemas:sync` writes it to `schemas/limits.json` (its sha256 in the manifest), checking
 * each citation of a reference against the reference synced, and `npm run generate` makes
 * `src/generated/limits.ts` from that file. Facts are in our words; the API's error texts are
 * quoted as reported (they are what a refusal says, and what the refusal tracer reads).
 */
import type { Json, JsonObject } from './canonical-json.js';

/** The API dialects a limit has a value for. */
const LIMIT_DIALECTS = ['gemini', 'vertex-v1', 'vertex-v1beta1'] as const;
/** One of them. */
type LimitDialect = (typeof LIMIT_DIALECTS)[number];

/** A reference document the sync reads, where a citation's quote is checked. */
type ReferenceDocument =
  /** The Gemini API discovery document: `at` is `Schema.field`, the quote is in its description. */
  | 'gemini-discovery'
  /** Vertex AI's `tool.proto` of a version: `at` is `Message.field`, the quote is in its comment. */
  | 'vertex-v1-proto'
  | 'vertex-v1beta1-proto';

/** Where a limit comes from. */
type LimitSource =
  | {
      /** The API reference states it; the sync checks that it still does. */
      readonly kind: 'reference';
      readonly dialects: readonly LimitDialect[];
      readonly document: ReferenceDocument;
      /** The field whose text states it (`FunctionDeclaration.name`, `Tool.function_declarations`). */
      readonly at: string;
      /** The words of the reference that state it (short, whitespace-normalized when compared). */
      readonly quote: string;
    }
  | {
      /** The API's own error text, as a public tracker reports it. */
      readonly kind: 'api-error';
      readonly dialects: readonly LimitDialect[];
      /** The tracker and issue number, `owner/repo #N`. */
      readonly cite: string;
      readonly text: string;
      /** The model the report names, when it names one. */
      readonly model?: string;
    }
  | {
      /** A client library's documentation of the API. */
      readonly kind: 'sdk';
      readonly dialects: readonly LimitDialect[];
      readonly cite: string;
      readonly text: string;
    }
  | {
      /** A measurement: someone's (cited) or ours on bench/corpus/tools.json. */
      readonly kind: 'measurement';
      readonly dialects: readonly LimitDialect[];
      readonly cite: string;
      /** What was measured, in our words. */
      readonly text: string;
    };

/** The value of a limit in one dialect: a number, a pattern (regular expression source), or `true` (enforced). */
type LimitValue = number | string | true;

/** One limit. */
export interface ApiLimit {
  /** Stable id, the key in `schemas/limits.json` and `src/generated/limits.ts`. */
  readonly id: string;
  /** The fact, in our words. */
  readonly fact: string;
  /** What the limit is stated on, exactly as its sources state it (`Tool.functionDeclarations`). */
  readonly scope: string;
  /** How gemini-mcp-kit applies it, when that is wider than the scope as stated (and why). */
  readonly applied?: string;
  /** The unit of a numeric value (`declarations`, `bytes`, `schema levels`). */
  readonly unit?: string;
  /** What gemini-mcp-kit builds within and checks against, per dialect. */
  readonly value: Readonly<Record<LimitDialect, LimitValue>>;
  /** For a pattern: what the API's own texts accept, per dialect, when wider than `value`. */
  readonly accepted?: Readonly<Record<LimitDialect, string>>;
  /** Why this value, when the sources differ or give no number. */
  readonly choice?: string;
  /** What is known per model. */
  readonly models?: readonly { readonly model: string; readonly note: string }[];
  readonly sources: readonly LimitSource[];
}

const ALL: readonly LimitDialect[] = LIMIT_DIALECTS;
const VERTEX: readonly LimitDialect[] = ['vertex-v1', 'vertex-v1beta1'];
const GEMINI: readonly LimitDialect[] = ['gemini'];

const same = <V extends LimitValue>(value: V): Record<LimitDialect, V> => ({
  gemini: value,
  'vertex-v1': value,
  'vertex-v1beta1': value,
});

/** A Vertex AI proto citation, once per version. */
function vertexProto(at: string, quote: string): LimitSource[] {
  return VERTEX.map((dialect) => ({
    kind: 'reference' as const,
    dialects: [dialect],
    document: `${dialect}-proto` as ReferenceDocument,
    at,
    quote,
  }));
}

/** Every name the safe pattern allows: letters, digits, `_` and `-`, a letter or `_` first, at most 64. */
const SAFE_NAME = '^[A-Za-z_][A-Za-z0-9_-]{0,63}$';

/** The size budget's default, in bytes (see its `choice`). */
const SIZE_BUDGET = 49_152;

/** The limits, in the order the README lists them. */
export const API_LIMITS: readonly ApiLimit[] = [
  {
    id: 'declarations-per-request',
    fact: 'A request declares at most this many functions.',
    scope: 'Tool.functionDeclarations',
    applied:
      'to every declaration of a request together, across all its Tool entries: gemini-mcp-kit never splits declarations over several Tools to pass the cap, since no source says the cap is per Tool rather than per request',
    unit: 'declarations',
    value: { gemini: 512, 'vertex-v1': 128, 'vertex-v1beta1': 128 },
    sources: [
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'google-gemini/gemini-cli #19083',
        text: 'The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations: [FIELD_INVALID] At most 512 function declarations can be specified.',
      },
      ...vertexProto(
        'Tool.function_declarations',
        'Maximum 128 function declarations can be provided.',
      ),
    ],
  },
  {
    id: 'function-declarations-not-empty',
    fact: 'A Tool that has a `functionDeclarations` list has at least one declaration in it.',
    scope: 'Tool.functionDeclarations',
    applied: 'in every dialect (Vertex AI: no report either way; an empty list declares nothing)',
    value: same(true),
    sources: [
      {
        kind: 'measurement',
        dialects: GEMINI,
        cite: 'google-gemini/gemini-cli PR #22210',
        text: 'a request with `functionDeclarations: []` is answered with HTTP 400 INVALID_ARGUMENT',
      },
    ],
  },
  {
    id: 'function-name',
    fact: 'A function name starts with a letter or `_`, holds letters, digits, `_` and `-`, and is at most 64 characters long.',
    scope: 'FunctionDeclaration.name',
    value: same(SAFE_NAME),
    accepted: {
      gemini: '^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$',
      'vertex-v1': '^[A-Za-z_][A-Za-z0-9_.-]{0,63}$',
      'vertex-v1beta1': '^[A-Za-z_][A-Za-z0-9_.-]{0,63}$',
    },
    choice:
      "The Gemini API reference (revision 20260325) allows 128 characters with `.` and `:`, but its refusals still quote 64 (Jul 2025 to Jan 2026), and the name of a FunctionCall, which the model sends back, allows neither `.` nor `:`; Vertex AI's reference says 64 without `:`. The safe name is the one every dialect accepts and every call can carry back: `[A-Za-z0-9_-]`, a letter or `_` first, at most 64 (gemini-mcp-kit's exposed names). A name the API's texts accept but the safe pattern does not (a `.`, a `:`) is a warning, one they refuse an error.",
    sources: [
      {
        kind: 'reference',
        dialects: GEMINI,
        document: 'gemini-discovery',
        at: 'FunctionDeclaration.name',
        quote: 'underscores, colons, dots, and dashes, with a maximum length of 128',
      },
      {
        kind: 'reference',
        dialects: GEMINI,
        document: 'gemini-discovery',
        at: 'FunctionCall.name',
        quote: 'underscores and dashes, with a maximum length of 128',
      },
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'google-gemini/gemini-cli #7878',
        text: 'The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations[12].name: [FIELD_INVALID] Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum length of 64.',
      },
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'kaitranntt/ccs #25',
        text: 'The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations[53].name: [FIELD_INVALID] Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.',
      },
      ...vertexProto(
        'FunctionDeclaration.name',
        'Must be a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum length of 64.',
      ),
    ],
  },
  {
    id: 'function-names-unique',
    fact: 'No two declarations of a request share a name.',
    scope: 'Tool.functionDeclarations',
    value: same(true),
    sources: [
      {
        kind: 'api-error',
        dialects: VERTEX,
        cite: 'flutter-skill #32',
        text: 'Duplicate function declaration found: X',
      },
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'rikkahub #1311',
        text: 'Duplicate function declaration found: X',
      },
    ],
  },
  {
    id: 'parameter-name',
    fact: 'A parameter name (a property name of `parameters`) starts with a letter or `_`, holds letters, digits and `_`, and is at most 64 characters long.',
    scope: 'FunctionDeclaration.parameters',
    applied:
      'to the property names of `parameters` at its top level (the parameter names, as stated); deeper property names of `parameters` are reported as warnings, and `parametersJsonSchema`, of which no source states it, is not checked',
    value: same('^[A-Za-z_][A-Za-z0-9_]{0,63}$'),
    sources: [
      {
        kind: 'sdk',
        dialects: GEMINI,
        cite: 'googleapis/js-genai src/types.ts, FunctionDeclaration.parameters',
        text: 'Parameter names must start with a letter or an underscore and must only contain chars a-z, A-Z, 0-9, or underscores with a maximum length of 64.',
      },
      ...vertexProto(
        'FunctionDeclaration.parameters',
        'Parameter names must start with a letter or an underscore and must only contain chars a-z, A-Z, 0-9, or underscores with a maximum length of 64.',
      ),
    ],
  },
  {
    id: 'parameters-exclusive',
    fact: 'A declaration has `parameters` or `parametersJsonSchema`, not both (and `response` or `responseJsonSchema`).',
    scope: 'FunctionDeclaration.parametersJsonSchema, FunctionDeclaration.responseJsonSchema',
    applied: 'also by the schemas (hand rule parameters-exclusive)',
    value: same(true),
    sources: [
      {
        kind: 'reference',
        dialects: GEMINI,
        document: 'gemini-discovery',
        at: 'FunctionDeclaration.parametersJsonSchema',
        quote: 'This field is mutually exclusive with `parameters`.',
      },
      ...vertexProto(
        'FunctionDeclaration.parameters_json_schema',
        'This field is mutually exclusive with `parameters`.',
      ),
    ],
  },
  {
    id: 'object-properties-not-empty',
    fact: 'An OBJECT schema in `parameters` or `response` (the OpenAPI subset) has at least one property.',
    scope: 'Schema.properties (type OBJECT)',
    applied:
      'to every OBJECT schema of `parameters` and `response`, at any depth (refusals name the top level and nested ones)',
    value: same(true),
    sources: [
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'agno-agi/agno #2112',
        text: '* GenerateContentRequest.tools[0].function_declarations[2].parameters.properties: should be non-empty for OBJECT type\n',
      },
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'lobehub/lobehub PR #5002',
        text: '* GenerateContentRequest.tools[0].function_declarations[3].parameters.properties: should be non-empty for OBJECT type\n* GenerateContentRequest.tools[0].function_declarations[4].parameters.properties: should be non-empty for OBJECT type\n',
      },
      {
        kind: 'api-error',
        dialects: VERTEX,
        cite: 'dyad-sh/dyad #2300',
        text: 'Unable to submit request because `Chrome-DevTools__list_pages` functionDeclaration parameters schema should be of type OBJECT. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling',
      },
    ],
  },
  {
    id: 'enum-strings',
    fact: 'The values of an `enum` in `parameters` or `response` (the OpenAPI subset) are strings.',
    scope: 'Schema.enum',
    applied: 'also by the schemas (Schema.enum is a list of strings)',
    value: same(true),
    sources: [
      {
        kind: 'reference',
        dialects: GEMINI,
        document: 'gemini-discovery',
        at: 'Schema.enum',
        quote: 'Possible values of the element of Type.STRING with enum format.',
      },
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'anomalyco/opencode #12784',
        text: "Invalid value at 'tools[0].function_declarations[59].parameters.properties[1].value.enum[0]' (TYPE_STRING), 1",
      },
    ],
  },
  {
    id: 'schema-depth',
    fact: 'The schemas of a declaration nest at most this many JSON levels deep.',
    scope: 'FunctionDeclaration',
    unit: 'JSON levels: a schema (the value of parameters, parametersJsonSchema, response or responseJsonSchema) is level 1; each object or array inside it is one level below the one holding it',
    value: same(7),
    choice:
      'No reference states the depth, or how it is counted. The declarations the Gemini API refused for their depth that are in bench/corpus/tools.json nest 8 JSON levels (API-patch-block-children, and every tool of the Notion server, refused "on every prompt"), 9 (firecrawl_crawl) and 14 (create_merge_request_thread); counted in JSON levels, the refused ones all lie above the tools known to be used widely (the memory server nests 7), which counts of schema levels or of OBJECT and ARRAY levels do not separate. The limit is the deepest level no refused declaration reaches: 7. Vertex AI: no report; the same value. The refusals since August 2025 name the declaration, so one above it is traced and left out.',
    sources: [
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'google-gemini/gemini-cli #5923',
        text: 'A FunctionDeclaration in the request exceeds the maximum allowed nesting depth.',
        model: 'gemini-2.5-pro',
      },
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'zereight/gitlab-mcp #223',
        text: "FunctionDeclaration 'create_merge_request_thread' in the request exceeds the maximum allowed nesting depth.",
      },
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'google-gemini/gemini-cli #10591',
        text: "FunctionDeclaration 'API-patch-block-children' in the request exceeds the maximum allowed nesting depth.",
        model: 'gemini-2.5-pro',
      },
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'fuergaosi233/claude-code-proxy #42',
        text: "FunctionDeclaration 'mcp__firecrawl-mcp__firecrawl_crawl' in the request exceeds the maximum allowed nesting depth.",
      },
      {
        kind: 'measurement',
        dialects: ALL,
        cite: 'bench/corpus/tools.json (gemini-mcp-kit)',
        text: 'the refused declarations above, measured in JSON levels: API-patch-block-children 8 (every Notion tool 8 or more), firecrawl_crawl 9, create_merge_request_thread 14; the memory server, 7',
      },
      {
        kind: 'measurement',
        dialects: GEMINI,
        cite: 'Portkey-AI/gateway PR #1616',
        text: 'a response schema nesting 4 levels of OBJECT and ARRAY is accepted, 6 refused (not verified by us)',
      },
    ],
  },
  {
    id: 'declaration-bytes',
    fact: 'One declaration, as JSON, is at most this many bytes of UTF-8.',
    scope: 'FunctionDeclaration',
    unit: 'bytes',
    value: same(SIZE_BUDGET),
    choice:
      'A stand-in: no source states a size per declaration. A declaration larger than a whole request may be (request-declaration-bytes) can never be sent, so the default is that same figure. Settable.',
    sources: [
      {
        kind: 'measurement',
        dialects: GEMINI,
        cite: 'receptron/MulmoChat #123',
        text: 'about 15 tools in about 14,600 bytes of schema accepted; about 31 tools in about 49,300 bytes refused (too many states)',
      },
    ],
  },
  {
    id: 'request-declaration-bytes',
    fact: 'The declarations of one request, as JSON, are at most this many bytes of UTF-8 together.',
    scope: 'GenerateContentRequest.tools',
    unit: 'bytes',
    value: same(SIZE_BUDGET),
    choice:
      'A stand-in for "too many states", which no source quantifies: the API builds a constraint from the schemas, and its size grows with their text, array bounds, numeric bounds and formats, not with bytes alone. The one public measurement saw 14,600 bytes accepted and 49,300 refused; the default is the largest whole number of KiB below the refused figure (48 KiB), so a request is never as large as one known refused, while the many real sets between the two (bench/corpus/tools.json: GitHub 16 KB, Playwright 18 KB) still fit. A refusal below it is traced (bisection) and the budget it teaches holds for the rest of the conversation. Settable.',
    models: [
      {
        model: 'gemini-2.5-flash',
        note: 'names the error ("too many states for serving")',
      },
      {
        model: 'gemini-3.1-pro-preview',
        note: 'answers the same request with the generic "Request contains an invalid argument."',
      },
    ],
    sources: [
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'bethington/ghidra-mcp #440',
        text: 'The specified schema produces a constraint that has too many states for serving. Typical causes of this error are schemas with lots of text (for example, very long property or enum names), schemas with long array length limits (especially when nested), or schemas using complex value matchers (for example, integers or numbers with minimum/maximum bounds or strings with complex formats like date-time)',
        model: 'gemini-2.5-flash',
      },
      {
        kind: 'api-error',
        dialects: GEMINI,
        cite: 'bethington/ghidra-mcp #440',
        text: 'Request contains an invalid argument.',
        model: 'gemini-3.1-pro-preview',
      },
      {
        kind: 'measurement',
        dialects: GEMINI,
        cite: 'receptron/MulmoChat #123',
        text: 'about 15 tools in about 14,600 bytes of schema accepted; about 31 tools in about 49,300 bytes refused',
      },
    ],
  },
  {
    id: 'mcp-server-url',
    fact: 'An MCP server the API calls itself (`Tool.mcpServers`) is reached at its full URL, over Streamable HTTP; the example the reference gives is an `https:` URL.',
    scope: 'StreamableHttpTransport.url',
    applied:
      "to the Gemini API only, the one dialect that takes `Tool.mcpServers` (mcp-servers-gemini-only); and gemini-mcp-kit's own rule beyond it: the URL must be one Google's servers can reach, so never a loopback, private, link-local or local-only host",
    value: same('^https://'),
    sources: [
      {
        kind: 'reference',
        dialects: GEMINI,
        document: 'gemini-discovery',
        at: 'StreamableHttpTransport.url',
        quote: 'The full URL for the MCPServer endpoint.',
      },
    ],
  },
  {
    id: 'mcp-server-duration',
    fact: "The timeouts of an MCP server's Streamable HTTP transport are google-duration strings (seconds with up to nine fractional digits, then `s`: `30s`, `1.5s`).",
    scope: 'StreamableHttpTransport.timeout, StreamableHttpTransport.sseReadTimeout',
    applied: 'to both timeouts, which the reference types with the format `google-duration`',
    value: same('^-?\\d+(\\.\\d{1,9})?s$'),
    sources: [
      {
        kind: 'reference',
        dialects: GEMINI,
        document: 'gemini-discovery',
        at: 'StreamableHttpTransport.timeout',
        quote: 'HTTP timeout for regular operations.',
      },
      {
        kind: 'reference',
        dialects: GEMINI,
        document: 'gemini-discovery',
        at: 'StreamableHttpTransport.sseReadTimeout',
        quote: 'Timeout for SSE read operations.',
      },
    ],
  },
  {
    id: 'mcp-servers-gemini-only',
    fact: 'Only the Gemini API runs MCP servers itself (`Tool.mcpServers` with a name and a Streamable HTTP transport); the Vertex AI references have no such field. An MCP server is no function declaration: it counts toward no declaration limit, and no source states a count of servers.',
    scope: 'Tool.mcpServers',
    applied:
      'as a refusal of `Tool.mcpServers` in a request for a Vertex AI dialect; the server name is the prefix of the names the model calls its tools by (`{server}_{tool}`), so it must start a function name',
    value: same(true),
    sources: [
      {
        kind: 'reference',
        dialects: GEMINI,
        document: 'gemini-discovery',
        at: 'Tool.mcpServers',
        quote: 'MCP Servers to connect to.',
      },
      {
        kind: 'sdk',
        dialects: VERTEX,
        cite: '@google/genai 2.32.0 dist/node/index.mjs, mcpServerToVertex',
        text: 'name parameter is only supported in Gemini Developer API mode, not in Gemini Enterprise Agent Platform mode.',
      },
    ],
  },
];

/** A citation of a reference that the sync looked for. */
export interface CitationCheck {
  readonly limit: string;
  readonly document: ReferenceDocument;
  readonly at: string;
  readonly quote: string;
  /** Whether the reference synced still says it. */
  readonly found: boolean;
}

/** The texts the sync checks citations against: a field's text per document and `Message.field`. */
export type ReferenceTexts = Partial<Record<ReferenceDocument, (at: string) => string | undefined>>;

const normalized = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Checks every reference citation against the texts given (absent document: not found). */
export function checkCitations(texts: ReferenceTexts): CitationCheck[] {
  const checks: CitationCheck[] = [];
  for (const limit of API_LIMITS) {
    for (const source of limit.sources) {
      if (source.kind !== 'reference') continue;
      const text = texts[source.document]?.(source.at);
      checks.push({
        limit: limit.id,
        document: source.document,
        at: source.at,
        quote: source.quote,
        found: text !== undefined && normalized(text).includes(normalized(source.quote)),
      });
    }
  }
  return checks;
}

/** The description of `Schema.field` in a discovery document's `schemas`. */
export function discoveryFieldText(schemas: Readonly<Record<string, JsonObject>>) {
  return (at: string): string | undefined => {
    const [schema, field] = at.split('.');
    const properties = schemas[schema ?? '']?.properties;
    const value =
      properties !== null && typeof properties === 'object' && !Array.isArray(properties)
        ? properties[field ?? '']
        : undefined;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? typeof value.description === 'string'
        ? value.description
        : undefined
      : undefined;
  };
}

/**
 * The comment above `field` in `message Message { ... }` of a `.proto` file's text (the `//`
 * lines right above the field's declaration), for `Message.field`.
 */
export function protoFieldText(proto: string) {
  return (at: string): string | undefined => {
    const [message, field] = at.split('.');
    const lines = proto.split('\n');
    const start = lines.findIndex((line) => line.startsWith(`message ${message} {`));
    if (start === -1 || field === undefined) return undefined;
    for (let i = start + 1; i < lines.length && !lines[i]!.startsWith('}'); i++) {
      if (!new RegExp(`^\\s+(?:repeated |optional )?[\\w.]+ ${field} = \\d+`).test(lines[i]!))
        continue;
      const comment: string[] = [];
      for (let j = i - 1; j > start && /^\s*\/\//.test(lines[j]!); j--) {
        comment.unshift(lines[j]!.replace(/^\s*\/\/\s?/, ''));
      }
      return comment.join(' ');
    }
    return undefined;
  };
}

/**
 * The content of `schemas/limits.json`: every limit, each reference citation marked with whether
 * the reference synced still says it (`found`), so that a reference that drops a limit's text
 * changes the file, the generated module and the drift report.
 */
export function limitsDocument(checks: readonly CitationCheck[]): JsonObject {
  const found = (limit: string, source: LimitSource): boolean =>
    source.kind === 'reference' &&
    checks.some(
      (check) =>
        check.limit === limit &&
        check.document === source.document &&
        check.at === source.at &&
        check.found,
    );
  const limits: JsonObject = {};
  for (const limit of API_LIMITS) {
    const { id, sources, ...rest } = limit;
    limits[id] = {
      ...(rest as unknown as JsonObject),
      sources: sources.map((source) =>
        source.kind === 'reference'
          ? ({ ...source, found: found(id, source) } as unknown as Json)
          : (source as unknown as Json),
      ),
    };
  }
  return {
    $comment:
      'What the Gemini API and Vertex AI enforce beyond their schemas, per dialect, each with its sources. Written by npm run schemas:sync from scripts/lib/api-limits.ts; do not edit. A reference source has found: false when the reference synced no longer says it.',
    dialects: [...LIMIT_DIALECTS],
    limits,
  };
}
