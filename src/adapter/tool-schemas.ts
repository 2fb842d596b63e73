/**
 * The JSON Schemas MCP servers publish with their tools (`inputSchema`, `outputSchema`):
 * compiled with ajv once per schema object, in the dialect the schema names, and the one place
 * where a value is checked against them and the violations are worded.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ViolationDetail } from '../errors.js';
import { appendPointer } from '../json/pointer.js';

/** Most violations reported for one value. */
const MAX_VIOLATIONS = 10;

const OPTIONS = {
  strict: false,
  allErrors: true,
  addUsedSchema: false,
  validateFormats: false,
  logger: false,
} as const;

let engines: { draft07: Ajv; draft2019: Ajv2019; draft2020: Ajv2020 } | undefined;

/** Draft-07 for `$schema` draft-04 to -07 (they mostly read the same), 2019-09, else 2020-12. */
function engineFor($schema: unknown): Ajv | Ajv2019 | Ajv2020 {
  engines ??= {
    draft07: new Ajv(OPTIONS),
    draft2019: new Ajv2019(OPTIONS),
    draft2020: new Ajv2020(OPTIONS),
  };
  const dialect = typeof $schema === 'string' ? $schema : '';
  if (/json-schema\.org\/draft-0[4-7]\/schema/.test(dialect)) return engines.draft07;
  if (dialect.includes('2019-09')) return engines.draft2019;
  return engines.draft2020;
}

/** Compiled validators by schema object; `null` marks a schema ajv cannot compile. */
const compiled = new WeakMap<object, ValidateFunction | null>();

/** The schema's validator, compiled on first use and cached; `null` when ajv cannot compile it. */
function validatorOf(schema: object): ValidateFunction | null {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    const { $schema, ...body } = schema as Record<string, unknown>;
    try {
      validate = engineFor($schema).compile(body);
    } catch {
      validate = null;
    }
    compiled.set(schema, validate);
  }
  return validate;
}

/** ajv errors as violations, worded as the generated guards word them. */
function violationsOf(errors: readonly ErrorObject[] | null | undefined): ViolationDetail[] {
  return (errors ?? []).slice(0, MAX_VIOLATIONS).map((error) => {
    const missing = error.keyword === 'required' ? error.params.missingProperty : undefined;
    if (typeof missing === 'string') {
      return {
        path: appendPointer(error.instancePath, missing),
        message: `required field "${missing}" is missing`,
        keyword: 'required',
      };
    }
    return {
      path: error.instancePath,
      message: error.message ?? `fails ${error.keyword}`,
      keyword: error.keyword,
    };
  });
}

/**
 * The violations of `value` against a server's JSON Schema (empty when it conforms), at most
 * ten, each with the JSON pointer into `value`. Draft 2020-12 by default, draft-07 when the
 * schema's `$schema` says so (04 and 06 are read as 07); formats are not checked. A schema ajv
 * cannot compile (a remote `$ref`, an unknown feature) checks nothing: `undefined`, and the
 * server stays the judge of its own data.
 *
 * @example
 * ```ts
 * toolSchemaViolations(tool.inputSchema, { city: 42 });
 * // [{ path: '/city', message: 'must be string', keyword: 'type' }]
 * ```
 */
export function toolSchemaViolations(
  schema: object,
  value: unknown,
): ViolationDetail[] | undefined {
  const validate = validatorOf(schema);
  if (validate === null) return undefined;
  return validate(value) ? [] : violationsOf(validate.errors);
}
