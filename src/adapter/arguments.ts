/** Checks a call's arguments against its tool's inputSchema with ajv, compiled once per tool. */
import type { ViolationDetail } from '../errors.js';
import type { McpTool } from '../generated/types.js';
import { compileServerSchema, violationsOf } from './tool-schemas.js';

/** Most violations reported for one call. */
const MAX_VIOLATIONS = 10;

/**
 * The violations of `args` against `tool.inputSchema` (empty when valid), at most ten, each
 * with the JSON pointer into the arguments. The schema is compiled on first use and cached per
 * schema object; draft 2020-12 by default, draft-07 when its `$schema` says so (04 and 06 are
 * read as 07). Formats are not checked. `undefined` when ajv cannot compile the schema (the
 * server still checks the arguments itself).
 *
 * @example
 * ```ts
 * argumentViolations(tool, { city: 42 }); // [{ path: '/city', message: 'must be string', keyword: 'type' }]
 * ```
 */
export function argumentViolations(
  tool: McpTool,
  args: Record<string, unknown>,
): ViolationDetail[] | undefined {
  const validate = compileServerSchema(tool.inputSchema);
  if (validate === null) return undefined;
  if (validate(args)) return [];
  return violationsOf(validate.errors).slice(0, MAX_VIOLATIONS);
}
