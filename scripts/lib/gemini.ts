/** Builds the Gemini schema files (and their Vertex AI twins) from a discovery document. */
import { isJsonObject, type Json, type JsonObject, refsIn } from './canonical-json.js';
import { GEMINI_DESCRIPTIONS } from './descriptions.js';
import { convertDiscoverySchema, readDiscovery, referenceClosure } from './discovery.js';
import {
  type GeminiDefinitions,
  HAND_RULES,
  REQUIRED_RULE,
  requiredFields,
  SUPPLIED_DEFINITIONS,
  VERTEX_RULE,
} from './hand-rules.js';
import { type Family, makeSchemaFile, type SchemaFile } from './schema-set.js';
import { SyncInputError } from './sync-error.js';

/** The shapes the project extracts; everything they reference comes along. */
export const GEMINI_ROOTS = [
  'FunctionDeclaration',
  'FunctionCall',
  'FunctionResponse',
  'FunctionResponsePart',
  'FunctionResponseBlob',
  'Part',
  'Blob',
  'FileData',
  'Content',
  'Tool',
  'ToolConfig',
  'FunctionCallingConfig',
  'Schema',
  'GenerateContentRequest',
  'GenerateContentResponse',
  'Candidate',
  'PromptFeedback',
] as const;

/** The result of reading a discovery document. */
export interface GeminiSchemas {
  revision: string;
  files: SchemaFile[];
  rules: string[];
}

function rewriteRefs(node: Json, rewrite: (ref: string) => string): Json {
  if (Array.isArray(node)) return node.map((child) => rewriteRefs(child, rewrite));
  if (!isJsonObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' ? rewrite(value) : rewriteRefs(value, rewrite);
  }
  return out;
}

const refName = (ref: string): string =>
  ref.replace(/^(\.\.\/)?(vertex\/)?/, '').replace(/\.schema\.json$/, '');

function reaching(definitions: GeminiDefinitions, targets: readonly string[]): Set<string> {
  const found = new Set<string>(targets);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [name, schema] of definitions) {
      if (found.has(name)) continue;
      if ([...refsIn(schema)].some((ref) => found.has(refName(ref)))) {
        found.add(name);
        grew = true;
      }
    }
  }
  return found;
}

function vertexTwin(name: string, schema: JsonObject, twins: Set<string>): JsonObject {
  const twin = rewriteRefs(schema, (ref) =>
    twins.has(refName(ref)) ? ref : `../${ref}`,
  ) as JsonObject;
  if (
    (VERTEX_RULE.withoutId as readonly string[]).includes(name) &&
    isJsonObject(twin.properties)
  ) {
    delete twin.properties.id;
  }
  return twin;
}

function toFile(family: Family, name: string, schema: JsonObject): SchemaFile {
  const description = GEMINI_DESCRIPTIONS[name];
  const dialect =
    family === 'gemini' || !description ? description : `${description} (Vertex AI dialect)`;
  return makeSchemaFile(family, name, schema, dialect);
}

/** Reads a discovery document and returns the schema files for `schemas/gemini/`. */
export function buildGeminiSchemas(input: string, document: unknown): GeminiSchemas {
  const discovery = readDiscovery(input, document);
  const known = { ...discovery.schemas };
  for (const supplied of SUPPLIED_DEFINITIONS) known[supplied] ??= { type: 'object' };
  for (const root of GEMINI_ROOTS) {
    if (!discovery.schemas[root]) throw new SyncInputError(input, `lacks the definition "${root}"`);
  }
  const names = referenceClosure(input, known, GEMINI_ROOTS);

  const definitions: GeminiDefinitions = new Map();
  for (const name of names) {
    const source = discovery.schemas[name];
    if (!source) continue; // supplied by a hand rule below
    const converted = convertDiscoverySchema(source, (ref) => `${ref}.schema.json`);
    const required = requiredFields(source, name);
    definitions.set(name, required.length > 0 ? { ...converted, required } : converted);
  }
  for (const rule of HAND_RULES) {
    try {
      rule.apply(definitions);
    } catch (error) {
      throw new SyncInputError(input, `hand rule ${rule.id}: ${(error as Error).message}`);
    }
  }

  const twins = reaching(definitions, VERTEX_RULE.withoutId);
  const files: SchemaFile[] = [];
  for (const [name, schema] of [...definitions].sort(([a], [b]) => (a < b ? -1 : 1))) {
    files.push(toFile('gemini', name, schema));
    if (twins.has(name)) files.push(toFile('gemini/vertex', name, vertexTwin(name, schema, twins)));
  }
  return {
    revision: discovery.revision,
    files,
    rules: [REQUIRED_RULE.id, ...HAND_RULES.map((rule) => rule.id), VERTEX_RULE.id],
  };
}
