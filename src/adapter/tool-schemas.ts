/**
 * Validators for the JSON Schemas MCP servers publish (tool inputSchema and outputSchema),
 * compiled with ajv once per schema object, in the dialect the schema names.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ViolationDetail } from '../errors.js';
import { appendPointer } from '../json/pointer.js';

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

/**
 * The validator of a server's JSON Schema, compiled on first use and cached per schema object;
 * `null` when ajv cannot compile it (a remote `$ref`, an unknown feature). Formats are not checked.
 *
 * @example
 * ```ts
 * const validate = compileServerSchema(tool.inputSchema);
 * if (validate && !validate(args)) console.log(violationsOf(validate.errors));
 * ```
 */
export function compileServerSchema(schema: object): ValidateFunction | null {
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

/** ajv errors as violations; a missing property is reported at its own path. */
export function violationsOf(errors: readonly ErrorObject[] | null | undefined): ViolationDetail[] {
  return (errors ?? []).map((error) => {
    const missing = error.keyword === 'required' ? error.params.missingProperty : undefined;
    if (typeof missing === 'string') {
      return {
        path: appendPointer(error.instancePath, missing),
        message: 'is required but missing',
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
