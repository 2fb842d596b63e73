/**
 * JSON Schema to Gemini's `Schema` (the OpenAPI 3.0 subset of `FunctionDeclaration.parameters`
 * and `response`), with a report of every loss. Every schema returned passes the vendored
 * Gemini `Schema` validator.
 */

import { GeminiMcpError } from '../errors.js';
import { checkSchema } from '../generated/guards.js';
import type { Schema } from '../generated/types.js';
import { proveContract } from '../json/contract.js';
import { isJsonObject, setOwn } from '../json/object.js';
import { convertNode } from './convert/node.js';
import type { Context } from './convert/scope.js';
import { canonicalJson, conjunct, Unsatisfiable } from './keywords.js';
import {
  ExpansionBudget,
  indexSchema,
  planExpansion,
  resolveLimits,
  surveySchema,
} from './limits.js';
import type { SchemaWarning } from './losses.js';
import { LossReport, schemaWarning } from './losses.js';
import { RefResolver } from './refs.js';

export type { SchemaWarning, SchemaWarningCode } from './losses.js';

/** Options of {@link toGeminiSchema} and {@link toGeminiParameters}. */
export interface ToGeminiSchemaOptions {
  /** How many times one `$ref` may be expanded inside itself before the recursion is cut (default 3). */
  maxRefDepth?: number;
  /** Deepest schema nesting accepted, in the input and after `$ref` expansion (default 64). */
  maxDepth?: number;
  /** Most schema nodes the input may hold (default 10,000). */
  maxNodes?: number;
  /**
   * Most source nodes expanded into the output, each counted at every place it lands, plus
   * `$ref`s followed (default 20,000): stops schema bombs. A `$ref` fan-out without recursion
   * estimated past it is refused before any conversion.
   */
  maxExpandedNodes?: number;
  /**
   * Most nodes `$ref` expansion may bring into the output (default 500, or the input's own
   * node count when larger). A schema whose expansion is estimated past it has its recursive
   * `$ref`s cut at their first re-entry; if still too large, its `$ref`s are expanded
   * breadth-first and cut below the last level that fits. Each cut keeps the target's type, title
   * and description, and is reported as `weakened` at the `$ref`.
   */
  maxOutputNodes?: number;
  /** Append a short note of the constraints lost at each node to its description (default false). */
  describeLosses?: boolean;
}

/** A converted schema and the report of what it lost. */
export interface GeminiSchemaResult {
  schema: Schema;
  /** One warning per source keyword dropped, weakened or rewritten, with its JSON pointer. */
  warnings: SchemaWarning[];
}

/**
 * Converts a JSON Schema (draft 4 to 2020-12) to Gemini's `Schema`. Types map to Gemini's
 * `Type` (`["T", "null"]` to `nullable`, several types to `anyOf`), local `$ref`s are inlined
 * (recursion cut at `maxRefDepth`), `allOf` is merged, `oneOf` becomes `anyOf`, enums and
 * bounds are rewritten into forms Gemini takes; whatever cannot be said is reported. The input
 * is never mutated.
 *
 * @throws GeminiMcpError `SCHEMA_UNSUPPORTED` (not a schema, a remote `$ref` or one to nowhere,
 * a schema no value satisfies) or `SCHEMA_TOO_LARGE` (deeper than `maxDepth`, more than
 * `maxNodes`, expanding past `maxExpandedNodes`), each with the JSON pointer concerned;
 * `CONTRACT_VIOLATION` if the output failed the Gemini `Schema` validator (a gemini-mcp-kit bug).
 *
 * @example
 * ```ts
 * const { schema, warnings } = toGeminiSchema({
 *   type: 'object',
 *   properties: { count: { type: ['integer', 'null'], exclusiveMinimum: 0 } },
 *   additionalProperties: false,
 * });
 * // schema: { type: 'OBJECT', properties: { count: { type: 'INTEGER', minimum: 1, nullable: true } } }
 * // warnings: [{ code: 'SCHEMA_DROPPED', path: '', keyword: 'additionalProperties', action: 'dropped', ... }]
 * ```
 */
export function toGeminiSchema(
  jsonSchema: unknown,
  options: ToGeminiSchemaOptions = {},
): GeminiSchemaResult {
  return convertSchema(jsonSchema, options, true);
}

/**
 * {@link toGeminiSchema} for `functionDeclarations`, without the proof of the output: the
 * caller proves the FunctionDeclaration that holds it, which covers the Schema.
 */
export function toDeclaredSchema(
  jsonSchema: unknown,
  options: ToGeminiSchemaOptions = {},
): GeminiSchemaResult {
  return convertSchema(jsonSchema, options, false);
}

function convertSchema(
  jsonSchema: unknown,
  options: ToGeminiSchemaOptions,
  prove: boolean,
): GeminiSchemaResult {
  const limits = resolveLimits(options);
  const survey = surveySchema(jsonSchema, limits);
  const report = new LossReport();
  const refs = new RefResolver(
    isJsonObject(jsonSchema) && typeof jsonSchema.$id === 'string' ? jsonSchema.$id : undefined,
    () => indexSchema(jsonSchema, limits),
  );
  const ctx: Context = {
    refs,
    plan: survey.hasRefs
      ? planExpansion(jsonSchema, refs, limits, survey.nodes)
      : {
          refDepth: limits.maxRefDepth,
          cutDepth: Number.POSITIVE_INFINITY,
          reason: undefined,
          budget: limits.maxOutputNodes,
        },
    limits,
    budget: new ExpansionBudget(limits),
    report,
    describeLosses: options.describeLosses === true,
  };
  let schema: Schema;
  try {
    schema = convertNode(ctx, [conjunct(jsonSchema, '', [])], 0);
  } catch (error) {
    if (!(error instanceof Unsatisfiable)) throw error;
    throw new GeminiMcpError(
      'SCHEMA_UNSUPPORTED',
      `the schema accepts no value: ${error.message}`,
      {
        path: error.pointer,
      },
    );
  }
  return {
    schema: prove ? proveContract(schema, checkSchema, { schema: 'Schema' }) : schema,
    warnings: report.list(),
  };
}

