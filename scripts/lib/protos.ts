/**
 * Vertex AI's own reference: the protobufjs descriptor (`protos.json`) that
 * `@google-cloud/aiplatform` ships, to JSON Schema 2020-12 following the proto3 JSON mapping
 * (lowerCamel field names, enums by name, 64-bit integers and bytes as strings, well-known types
 * as their JSON forms). Each API version (`v1`, `v1beta1`) gives its own folder of schemas. The
 * descriptor's `field_behavior` options say which fields are required and which are output only;
 * no prose is copied.
 */
import { isJsonObject, type Json, type JsonObject } from './canonical-json.js';
import { GEMINI_DESCRIPTIONS } from './descriptions.js';
import { GEMINI_ROOTS } from './gemini.js';
import { type Family, makeSchemaFile, type SchemaFile } from './schema-set.js';
import { SyncInputError } from './sync-error.js';

/** The Vertex AI API versions we follow, as folders of `schemas/vertex/`. */
export const VERTEX_VERSIONS = ['v1', 'v1beta1'] as const;
/** One of them. */
export type VertexVersion = (typeof VERTEX_VERSIONS)[number];

/**
 * The shapes extracted for each version: the Gemini API's, but PromptFeedback, which Vertex AI
 * nests in GenerateContentResponse (it comes along as GenerateContentResponsePromptFeedback).
 */
const VERTEX_ROOTS = GEMINI_ROOTS.filter((root) => root !== 'PromptFeedback');

/** What we send: every message reachable from a request is closed to unknown fields. */
const EMITTED_ROOT = 'GenerateContentRequest';

/** The proto options we read, cited like the Gemini rules. */
const VERTEX_FIELD_BEHAVIOR_RULE = {
  id: 'vertex-field-behavior',
  fact: 'A Vertex AI field marked REQUIRED is required, one marked OUTPUT_ONLY is read-only; GenerateContentRequest.model (sent in the URL) is not required in a body.',
  source: '@google-cloud/aiplatform protos.json: (google.api.field_behavior) options',
} as const;

/** How the descriptor's oneofs are read (a proto3 oneof: at most one of its fields is set). */
const VERTEX_ONEOF_RULE = {
  id: 'vertex-oneof',
  fact: 'The fields of one oneof of a Vertex AI message exclude each other (at most one is set); a oneof of one field (proto3 `optional`) says nothing.',
  source: '@google-cloud/aiplatform protos.json: the `oneofs` of each message',
} as const;

/** The oneofs that must hold a field: a Part's data, as the Gemini API's rule `part-one-data-field` says. */
const EXACTLY_ONE = new Set(['Part.data', 'FunctionResponsePart.data']);

/** The hand rule for them, cited like the Gemini rules. */
const VERTEX_PART_RULE = {
  id: 'vertex-part-one-data-field',
  fact: 'A Vertex AI Part holds exactly one field of its `data` oneof (text, inlineData, fileData, functionCall, functionResponse, executableCode, codeExecutionResult); a FunctionResponsePart one of inlineData and fileData.',
  source:
    'protos.json Part.data and FunctionResponsePart.data oneofs; the Gemini API rule part-one-data-field',
} as const;

/** Every rule the Vertex AI shapes follow, for the manifest. */
export const VERTEX_RULES = [VERTEX_FIELD_BEHAVIOR_RULE, VERTEX_ONEOF_RULE, VERTEX_PART_RULE];

const NOT_REQUIRED_IN_A_BODY = new Set(['GenerateContentRequest.model']);

interface ProtoField {
  type: string;
  rule?: string;
  keyType?: string;
  options?: Record<string, Json>;
}

interface ProtoMessage {
  fields: Record<string, ProtoField>;
  oneofs?: Record<string, { oneof: string[] }>;
}

const INT32: [number, number] = [-2147483648, 2147483647];
const UINT32: [number, number] = [0, 4294967295];
const BASE64_PATTERN = '^[A-Za-z0-9+/_-]*={0,2}$';
const INT64_PATTERN = '^-?[0-9]+$';
const DURATION_PATTERN = '^-?[0-9]+(\\.[0-9]{1,9})?s$';

