/**
 * Checks a tool result's `structuredContent` against the tool's declared `outputSchema`, with
 * the JSON Schema dialect the schema names (draft-07 for SDK servers, 2020-12 by default).
 */
import type { ViolationDetail } from '../errors.js';
import { compileServerSchema, violationsOf } from './tool-schemas.js';

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
  const validate = compileServerSchema(outputSchema);
  if (validate === null || validate(value)) return [];
  return violationsOf(validate.errors);
}