/** The `parameters` of a tool: `undefined` for a tool without arguments. */
export interface GeminiParametersResult {
  schema: Schema | undefined;
  warnings: SchemaWarning[];
}

/**
 * Converts an MCP tool's `inputSchema` for `FunctionDeclaration.parameters` (or an
 * `outputSchema` for `response`). A schema without properties gives `undefined`: the
 * declaration then gets no `parameters` at all, which Gemini takes where an empty OBJECT fails.
 * A union of objects at the root ("these fields or those") is merged into one OBJECT, reported
 * as weakened.
 *
 * @throws GeminiMcpError as {@link toGeminiSchema} does, and `SCHEMA_UNSUPPORTED` when the
 * schema does not describe objects.
 *
 * @example
 * ```ts
 * toGeminiParameters({ type: 'object', properties: {} }).schema; // undefined
 * toGeminiParameters({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }).schema;
 * // { type: 'OBJECT', properties: { q: { type: 'STRING' } }, required: ['q'] }
 * ```
 */
export function toGeminiParameters(
  inputSchema: unknown,
  options: ToGeminiSchemaOptions = {},
): GeminiParametersResult {
  return convertParameters(inputSchema, options, true);
}

/**
 * {@link toGeminiParameters} for `functionDeclarations`, without the proof of the output: the
 * caller proves the FunctionDeclaration that holds it, which covers the Schema.
 */
export function toDeclaredParameters(
  inputSchema: unknown,
  options: ToGeminiSchemaOptions = {},
): GeminiParametersResult {
  return convertParameters(inputSchema, options, false);
}

function convertParameters(
  inputSchema: unknown,
  options: ToGeminiSchemaOptions,
  prove: boolean,
): GeminiParametersResult {
  const converted = convertSchema(inputSchema, options, prove);
  const { warnings } = converted;
  let schema = converted.schema;
  const merged = mergeObjectUnion(schema);
  if (merged !== undefined) {
    schema = prove ? proveContract(merged, checkSchema, { schema: 'Schema' }) : merged;
    const keyword =
      isJsonObject(inputSchema) && Object.hasOwn(inputSchema, 'oneOf') ? 'oneOf' : 'anyOf';
    const detail =
      'Gemini parameters are one OBJECT: the object branches were merged, and a property ' +
      'required by only some branches became optional';
    const earlier = warnings.findIndex((w) => w.path === '' && w.keyword === keyword);
    const previous = warnings[earlier];
    if (previous === undefined) warnings.push(schemaWarning('', keyword, 'weakened', detail));
    else
      warnings[earlier] = schemaWarning('', keyword, 'weakened', `${previous.detail}; ${detail}`);
  }
  if (schema.type !== 'OBJECT') {
    throw new GeminiMcpError('SCHEMA_UNSUPPORTED', 'tool parameters must be an object schema', {
      path: '',
      data: { type: schema.type ?? 'anyOf' },
    });
  }
  if (schema.properties !== undefined) return { schema, warnings };
  if (isJsonObject(inputSchema) && typeof inputSchema.description === 'string') {
    warnings.push(
      schemaWarning(
        '',
        'description',
        'dropped',
        'a tool without arguments gets no parameters, so this description is not sent',
      ),
    );
  }
  return { schema: undefined, warnings };
}

// Gemini's `parameters` must be one OBJECT, but a tool may take "these fields or those" (a root
// `anyOf`/`oneOf` of objects, or a union distributed over the root's properties). Such a union
// is merged into one OBJECT: every property of any branch, each property's schemas joined by
// `anyOf`, and required only what every branch requires. That accepts more than the union did,
// so the caller reports it as weakened.

/** The OBJECT a root union of objects merges into, or `undefined` when `schema` is not one. */
function mergeObjectUnion(schema: Schema): Schema | undefined {
  const branches = schema.anyOf;
  if (
    schema.type !== undefined ||
    branches === undefined ||
    !branches.every((b) => b.type === 'OBJECT')
  ) {
    return undefined;
  }
  const byName = new Map<string, Map<string, Schema>>();
  for (const branch of branches) {
    for (const [name, property] of Object.entries(branch.properties ?? {})) {
      const variants = byName.get(name) ?? new Map<string, Schema>();
      for (const variant of property.anyOf !== undefined && Object.keys(property).length === 1
        ? property.anyOf
        : [property]) {
        variants.set(canonicalJson(variant), variant);
      }
      byName.set(name, variants);
    }
  }
  const properties: Record<string, Schema> = {};
  for (const [name, variants] of byName) {
    const list = [...variants.values()];
    const value = list.length === 1 ? (list[0] as Schema) : { anyOf: list };
    setOwn(properties, name, value);
  }
  const merged: Schema = { type: 'OBJECT' };
  const names = Object.keys(properties);
  if (names.length > 0) merged.properties = properties;
  if (names.length > 1) merged.propertyOrdering = names;
  const required = (branches[0]?.required ?? []).filter((name) =>
    branches.every((branch) => branch.required?.includes(name) === true),
  );
  if (required.length > 0) merged.required = required;
  for (const key of ['title', 'description', 'default', 'example'] as const) {
    if (Object.hasOwn(schema, key)) merged[key] = schema[key] as never;
  }
  return merged;
}