function scalar(type: string): JsonObject | undefined {
  switch (type) {
    case 'string':
      return { type: 'string' };
    case 'bool':
      return { type: 'boolean' };
    case 'double':
    case 'float':
      return { type: 'number' };
    case 'int32':
    case 'sint32':
    case 'sfixed32':
      return { type: 'integer', minimum: INT32[0], maximum: INT32[1] };
    case 'uint32':
    case 'fixed32':
      return { type: 'integer', minimum: UINT32[0], maximum: UINT32[1] };
    case 'int64':
    case 'sint64':
    case 'sfixed64':
    case 'uint64':
    case 'fixed64':
      return { type: 'string', pattern: INT64_PATTERN };
    case 'bytes':
      return { type: 'string', contentEncoding: 'base64', pattern: BASE64_PATTERN };
    default:
      return undefined;
  }
}

/** The proto3 JSON forms of the well-known types the shapes use. */
const WELL_KNOWN: Readonly<Record<string, JsonObject>> = {
  'google.protobuf.Struct': { type: 'object' },
  'google.protobuf.Value': {},
  'google.protobuf.ListValue': { type: 'array' },
  'google.protobuf.NullValue': { type: 'null' },
  'google.protobuf.Timestamp': { type: 'string', format: 'date-time' },
  'google.protobuf.Duration': { type: 'string', pattern: DURATION_PATTERN },
  'google.protobuf.FieldMask': { type: 'string' },
  'google.protobuf.Empty': { type: 'object' },
};

/** Resolves a type name as protobuf does: from the innermost scope outwards. */
function resolveType(root: unknown, scope: string[], name: string): string | undefined {
  const parts = name.replace(/^\./, '').split('.');
  for (let depth = name.startsWith('.') ? 0 : scope.length; depth >= 0; depth -= 1) {
    const path = [...scope.slice(0, depth), ...parts];
    if (lookup(root, path)) return path.join('.');
  }
  return undefined;
}

function lookup(root: unknown, path: string[]): JsonObject | undefined {
  let node: unknown = root;
  for (const key of path) {
    const nested = isJsonObject(node) ? node.nested : undefined;
    node = isJsonObject(nested) ? nested[key] : undefined;
  }
  return isJsonObject(node) ? node : undefined;
}

