/** Checks a call's arguments against its tool's inputSchema with ajv, compiled once per tool. */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ViolationDetail } from './errors.js';
import type { McpTool } from './generated/types.js';
import { appendPointer } from './json-pointer.js';

/** `$schema` values compiled as draft-07 (draft-06 and draft-04 schemas mostly read the same). */
const DRAFT_07_STYLE = /json-schema\.org\/draft-0[4-7]\/schema/;

/** Most violations reported for one call. */
const MAX_VIOLATIONS = 10;

const sharedOptions = {
  strict: false,
  allErrors: true,
  addUsedSchema: false,
  validateFormats: false,
  logger: false,
} as const;

let compilers: { draft2020: Ajv2020; draft07: Ajv } | undefined;

/** Compiled validators by tool; `null` marks an inputSchema ajv cannot compile. */
const cache = new WeakMap<McpTool, ValidateFunction | null>();

function compile(inputSchema: McpTool['inputSchema']): ValidateFunction | null {
  compilers ??= { draft2020: new Ajv2020(sharedOptions), draft07: new Ajv(sharedOptions) };
  const { $schema, ...schema } = inputSchema as Record<string, unknown>;
  const compiler =
    typeof $schema === 'string' && DRAFT_07_STYLE.test($schema)
      ? compilers.draft07
      : compilers.draft2020;
  try {
    return compiler.compile(schema);
  } catch {
    return null;
  }
}

/** An ajv error as a violation; a missing property is reported at its own path. */
function toViolation(error: ErrorObject): ViolationDetail {
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
}

/**
 * The violations of `args` against `tool.inputSchema` (empty when valid), at most ten, each
 * with the JSON pointer into the arguments. The schema is compiled on first use and cached per
 * tool object; draft 2020-12 by default, draft-07 when its `$schema` says so (04 and 06 are
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
  let validate = cache.get(tool);
  if (validate === undefined) {
    validate = compile(tool.inputSchema);
    cache.set(tool, validate);
  }
  if (validate === null) return undefined;
  if (validate(args)) return [];
  return (validate.errors ?? []).slice(0, MAX_VIOLATIONS).map(toViolation);
}
