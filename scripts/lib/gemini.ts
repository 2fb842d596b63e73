/** Builds the Gemini schema files from a discovery document. */
import { GEMINI_DESCRIPTIONS } from './descriptions.js';
import { convertDiscoverySchema, readDiscovery, referenceClosure } from './discovery.js';
import {
  type GeminiDefinitions,
  HAND_RULES,
  REQUIRED_RULE,
  requiredFields,
  SUPPLIED_DEFINITIONS,
} from './hand-rules.js';
import { makeSchemaFile, type SchemaFile } from './schema-set.js';
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

  const files: SchemaFile[] = [...definitions]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, schema]) => makeSchemaFile('gemini', name, schema, GEMINI_DESCRIPTIONS[name]));
  return {
    revision: discovery.revision,
    files,
    rules: [REQUIRED_RULE.id, ...HAND_RULES.map((rule) => rule.id)],
  };
}
