/** The sync itself: inputs in, the complete content of `schemas/` out (no I/O here). */
import { basename } from 'node:path';
import {
  checkCitations,
  discoveryFieldText,
  limitsDocument,
  protoFieldText,
  type ReferenceTexts,
} from './api-limits.js';
import { canonicalJson, type JsonObject, sha256 } from './canonical-json.js';
import { readDiscovery } from './discovery.js';
import { buildGeminiSchemas } from './gemini.js';
import { HAND_RULES, REQUIRED_RULE } from './hand-rules.js';
import { buildLiveSchemas, LIVE_RULES, liveProvenance } from './live.js';
import { buildMcpSchemas, readMcpExtensionSchema, readMcpSchema } from './mcp.js';
import { buildVertexSchemas, VERTEX_RULES, VERTEX_VERSIONS } from './protos.js';
import { SyncInputError } from './sync-error.js';

/** One input as read: where from, its bytes. */
export interface SyncInput {
  /** A path or URL, as given. */
  location: string;
  bytes: Uint8Array;
  /** For MCP inputs: the protocol version. */
  protocolVersion?: string;
  /**
   * For an MCP extension's schema (given among the MCP inputs): the extension identifier, e.g.
   * `io.modelcontextprotocol/tasks`.
   */
  extension?: string;
  /**
   * For the Vertex AI and Live API inputs: the npm package and version it comes from
   * (`@google-cloud/aiplatform@6.11.0`, `@google-ai/generativelanguage@4.1.0`).
   */
  packageVersion?: string;
}

function parse(input: SyncInput): unknown {
  try {
    return JSON.parse(Buffer.from(input.bytes).toString('utf8'));
  } catch (error) {
    throw new SyncInputError(input.location, `not valid JSON (${(error as Error).message})`);
  }
}

/** The file of `schemas/` that holds the API limits (see scripts/lib/api-limits.ts). */
export const LIMITS_FILE = 'limits.json';

/** Vertex AI's `tool.proto` text per API version, where the limits' Vertex citations are checked. */
export type VertexProtoTexts = Partial<Record<'v1' | 'v1beta1', string>>;

function provenance(input: SyncInput): JsonObject {
  const source = /^https?:\/\//.test(input.location) ? input.location : basename(input.location);
  return { source, sha256: sha256(input.bytes), bytes: input.bytes.byteLength };
}

/** Builds every file of `schemas/` (path below `schemas/` to its exact text). */
export function buildSchemaTree(
  gemini: SyncInput,
  mcp: readonly SyncInput[],
  vertex?: SyncInput,
  vertexProtos: VertexProtoTexts = {},
  live?: SyncInput,
): Map<string, string> {
  if (mcp.length === 0)
    throw new SyncInputError('--mcp', 'at least one MCP specification schema is needed');
  const geminiDocument = parse(gemini);
  const geminiSchemas = buildGeminiSchemas(gemini.location, geminiDocument);
  const core = mcp.filter((input) => input.extension === undefined);
  const extensionInputs = mcp.filter((input) => input.extension !== undefined);
  const versions = core.map((input) =>
    readMcpSchema(input.location, input.protocolVersion ?? '', parse(input)),
  );
  const extensions = extensionInputs.map((input) =>
    readMcpExtensionSchema(input.location, input.extension ?? '', parse(input)),
  );
  const mcpFiles = buildMcpSchemas(versions, extensions);
  const vertexDocument = vertex ? parse(vertex) : undefined;
  const vertexFiles = vertex
    ? VERTEX_VERSIONS.flatMap((version) =>
        buildVertexSchemas(vertex.location, vertexDocument, version),
      )
    : [];
  const liveFiles = live ? buildLiveSchemas(live.location, parse(live)) : [];

  const tree = new Map<string, string>();
  for (const file of [...geminiSchemas.files, ...mcpFiles, ...vertexFiles, ...liveFiles])
    tree.set(file.file, canonicalJson(file.schema));
  const texts: ReferenceTexts = {
    'gemini-discovery': discoveryFieldText(readDiscovery(gemini.location, geminiDocument).schemas),
    ...(vertexProtos.v1 === undefined
      ? {}
      : { 'vertex-v1-proto': protoFieldText(vertexProtos.v1) }),
    ...(vertexProtos.v1beta1 === undefined
      ? {}
      : { 'vertex-v1beta1-proto': protoFieldText(vertexProtos.v1beta1) }),
  };
  const limits = canonicalJson(limitsDocument(checkCitations(texts)));
  const manifest: JsonObject = {
    generator: 'scripts/sync-schemas.ts',
    regenerate: 'npm run schemas:sync -- --sources schema-sources.json',
    inputs: {
      gemini: { ...provenance(gemini), revision: geminiSchemas.revision },
      mcp: core
        .map((input) => ({ ...provenance(input), protocolVersion: input.protocolVersion ?? '' }))
        .sort((a, b) => (a.protocolVersion < b.protocolVersion ? -1 : 1)),
      ...(extensionInputs.length > 0
        ? {
            mcpExtensions: extensionInputs
              .map((input) => ({ ...provenance(input), extension: input.extension ?? '' }))
              .sort((a, b) => (a.extension < b.extension ? -1 : 1)),
          }
        : {}),
      ...(vertex
        ? {
            vertex: {
              ...provenance(vertex),
              package: vertex.packageVersion ?? '',
              versions: [...VERTEX_VERSIONS],
            },
          }
        : {}),
      ...(live
        ? { live: { ...provenance(live), ...liveProvenance(live.packageVersion ?? '') } }
        : {}),
    },
    handRules: [
      REQUIRED_RULE,
      ...HAND_RULES,
      ...(vertex ? VERTEX_RULES : []),
      ...(live ? LIVE_RULES : []),
    ].map((rule) => ({
      id: rule.id,
      fact: rule.fact,
      source: rule.source,
    })),
    schemas: Object.fromEntries(
      [...tree].sort(([a], [b]) => (a < b ? -1 : 1)).map(([file, text]) => [file, sha256(text)]),
    ),
    limits: { file: LIMITS_FILE, sha256: sha256(limits), source: 'scripts/lib/api-limits.ts' },
  };
  tree.set(LIMITS_FILE, limits);
  tree.set('manifest.json', canonicalJson(manifest));
  return tree;
}
