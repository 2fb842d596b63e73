/**
 * Checks a tool result's `structuredContent` against the tool's declared `outputSchema`, with
 * the JSON Schema dialect the schema names (draft-07 for SDK servers, 2020-12 by default).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ViolationDetail } from '../errors.js';

const AJV_OPTIONS = { strict: false, allErrors: true, validateFormats: false } as const;

let engines: { draft7: Ajv; draft2019: Ajv2019; draft2020: Ajv2020 } | undefined;

function engineFor(schema: object): Ajv | Ajv2019 | Ajv2020 {
  engines ??= {
    draft7: new Ajv(AJV_OPTIONS),
    draft2019: new Ajv2019(AJV_OPTIONS),
    draft2020: new Ajv2020(AJV_OPTIONS),
  };
  const dialect = String((schema as { $schema?: unknown }).$schema ?? '');
  if (/draft-0[467]/.test(dialect)) return engines.draft7;
  if (dialect.includes('2019-09')) return engines.draft2019;
  return engines.draft2020;
}

/** Compiled validators by schema object; `null` for a schema that does not compile. */
const compiled = new WeakMap<object, ValidateFunction | null>();

function validatorFor(schema: object): ValidateFunction | null {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    try {
      const { $schema: _dialect, ...body } = schema as Record<string, unknown>;
      validate = engineFor(schema).compile(body);
    } catch {
      validate = null;
    }
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * The violations of `value` against `outputSchema` (empty when it conforms). Validators are
 * compiled once per schema object. A schema that cannot be compiled (a remote `$ref`, an
 * unknown dialect feature) checks nothing: the result is the tool's to vouch for.
 *
 * @example
 * ```ts
 * checkOutputSchema({ type: 'object', required: ['price'] }, { currency: 'EUR' });
 * // [{path: '', message: "must have required property 'price'", keyword: 'required'}]
 * ```
 */
export function checkOutputSchema(outputSchema: object, value: unknown): ViolationDetail[] {
  const validate = validatorFor(outputSchema);
  if (validate === null || validate(value)) return [];
  return (validate.errors ?? []).map((e) => ({
    path: e.instancePath,
    message: e.message ?? e.keyword,
    keyword: e.keyword,
  }));
}
