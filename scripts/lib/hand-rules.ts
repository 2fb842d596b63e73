/**
 * Hand rules: facts the Gemini API reference states only in prose, applied to the schemas that
 * the discovery document yields. This is the one reviewed file for them. Each rule says the
 * fact in our words and where in the reference it comes from; none copies the reference's prose.
 */
import { isJsonObject, type JsonObject } from './canonical-json.js';

/** The Gemini definitions being built, keyed by discovery name, after conversion to JSON Schema. */
export type GeminiDefinitions = Map<string, JsonObject>;

/** One hand rule. */
export interface HandRule {
  /** Stable id, recorded in `schemas/manifest.json`. */
  id: string;
  /** The fact, in our words. */
  fact: string;
  /** Where the reference states it (schema.field in the discovery document, or a page). */
  source: string;
  /** Applies the rule; throws when the definitions it needs are missing. */
  apply(definitions: GeminiDefinitions): void;
}

function definition(definitions: GeminiDefinitions, name: string): JsonObject {
  const found = definitions.get(name);
  if (!found) throw new Error(`hand rule needs definition "${name}", which the input lacks`);
  return found;
}

function property(definitions: GeminiDefinitions, name: string, field: string): JsonObject {
  const properties = definition(definitions, name).properties;
  const found = isJsonObject(properties) ? properties[field] : undefined;
  if (!isJsonObject(found))
    throw new Error(`hand rule needs field "${name}.${field}", which the input lacks`);
  return found;
}

/** Definitions the rules supply when the reference refers to them without defining them. */
export const SUPPLIED_DEFINITIONS = ['MediaResolution'] as const;

/** Fields the reference marks as required, less the exceptions below. */
const NOT_REQUIRED_IN_A_BODY = new Set([
  // The REST call carries the model in its URL path (`models/{model}:generateContent`), not its body.
  'GenerateContentRequest.model',
  // A Schema holding only `anyOf` (no `type`) is how unions are written; the converter emits them.
  'Schema.type',
]);

/** Parts of `Part.data`, the proto oneof of which a Part holds exactly one. */
const PART_DATA_FIELDS = [
  'text',
  'inlineData',
  'functionCall',
  'functionResponse',
  'fileData',
  'executableCode',
  'codeExecutionResult',
  'toolCall',
  'toolResponse',
] as const;

function exactlyOneOf(fields: readonly string[]): JsonObject {
  return { oneOf: fields.map((field) => ({ required: [field] })) };
}

function mutuallyExclusive(a: string, b: string): JsonObject {
  return { not: { required: [a, b] } };
}

function addAllOf(target: JsonObject, items: JsonObject[]): void {
  target.allOf = [...(Array.isArray(target.allOf) ? target.allOf : []), ...items];
}

/** The rules, in the order they apply (after {@link REQUIRED_RULE}, which reads raw descriptions). */
export const HAND_RULES: readonly HandRule[] = [
  {
    id: 'media-resolution-supplied',
    fact:
      'Part.mediaResolution refers to a MediaResolution message the document does not define; ' +
      'it is an object with a `level` (MEDIA_RESOLUTION_UNSPECIFIED, _LOW, _MEDIUM, _HIGH, _ULTRA_HIGH) and `numTokens`.',
    source:
      'discovery Part.mediaResolution ($ref without definition in revision 20260325); @google/genai PartMediaResolution',
    apply(definitions) {
      if (definitions.has('MediaResolution')) return;
      definitions.set('MediaResolution', {
        type: 'object',
        additionalProperties: false,
        properties: {
          level: {
            type: 'string',
            enum: [
              'MEDIA_RESOLUTION_UNSPECIFIED',
              'MEDIA_RESOLUTION_LOW',
              'MEDIA_RESOLUTION_MEDIUM',
              'MEDIA_RESOLUTION_HIGH',
              'MEDIA_RESOLUTION_ULTRA_HIGH',
            ],
          },
          numTokens: { type: 'integer', minimum: -2147483648, maximum: 2147483647 },
        },
      });
    },
  },
  {
    id: 'function-declaration-name',
    fact: 'A declared function name is letters, digits, `_ : . -`, starts with a letter or underscore, at most 128 characters.',
    source: 'discovery FunctionDeclaration.name',
    apply(definitions) {
      Object.assign(property(definitions, 'FunctionDeclaration', 'name'), {
        pattern: '^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$',
      });
    },
  },
  {
    id: 'function-call-name',
    fact: 'A called or answered function name is letters, digits, `_` and `-`, 1 to 128 characters.',
    source: 'discovery FunctionCall.name, FunctionResponse.name',
    apply(definitions) {
      for (const name of ['FunctionCall', 'FunctionResponse']) {
        Object.assign(property(definitions, name, 'name'), { pattern: '^[A-Za-z0-9_-]{1,128}$' });
      }
    },
  },
  {
    id: 'parameters-exclusive',
    fact: '`parameters` and `parametersJsonSchema` exclude each other; so do `response` and `responseJsonSchema`.',
    source:
      'discovery FunctionDeclaration.parametersJsonSchema, FunctionDeclaration.responseJsonSchema',
    apply(definitions) {
      addAllOf(definition(definitions, 'FunctionDeclaration'), [
        mutuallyExclusive('parameters', 'parametersJsonSchema'),
        mutuallyExclusive('response', 'responseJsonSchema'),
      ]);
    },
  },
  {
    id: 'function-response-object',
    fact: 'A function response is a JSON object (an array or a scalar is refused).',
    source: 'discovery FunctionResponse.response',
    apply(definitions) {
      const response = property(definitions, 'FunctionResponse', 'response');
      delete response.additionalProperties;
      response.type = 'object';
    },
  },
  {
    id: 'part-one-data-field',
    fact: `A Part holds exactly one data field (${PART_DATA_FIELDS.join(', ')}); a FunctionResponsePart holds its inlineData.`,
    source:
      'discovery Part (description: one of the accepted types in Part.data), FunctionResponsePart',
    apply(definitions) {
      addAllOf(definition(definitions, 'Part'), [exactlyOneOf(PART_DATA_FIELDS)]);
      definition(definitions, 'FunctionResponsePart').required = ['inlineData'];
    },
  },
  {
    id: 'content-role',
    fact: 'Content.role is `user` or `model`.',
    source: 'discovery Content.role',
    apply(definitions) {
      property(definitions, 'Content', 'role').enum = ['user', 'model'];
    },
  },
];

/** The rule that reads required fields from the reference's "Required." markers. */
export const REQUIRED_RULE = {
  id: 'required-from-prose',
  fact: 'A field whose reference text starts with "Required." is required, except GenerateContentRequest.model (sent in the URL) and Schema.type (anyOf-only schemas).',
  source: 'discovery field descriptions',
} as const;

/** The required fields of each definition, read from the discovery document's markers. */
export function requiredFields(discoverySchema: JsonObject, name: string): string[] {
  const properties = isJsonObject(discoverySchema.properties) ? discoverySchema.properties : {};
  return Object.entries(properties)
    .filter(([field, value]) => {
      const text =
        isJsonObject(value) && typeof value.description === 'string' ? value.description : '';
      return text.startsWith('Required.') && !NOT_REQUIRED_IN_A_BODY.has(`${name}.${field}`);
    })
    .map(([field]) => field)
    .sort();
}
