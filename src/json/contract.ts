/** Proves what the adapter returns against the generated validators. */
import type { ViolationDetail } from '../errors.js';
import { GeminiMcpError } from '../errors.js';

/** What a contract check is about, for the error message. */
export interface ContractContext {
  /** The generated schema the value must pass (`FunctionDeclaration`, `Part`, ...). */
  schema: string;
  /** The exposed tool name the value belongs to, when there is one. */
  tool?: string;
}

/**
 * Returns `value` when `check` finds nothing wrong with it; otherwise throws
 * CONTRACT_VIOLATION (a bug in gemini-mcp-kit, never the caller's fault) naming the tool, the
 * schema and the JSON pointer of the first violation, with every violation in `details`.
 *
 * @example
 * ```ts
 * const part = proveContract({ functionResponse: { name, response } }, checkPart, {
 *   schema: 'Part',
 *   tool: name,
 * });
 * ```
 */
export function proveContract<T>(
  value: T,
  check: (candidate: unknown) => ViolationDetail[],
  context: ContractContext,
): T {
  const violations = check(value);
  const first = violations[0];
  if (first === undefined) return value;
  const about = context.tool === undefined ? '' : ` for tool "${context.tool}"`;
  throw new GeminiMcpError(
    'CONTRACT_VIOLATION',
    `gemini-mcp-kit produced an invalid ${context.schema}${about} at "${first.path}": ${first.message}`,
    {
      path: first.path,
      details: violations,
      data: {
        schema: context.schema,
        ...(context.tool === undefined ? {} : { tool: context.tool }),
      },
    },
  );
}
