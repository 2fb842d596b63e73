/**
 * A tool call its server runs as a task (the MCP tasks extension): waited on until it ends, its
 * status reports told as progress, its end turned into the call's result or the error the model
 * reads, naming the task's state.
 */
import type { ResolvedCall, ToolError } from '../../adapter/types.js';
import type { ReadNotice } from '../../generated/guards-common.js';
import { type CallProgress, taskProgressHandler } from '../mcp/call-progress.js';
import type { McpClient } from '../mcp/mcp-client.js';
import { awaitTask, type TaskEnd } from '../mcp/tasks.js';
import { describeCall, violationError } from './tool-errors.js';

/** What waiting on one call's task needs. */
export interface TaskCallContext {
  readonly call: ResolvedCall;
  readonly index: number;
  readonly client: McpClient;
  /** The SDK's result schema: anything, as it came. */
  readonly schema: Parameters<McpClient['request']>[1];
  readonly maxTaskMs: number;
  /** The limit of each `tasks/get`, as of the call itself. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: CallProgress) => void) | undefined;
  readonly onNotice?: ((notice: ReadNotice) => void) | undefined;
}

/** The error the model reads for a task that did not complete, or the result it completed with. */
function outcomeOf(call: ResolvedCall, end: TaskEnd): { result: unknown } | ToolError {
  if (end.state === 'completed') return { result: end.result };
  if (end.state === 'malformed') {
    const first = end.violations[0]!;
    return violationError('INVALID_RESULT', call, `returned a malformed ${end.what}`, first, [
      ...end.violations,
    ]);
  }
  const { taskId, status, statusMessage } = end.task;
  const ran = `${describeCall(call)} ran as task "${taskId}"`;
  const said = statusMessage === undefined ? '' : ` (${statusMessage})`;
  const data = { taskId, taskStatus: status };
  switch (end.state) {
    case 'failed':
      return {
        code: 'PROTOCOL_ERROR',
        message: `${ran}, which ended "failed": ${end.error.message}${said}`,
        data: {
          ...data,
          mcpCode: end.error.code,
          ...(end.error.data === undefined ? {} : { mcpData: end.error.data }),
        },
      };
    case 'cancelled':
      return {
        code: 'CANCELLED',
        message: `${ran}, which the server ended "cancelled"${said}`,
        data,
      };
    case 'aborted':
      return {
        code: 'CANCELLED',
        message: `${ran} and was cancelled while "${status}"; the task was cancelled (tasks/cancel)`,
        data,
      };
    case 'expired':
      return {
        code: 'TIMEOUT',
        message: `${ran} and was still "${status}" after ${end.ms} ms (${end.bound === 'ttlMs' ? "the task's ttlMs" : 'maxTaskMs'}); the task was cancelled (tasks/cancel)`,
        data,
      };
  }
}

/**
 * Waits on the task `handle` stands for and gives the call's raw result (to be checked as any
 * result is) or the error standing in for it. A `tasks/get` that fails rejects.
 *
 * @example
 * ```ts
 * const settled = await taskCallResult(handle, { call, index: 0, client, schema, maxTaskMs: 600_000, timeoutMs: 60_000 });
 * ```
 */
export async function taskCallResult(
  handle: unknown,
  context: TaskCallContext,
): Promise<{ result: unknown } | ToolError> {
  const { call, index, client, onProgress, onNotice } = context;
  const end = await awaitTask(client, handle, context.schema, {
    maxTaskMs: context.maxTaskMs,
    requestTimeoutMs: context.timeoutMs,
    signal: context.signal,
    onStatus: onProgress === undefined ? undefined : taskProgressHandler(call, index, onProgress),
    onNotice:
      onNotice === undefined
        ? undefined
        : (notice) => onNotice({ ...notice, message: `${describeCall(call)}: ${notice.message}` }),
  });
  return outcomeOf(call, end);
}
