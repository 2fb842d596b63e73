/**
 * Turns whatever a failed MCP `tools/call` threw into a {@link ToolError} the model can act on.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedCall, ToolError, ToolErrorCode } from '../../adapter/types.js';
import type { ViolationDetail } from '../../errors.js';
import { InputRequestsEnded } from '../mcp/input-required.js';
import { refusedResult } from '../mcp/result-guard.js';

/** What was known about the call when it failed. */
export interface FailureContext {
  call: ResolvedCall;
  /** The caller's signal had fired: the call was cancelled, whatever the SDK reported. */
  cancelled: boolean;
  /** The client was closed on purpose (see `closeClient`) while or before the call ran. */
  clientClosed: boolean;
  /** The transport error reported while the call ran, when one was (see `watchClient`). */
  transportError?: Error | undefined;
  timeoutMs: number;
}

/**
 * How messages name a call's tool.
 *
 * @example
 * ```ts
 * describeCall(call); // 'tool "hello" on server "bitcoin"'
 * ```
 */
export function describeCall(call: ResolvedCall): string {
  return `tool "${call.name}" on server "${call.serverId}"`;
}

/** Violations quoted in an error's data, at most. */
const MAX_QUOTED_VIOLATIONS = 10;

/**
 * The error standing in for a result of `call` that breaks a contract: `what` it did, the first
 * violation in the message (its pointer, `/` for the result itself), the first ten in `data`.
 *
 * @example
 * ```ts
 * violationError('INVALID_RESULT', call, 'returned a malformed result', violation);
 * // message: 'tool "hello" on server "bitcoin" returned a malformed result (/content: must be array)'
 * ```
 */
export function violationError(
  code: ToolErrorCode,
  call: ResolvedCall,
  what: string,
  first: ViolationDetail,
  all: readonly ViolationDetail[] = [first],
): ToolError {
  return {
    code,
    message: `${describeCall(call)} ${what} (${first.path || '/'}: ${first.message})`,
    data: { violations: all.slice(0, MAX_QUOTED_VIOLATIONS) },
  };
}

/**
 * Classifies a failure of `client.request('tools/call')`: cancellation, timeout, a client
 * closed on purpose before or during the call, a connection that closed under it (the server
 * exited), a multi round-trip call its input requests ended (`INPUT_LIMIT`, `INPUT_REFUSED`,
 * `TIMEOUT`, with the limit in `data`), a result the SDK would drop (`INVALID_RESULT`, see `guardResults`), a JSON-RPC
 * error the server answered with, or any other transport failure.
 *
 * @example
 * ```ts
 * toolErrorFrom(new McpError(ErrorCode.RequestTimeout, 'Request timed out'), {
 *   call,
 *   cancelled: false,
 *   clientClosed: false,
 *   timeoutMs: 5000,
 * });
 * // {code: 'TIMEOUT', message: 'tool "slow" on server "a" did not answer within 5000 ms; the request was cancelled'}
 * ```
 */
export function toolErrorFrom(error: unknown, context: FailureContext): ToolError {
  const { call, cancelled, timeoutMs } = context;
  if (cancelled) {
    return { code: 'CANCELLED', message: `${describeCall(call)} was cancelled before it answered` };
  }
  if (error instanceof InputRequestsEnded) {
    return { code: error.code, message: `${describeCall(call)} ${error.reason}`, data: error.data };
  }
  const refused = refusedResult(error);
  if (refused !== undefined) {
    return violationError('INVALID_RESULT', call, 'returned a malformed result', {
      path: refused.path,
      keyword: refused.keyword,
      message: refused.problem,
    });
  }
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      return {
        code: 'TIMEOUT',
        message: `${describeCall(call)} did not answer within ${timeoutMs} ms; the request was cancelled`,
      };
    }
    if (error.code === ErrorCode.ConnectionClosed && context.clientClosed) {
      return {
        code: 'CLIENT_CLOSED',
        message: `the client of server "${call.serverId}" was closed before ${describeCall(call)} answered`,
      };
    }
    if (error.code === ErrorCode.ConnectionClosed) {
      const cause =
        context.transportError === undefined ? '' : ` (${context.transportError.message})`;
      return {
        code: 'TRANSPORT',
        message: `the connection to server "${call.serverId}" closed before ${describeCall(call)} answered${cause}`,
      };
    }
    return {
      code: 'PROTOCOL_ERROR',
      message: `${describeCall(call)} failed: ${error.message}`,
      data: { mcpCode: error.code, ...(error.data === undefined ? {} : { mcpData: error.data }) },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (message === 'Not connected') {
    return {
      code: 'CLIENT_CLOSED',
      message: `server "${call.serverId}" is not connected; ${describeCall(call)} was not run`,
    };
  }
  return { code: 'TRANSPORT', message: `${describeCall(call)} failed: ${message}` };
}