/** The schema name a message gets in its version folder: nesting joined (`GroundingChunkWeb`). */
function schemaNameOf(full: string, prefix: string): string {
  const local = full.startsWith(`${prefix}.`) ? full.slice(prefix.length + 1) : full;
  return local
    .split('.')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/**
 * The message's oneofs as JSON Schema: `Part.data` and `FunctionResponsePart.data` hold exactly
 * one field (`oneOf` of presences, the form the read rule relaxes to "at most one"); any other
 * oneof of two or more fields at most one (each pair excludes the other). Sorted by oneof name.
 */
function oneofRules(
  name: string,
  message: ProtoMessage,
  exactlyOne: ReadonlySet<string>,
): JsonObject[] {
  const rules: JsonObject[] = [];
  for (const [oneof, { oneof: fields }] of Object.entries(message.oneofs ?? {}).sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    if (fields.length < 2) continue;
    if (exactlyOne.has(`${name}.${oneof}`)) {
      rules.push({ oneOf: fields.map((field) => ({ required: [field] })) });
      continue;
    }
    for (const [i, a] of fields.entries()) {
      for (const b of fields.slice(i + 1)) rules.push({ not: { required: [a, b] } });
    }
  }
  return rules;
}

/** How one protobuf package's messages become one family of schemas. */
export interface ProtoConversion {
  /** Where the descriptor came from, for errors. */
  input: string;
  document: unknown;
  /** The package, dotted: `google.cloud.aiplatform.v1`. */
  prefix: string;
  /** The folder below `schemas/`. */
  family: Family;
  /** The messages extracted (their references come along). */
  roots: readonly string[];
  /** What we send: every message these reach is closed to unknown fields. */
  emitted: readonly string[];
  /** `Message.oneof` names that must hold a field. */
  exactlyOne: ReadonlySet<string>;
  /** `Message.field` names REQUIRED in the protos but not in a body. */
  notRequired: ReadonlySet<string>;
  /** Our own description of a schema, by name. */
  describe: (name: string) => string | undefined;
  /**
   * A message vendored elsewhere: the `$ref` to use for it (its schema is not written here).
   * Undefined (the default) for every message: all are converted.
   */
  external?: (name: string) => string | undefined;
}

/** One protobuf package's messages (the roots and what they reach) as schema files. */
export function buildProtoSchemas(conversion: ProtoConversion): SchemaFile[] {
  const { input, document, prefix, family } = conversion;
  let pkg: unknown = document;
  for (const key of prefix.split('.')) {
    const nested = isJsonObject(pkg) ? pkg.nested : undefined;
    pkg = isJsonObject(nested) ? nested[key] : undefined;
  }
  if (!isJsonObject(pkg) || !isJsonObject(pkg.nested)) {
    throw new SyncInputError(input, `not a protobufjs descriptor of ${prefix} (no nested package)`);
  }
  const nested = pkg.nested;
  const scopeOf = (full: string): string[] => full.split('.');
  for (const root of conversion.roots) {
    const message = nested[root];
    if (!isJsonObject(message) || !isJsonObject(message.fields)) {
      throw new SyncInputError(input, `${prefix} lacks the message "${root}"`);
    }
  }

  const references = new Map<string, Set<string>>();
  const convertField = (owner: string, field: string, proto: ProtoField): JsonObject => {
    const one = (type: string): JsonObject => {
      const known = scalar(type);
      if (known) return known;
      const full = resolveType(document, scopeOf(owner), type);
      if (!full) {
        throw new SyncInputError(input, `${owner}.${field}: type "${type}" is not defined`);
      }
      const wellKnown = WELL_KNOWN[full];
      if (wellKnown) return { ...wellKnown };
      if (full.startsWith('google.protobuf.')) {
        throw new SyncInputError(input, `${owner}.${field}: well-known type ${full} is not mapped`);
      }
      const target = lookup(document, full.split('.'))!;
      if (isJsonObject(target.values)) return { type: 'string', enum: Object.keys(target.values) };
      if (!isJsonObject(target.fields)) {
        throw new SyncInputError(input, `${owner}.${field}: ${full} is neither message nor enum`);
      }
      const elsewhere = conversion.external?.(schemaNameOf(full, prefix));
      if (elsewhere !== undefined) return { $ref: elsewhere };
      references.get(owner)!.add(full);
      visit(full);
      return { $ref: `${schemaNameOf(full, prefix)}.schema.json` };
    };
    if (proto.keyType) return { type: 'object', additionalProperties: one(proto.type) };
    if (proto.rule === 'repeated') return { type: 'array', items: one(proto.type) };
    return one(proto.type);
  };

  const converted = new Map<
    string,
    { properties: JsonObject; required: string[]; allOf: JsonObject[] }
  >();
  const visit = (full: string): void => {
    if (converted.has(full)) return;
    const message = lookup(document, full.split('.')) as unknown as ProtoMessage;
    references.set(full, new Set());
    const properties: JsonObject = {};
    const required: string[] = [];
    const name = schemaNameOf(full, prefix);
    converted.set(full, {
      properties,
      required,
      allOf: oneofRules(name, message, conversion.exactlyOne),
    });
    for (const [field, proto] of Object.entries(message.fields).sort(([a], [b]) =>
      a < b ? -1 : 1,
    )) {
      const schema = convertField(full, field, proto);
      const behavior = proto.options?.['(google.api.field_behavior)'];
      if (behavior === 'OUTPUT_ONLY') schema.readOnly = true;
      if (behavior === 'REQUIRED' && !conversion.notRequired.has(`${name}.${field}`)) {
        required.push(field);
      }
      properties[field] = schema;
    }
  };
  for (const root of conversion.roots) visit(`${prefix}.${root}`);

  const strict = new Set<string>();
  const pending = conversion.emitted.map((root) => `${prefix}.${root}`);
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (strict.has(next)) continue;
    strict.add(next);
    pending.push(...(references.get(next) ?? []));
  }

  return [...converted]
    .map(([full, { properties, required, allOf }]) => {
      const name = schemaNameOf(full, prefix);
      const schema: JsonObject = {
        type: 'object',
        properties,
        ...(required.length > 0 ? { required: required.sort() } : {}),
        ...(allOf.length > 0 ? { allOf } : {}),
        ...(strict.has(full) ? { additionalProperties: false } : {}),
      };
      return makeSchemaFile(family, name, schema, conversion.describe(name));
    })
    .sort((a, b) => (a.file < b.file ? -1 : 1));
}

/** The Vertex AI schema files of one API version. */
export function buildVertexSchemas(
  input: string,
  document: unknown,
  version: VertexVersion,
): SchemaFile[] {
  return buildProtoSchemas({
    input,
    document,
    prefix: `google.cloud.aiplatform.${version}`,
    family: `vertex/${version}`,
    roots: VERTEX_ROOTS,
    emitted: [EMITTED_ROOT],
    exactlyOne: EXACTLY_ONE,
    notRequired: NOT_REQUIRED_IN_A_BODY,
    describe: (name) => {
      const description = GEMINI_DESCRIPTIONS[name];
      return description ? `${description} (Vertex AI ${version})` : undefined;
    },
  });
}
