/**
 * Turns whatever a failed MCP `tools/call` threw into a {@link ToolError} the model can act on.
 */
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

/** JSON-RPC "connection closed" (-32000): v1's client code, and our stand-in for a cut-off download. */
const CONNECTION_CLOSED = -32_000;

/** v1's client-side "request timed out" (-32001). */
const V1_REQUEST_TIMEOUT = -32_001;

/**
 * What an SDK error says, read by structure (no SDK is imported for it): a JSON-RPC error (v2's
 * `ProtocolError`, v1's `McpError`) has a numeric `code`; v2's `SdkError` (and `SdkHttpError`)
 * a string one (`SdkErrorCode`: `REQUEST_TIMEOUT`, `CONNECTION_CLOSED`, `NOT_CONNECTED`, ...).
 */
type SdkFailure =
  | { kind: 'rpc'; code: number; message: string; data: unknown; v1: boolean }
  | { kind: 'sdk'; code: string; message: string }
  | { kind: 'other'; message: string };

function sdkFailure(error: unknown): SdkFailure {
  if (!(error instanceof Error)) return { kind: 'other', message: String(error) };
  const { code, data } = error as { code?: unknown; data?: unknown };
  if (typeof code === 'number') {
    return { kind: 'rpc', code, message: error.message, data, v1: error.name === 'McpError' };
  }
  if (typeof code === 'string' && error.name.startsWith('Sdk')) {
    return { kind: 'sdk', code, message: error.message };
  }
  return { kind: 'other', message: error.message };
}

/** The error of a connection that closed under the call: on purpose (CLIENT_CLOSED) or not. */
function closedError(context: FailureContext): ToolError {
  const { call } = context;
  if (context.clientClosed) {
    return {
      code: 'CLIENT_CLOSED',
      message: `the client of server "${call.serverId}" was closed before ${describeCall(call)} answered`,
    };
  }
  const cause = context.transportError === undefined ? '' : ` (${context.transportError.message})`;
  return {
    code: 'TRANSPORT',
    message: `the connection to server "${call.serverId}" closed before ${describeCall(call)} answered${cause}`,
  };
}

/**
 * Classifies a failure of `client.request('tools/call')`: cancellation, timeout, a client
 * closed on purpose before or during the call, a connection that closed under it (the server
 * exited), a multi round-trip call its input requests ended (`INPUT_LIMIT`, `INPUT_REFUSED`,
 * `TIMEOUT`, with the limit in `data`), a result the SDK would drop or refused (`INVALID_RESULT`,
 * see `guardResults`), a JSON-RPC error the server answered with, or any other transport
 * failure. The errors of both SDKs' clients are read by their codes: v2's `ProtocolError`
 * (numeric) and `SdkError` (`SdkErrorCode`), v1's `McpError`.
 *
 * @example
 * ```ts
 * toolErrorFrom(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'), {
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
  const failure = sdkFailure(error);
  const timedOut: ToolError = {
    code: 'TIMEOUT',
    message: `${describeCall(call)} did not answer within ${timeoutMs} ms; the request was cancelled`,
  };
  const notConnected: ToolError = {
    code: 'CLIENT_CLOSED',
    message: `server "${call.serverId}" is not connected; ${describeCall(call)} was not run`,
  };
  switch (failure.kind) {
    case 'rpc':
      if (failure.v1 && failure.code === V1_REQUEST_TIMEOUT) return timedOut;
      if (failure.code === CONNECTION_CLOSED) return closedError(context);
      return {
        code: 'PROTOCOL_ERROR',
        message: `${describeCall(call)} failed: ${failure.message}`,
        data: {
          mcpCode: failure.code,
          ...(failure.data === undefined ? {} : { mcpData: failure.data }),
        },
      };
    case 'sdk':
      if (failure.code === 'REQUEST_TIMEOUT') return timedOut;
      if (failure.code === 'CONNECTION_CLOSED') return closedError(context);
      if (failure.code === 'NOT_CONNECTED') return notConnected;
      if (failure.code === 'INVALID_RESULT') {
        return {
          code: 'INVALID_RESULT',
          message: `${describeCall(call)} returned a malformed result: ${failure.message}`,
        };
      }
      return { code: 'TRANSPORT', message: `${describeCall(call)} failed: ${failure.message}` };
    case 'other':
      // v1's client throws a plain Error with this text when it has no transport.
      if (failure.message === 'Not connected') return notConnected;
      return { code: 'TRANSPORT', message: `${describeCall(call)} failed: ${failure.message}` };
  }
}
