/**
 * Seeded generative tests (SC-5, SC-7): random JSON Schemas convert to a Gemini Schema that
 * passes the vendored validator, with well-formed warnings pointing into the source and the
 * source untouched, or fail with a typed error. Then semantic spot checks with ajv: every
 * sampled instance the source accepts, the converted schema (mapped back to JSON Schema)
 * accepts too; and when no warning reports a dropped or weakened constraint, the converse holds.
 * Each run visits a fixed range of seeds and collects every failing seed before asserting.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { checkSchema } from '../../src/generated/guards.js';
import type { GeminiSchemaResult } from '../../src/schema/to-gemini-schema.js';
import { toGeminiParameters, toGeminiSchema } from '../../src/schema/to-gemini-schema.js';
import { anySchemaDocument, typedSchemaDocument } from './arbitraries.js';
import { atPointer, deepFreeze, makeAjv, prng, sampleInstance, toJsonSchema } from './support.js';

/** Seeds `BASE_SEED` to `BASE_SEED + RUNS - 1`; `SCHEMA_GEN_RUNS` and `SCHEMA_GEN_SEED` widen a local sweep. */
const BASE_SEED = Number(process.env.SCHEMA_GEN_SEED ?? 20_260_401);
const RUNS = Number(process.env.SCHEMA_GEN_RUNS ?? 400);
/** Generous: the semantic checks compile two validators per schema, and suites run in parallel. */
const TIMEOUT_MS = Math.max(120_000, RUNS * 100);
const ACTIONS = new Set(['dropped', 'rewritten', 'weakened']);

interface Failure {
  seed: number;
  problem: string;
}

function isTypedRefusal(error: unknown): boolean {
  return (
    error instanceof GeminiMcpError &&
    (error.code === 'SCHEMA_UNSUPPORTED' || error.code === 'SCHEMA_TOO_LARGE') &&
    typeof error.path === 'string'
  );
}

/** Converts `schema`, returning the result, or `undefined` after a typed refusal; records any other outcome. */
function convertOrRefuse(
  seed: number,
  schema: unknown,
  failures: Failure[],
): GeminiSchemaResult | undefined {
  const before = JSON.stringify(schema);
  let result: GeminiSchemaResult | undefined;
  try {
    result = toGeminiSchema(deepFreeze(schema), { describeLosses: seed % 2 === 0 });
  } catch (error) {
    if (!isTypedRefusal(error)) failures.push({ seed, problem: `untyped error: ${String(error)}` });
    return undefined;
  }
  if (JSON.stringify(schema) !== before) failures.push({ seed, problem: 'input mutated' });
  const violations = checkSchema(result.schema);
  if (violations.length > 0)
    failures.push({ seed, problem: `invalid output: ${JSON.stringify(violations)}` });
  for (const warning of result.warnings) {
    if (
      !ACTIONS.has(warning.action) ||
      warning.detail === '' ||
      atPointer(schema, warning.path) === undefined
    ) {
      failures.push({ seed, problem: `malformed warning ${JSON.stringify(warning)}` });
    }
  }
  return result;
}

/** `toGeminiParameters` gives no parameters, one valid OBJECT, or a typed refusal. */
function checkParameters(seed: number, schema: unknown, failures: Failure[]): void {
  try {
    const parameters = toGeminiParameters(schema).schema;
    if (
      parameters !== undefined &&
      (parameters.type !== 'OBJECT' || checkSchema(parameters).length > 0)
    ) {
      failures.push({ seed, problem: `invalid parameters: ${JSON.stringify(parameters)}` });
    }
  } catch (error) {
    if (!isTypedRefusal(error))
      failures.push({ seed, problem: `untyped error (parameters): ${String(error)}` });
  }
}

function hasNestedArray(value: unknown, inArray = false): boolean {
  if (Array.isArray(value)) return inArray || value.some((item) => hasNestedArray(item, true));
  if (value !== null && typeof value === 'object')
    return Object.values(value).some((item) => hasNestedArray(item));
  return false;
}

describe('SC-7 generative', () => {
  it(
    `SC-7: ${RUNS} random JSON Schemas give a valid Gemini Schema (and parameters) or a typed error`,
    () => {
      const failures: Failure[] = [];
      let converted = 0;
      for (let seed = BASE_SEED; seed < BASE_SEED + RUNS; seed++) {
        const [schema] = fc.sample(anySchemaDocument, { seed, numRuns: 1 });
        if (convertOrRefuse(seed, schema, failures) !== undefined) converted++;
        checkParameters(seed, schema, failures);
      }
      expect(failures).toEqual([]);
      expect(converted).toBeGreaterThan(RUNS / 2);
    },
    TIMEOUT_MS,
  );

  it(
    `SC-5: semantic spot checks on ${RUNS} typed schemas: no valid instance lost, no silent loss`,
    () => {
      const failures: Failure[] = [];
      const ajv = makeAjv();
      let checked = 0;
      for (let seed = BASE_SEED; seed < BASE_SEED + RUNS; seed++) {
        const [schema] = fc.sample(typedSchemaDocument, { seed, numRuns: 1 });
        const result = convertOrRefuse(seed, schema, failures);
        if (result === undefined) continue;
        const source = ajv.compile(structuredClone(schema) as object);
        const target = ajv.compile(toJsonSchema(result.schema));
        const random = prng(seed);
        const instances = [
          ...Array.from({ length: 20 }, () => sampleInstance(result.schema, random)),
          ...fc.sample(fc.jsonValue({ maxDepth: 2 }), { seed, numRuns: 10 }),
        ];
        const exact = result.warnings.every((warning) => warning.action === 'rewritten');
        // "Any value" cannot hold arrays nested in arrays in Gemini's Schema; the warning says so.
        const noNestedArrays = result.warnings.some(
          (warning) =>
            warning.action === 'rewritten' &&
            ['items', 'required', 'type'].includes(warning.keyword),
        );
        for (const instance of instances) {
          const inSource = source(instance);
          const inTarget = target(instance);
          if (inSource && !inTarget && !(noNestedArrays && hasNestedArray(instance))) {
            failures.push({ seed, problem: `valid instance refused: ${JSON.stringify(instance)}` });
          }
          if (exact && inTarget && !inSource) {
            failures.push({
              seed,
              problem: `silent loss, instance now accepted: ${JSON.stringify(instance)}`,
            });
          }
          if (inSource) checked++;
        }
      }
      expect(failures).toEqual([]);
      expect(checked).toBeGreaterThan(RUNS);
    },
    TIMEOUT_MS,
  );
});
