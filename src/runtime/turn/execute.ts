/**
 * Runs resolved tool calls on MCP clients: one outcome per call, in call order, never a throw
 * for one call's failure.
 */
import { unknown } from 'zod/v4';
import { TOO_DEEP, toolSchemaViolations } from '../../adapter/tools/tool-schemas.js';
import type { CallItem, RejectedItem } from '../../adapter/turn/calls.js';
import {
  isToolError,
  type ResolvedCall,
  type ToolError,
  type ToolResult,
} from '../../adapter/types.js';
import type { ReadNotice } from '../../generated/guards-common.js';
import { isMcpCallToolResult, readMcpCallToolResult } from '../../generated/guards-mcp.js';
import { type CallProgress, followProgress, progressHandler } from '../mcp/call-progress.js';
import { isTrusted, transportErrorSince, wasClosed } from '../mcp/client-state.js';
import {
  answersInputRequests,
  checkInputRequiredLimits,
  fulfilInputRequests,
  type InputRequiredLimits,
  isInputRequired,
} from '../mcp/input-required.js';
import type { McpClient, McpRequestOptions } from '../mcp/mcp-client.js';
import { guardResults } from '../mcp/result-guard.js';
import { followTasks, taskHandleOf, taskParams } from '../mcp/tasks.js';
import { paramHeaders } from '../mcp/tool-headers.js';
import { checkCount, checkTimeout } from '../options.js';
import { type ApprovalOptions, approveCall } from './approval.js';
import { mapConcurrent } from './pool.js';
import { taskCallResult } from './task-call.js';
import { describeCall, toolErrorFrom, violationError } from './tool-errors.js';

/**
 * The MCP clients calls run on, by server id: `connectServers`' `clients`, or clients of your
 * own (either MCP SDK's `Client`, see {@link McpClient}).
 */
export type ClientMap = ReadonlyMap<string, McpClient> | Readonly<Record<string, McpClient>>;

/** A call that was run, and what came of it. */
export interface ExecutedCall {
  readonly kind: 'call';
  readonly call: ResolvedCall;
  /**
   * The server's result (possibly `isError: true`), proven against the MCP CallToolResult
   * schema and the tool's outputSchema, or the error that stands in for one.
   */
  readonly result: ToolResult | ToolError;
  /** Wall time of the call, from its start (not its time queued) to its outcome. */
  readonly durationMs: number;
}

/** What came of one item of a model turn: the call run, or the rejection passed through. */
export type Outcome = ExecutedCall | RejectedItem;

/** Options of {@link executeToolCalls}. */
export interface ExecuteOptions extends ApprovalOptions {
  /**
   * Per-call limit, in ms; the MCP request is cancelled when it passes. For a call the server
   * runs as a task, the limit of the `tools/call` that creates it and of each `tasks/get`:
   * the task itself is bounded by `maxTaskMs`.
   *
   * @defaultValue 60000
   */
  timeoutMs?: number;
  /**
   * Whether calls may run as tasks, polled (`tasks/get`) instead of holding the request open:
   * on 2026-07-28 connections each call declares the MCP tasks extension
   * (`io.modelcontextprotocol/tasks`) and the server decides per call; on the 2025 handshake a
   * tool that requires a task (2025-11-25's `execution.taskSupport: "required"`) is called as
   * one. A server that never creates tasks answers as before.
   *
   * @defaultValue true
   */
  tasks?: boolean;
  /**
   * The longest a call the server runs as a task may take, in ms, from its task handle; then
   * (or when `signal` fires, or the task outlives its own `ttlMs`) the task is cancelled with
   * `tasks/cancel` and the call answered `TIMEOUT` (`CANCELLED`).
   *
   * @defaultValue 600000
   */
  maxTaskMs?: number;
  /**
   * Calls in flight at once.
   *
   * @defaultValue 8
   */
  concurrency?: number;
  /** Cancels every call not yet answered (the servers are told) and every call not yet started. */
  signal?: AbortSignal;
  /** Hears each novelty a result holds that no known MCP version defines (kept as it came). */
  onNotice?: (notice: ReadNotice) => void;
  /**
   * Hears the servers' `notifications/progress` about each running call (given, each call's
   * request carries a progress token). Progress that is not a finite number is dropped and
   * messages are capped at 1 KiB; every other notification is passed on as it arrives, so
   * throttle what you draw. Progress does not extend `timeoutMs`: it stays the limit of the
   * whole call, so a server cannot keep a call open by reporting progress. A throw from it
   * goes to the client's `onerror`, as from any notification handler.
   */
  onProgress?: (progress: CallProgress) => void;
  /**
   * Bounds on a call that a 2026-07-28 server answers with `input_required` (multi round-trip
   * requests: elicitations, sampling and roots requests answered through the client's features,
   * then the call retried with the answers). A server that keeps asking ends the call, answered
   * to the model as a ToolError naming the limit (`INPUT_LIMIT` with `data.limit` `maxRounds`
   * or `maxRequestBytes`); `timeoutMs` bounds the whole call, rounds and answers included
   * (`TIMEOUT`, `data.limit: 'timeoutMs'`), and an input request the client does not answer or
   * refuses ends it as `INPUT_REFUSED`. Applies to clients equipped by gemini-mcp-kit
   * (`connectServers`, `equipClient`, `serveSampling`); another v2 client runs its SDK's own
   * loop.
   */
  inputRequired?: InputRequiredLimits;
}

/** Default per-call timeout. */
const DEFAULT_TIMEOUT_MS = 60_000;

/** Default bound of a call run as a task: ten minutes. */
const DEFAULT_MAX_TASK_MS = 600_000;

/** Default number of calls in flight. */
const DEFAULT_CONCURRENCY = 8;

/**
 * The result schema handed to the SDK: anything passes, as it came. The SDK's own `ResultSchema`
 * (an open object with an optional `_meta`) would copy every result only for {@link checkResult}
 * to check it again, whole, against the MCP CallToolResult schema.
 */
const AS_RECEIVED = unknown();

/** Options of a call made with none. */
const NO_OPTIONS: ExecuteOptions = {};

function clientOf(clients: ClientMap, serverId: string): McpClient | undefined {
  if (clients instanceof Map) return clients.get(serverId);
  const record = clients as Readonly<Record<string, McpClient>>;
  return Object.hasOwn(record, serverId) ? record[serverId] : undefined;
}

/**
 * The result itself when it is a valid CallToolResult (its read contract) meeting the output
 * schema, else a ToolError.
 */
function checkResult(
  call: ResolvedCall,
  raw: unknown,
  onNotice: ExecuteOptions['onNotice'],
): ToolResult | ToolError {
  // The strict check alone for the common, valid result; the read contract for the rest.
  if (!isMcpCallToolResult(raw)) {
    const { violations, notices } = readMcpCallToolResult(raw);
    for (const notice of notices)
      onNotice?.({ ...notice, message: `${describeCall(call)}: ${notice.message}` });
    const first = violations[0];
    if (first !== undefined) {
      return violationError(
        'INVALID_RESULT',
        call,
        'returned a malformed result',
        first,
        violations,
      );
    }
  }
  const result = raw as ToolResult;
  const { outputSchema } = call.tool;
  if (outputSchema === undefined || result.isError === true) return result;
  if (result.structuredContent === undefined) {
    return {
      code: 'OUTPUT_SCHEMA_MISMATCH',
      message: `${describeCall(call)} declares an output schema but returned no structuredContent`,
    };
  }
  const mismatches = toolSchemaViolations(outputSchema, result.structuredContent) ?? [];
  const firstMismatch = mismatches[0];
  if (firstMismatch === undefined) return result;
  if (firstMismatch.keyword === TOO_DEEP) {
    return {
      code: 'INVALID_RESULT',
      message: `${describeCall(call)} returned structuredContent that cannot be checked: at ${firstMismatch.path} it ${firstMismatch.message}`,
    };
  }
  return violationError(
    'OUTPUT_SCHEMA_MISMATCH',
    call,
    'returned structuredContent that fails its output schema',
    firstMismatch,
    mismatches,
  );
}

/** The outcome of `call`, timed from `started` to now. */
function outcome(
  call: ResolvedCall,
  started: number,
  result: ToolResult | ToolError,
): ExecutedCall {
  return { kind: 'call', call, result, durationMs: performance.now() - started };
}

/** The call an item asks to run (a bare call is one), or undefined for a rejected item. */
function toRun(item: CallItem | ResolvedCall): ResolvedCall | undefined {
  return !('kind' in item) ? item : item.kind === 'call' ? item.call : undefined;
}

/** What a run call's promise carries: the outcome as it is (the pool), or as a list (one call). */
type Deliver<T> = (executed: ExecutedCall) => T;
const itself: Deliver<ExecutedCall> = (executed) => executed;
const inList: Deliver<Outcome[]> = (executed) => [executed];

/** What a running call undoes when it settles: its listener on the caller's signal, its progress. */
function release(
  signal: AbortSignal | undefined,
  forward: (() => void) | undefined,
  progress: { stop: () => void } | undefined,
): void {
  if (forward !== undefined) signal?.removeEventListener('abort', forward);
  progress?.stop();
}

/** The ToolError standing in for the result of `call` on `client`, which failed with `error`. */
function failure(
  error: unknown,
  call: ResolvedCall,
  client: McpClient,
  started: number,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): ToolError {
  return toolErrorFrom(error, {
    call,
    cancelled: signal?.aborted === true,
    clientClosed: wasClosed(client),
    transportError: transportErrorSince(client, started),
    timeoutMs,
  });
}

/**
 * Runs `call`: the request and one reaction to it, which hands the outcome to `deliver` (no
 * async frame of its own, no hop after it), so a call costs the adapter a single promise hop
 * over the bare request.
 */
function executed<T>(
  call: ResolvedCall,
  clients: ClientMap,
  options: ExecuteOptions,
  index: number,
  deliver: Deliver<T>,
): Promise<T> {
  const started = performance.now();
  const { signal } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (signal?.aborted) {
    return Promise.resolve(
      deliver(
        outcome(call, started, {
          code: 'CANCELLED',
          message: `${describeCall(call)} was cancelled before it started`,
        }),
      ),
    );
  }
  const client = clientOf(clients, call.serverId);
  if (client === undefined) {
    return Promise.resolve(
      deliver(
        outcome(call, started, {
          code: 'UNKNOWN_SERVER',
          message: `no server "${call.serverId}" is connected; ${describeCall(call)} was not run`,
        }),
      ),
    );
  }
  // A signal of our own per call, only when the caller gave one: the SDK never removes its
  // abort listener, so handing it the caller's signal would pile up one listener per call.
  const controller = signal === undefined ? undefined : new AbortController();
  guardResults(client);
  const forward =
    controller === undefined ? undefined : (): void => controller.abort(signal?.reason);
  if (forward !== undefined) signal?.addEventListener('abort', forward, { once: true });
  const { onProgress } = options;
  const progress =
    onProgress === undefined
      ? undefined
      : followProgress(client, progressHandler(call, index, onProgress));
  const tasks = options.tasks !== false;
  const maxTaskMs = options.maxTaskMs ?? DEFAULT_MAX_TASK_MS;
  if (tasks) followTasks(client);
  const { name, arguments: args } = call;
  const params =
    progress === undefined
      ? { name, arguments: args }
      : { name, arguments: args, _meta: { progressToken: progress.progressToken } };
  const request = {
    method: 'tools/call',
    params: tasks ? taskParams(client, call.tool, params, maxTaskMs) : params,
  };
  const requestOptions: McpRequestOptions =
    controller === undefined
      ? { timeout: timeoutMs }
      : { signal: controller.signal, timeout: timeoutMs };
  if (answersInputRequests(client)) requestOptions.allowInputRequired = true;
  // 2026-07-28 over Streamable HTTP: the arguments the tool's x-mcp-header annotations name go
  // in Mcp-Param-* headers too (a v2 client's transport sends them; stdio has no headers).
  const modern = (client as { getProtocolEra?: () => unknown }).getProtocolEra?.() === 'modern';
  const headers = modern ? paramHeaders(call.tool.inputSchema, args) : {};
  if (Object.keys(headers).length > 0) requestOptions.headers = headers;
  let sent: Promise<unknown>;
  try {
    sent = client.request(request, AS_RECEIVED, requestOptions);
  } catch (error) {
    sent = Promise.reject(error);
  }
  const settle = (raw: unknown): T => {
    release(signal, forward, progress);
    let result: ToolResult | ToolError;
    try {
      result = checkResult(call, raw, options.onNotice);
    } catch (error) {
      result = failure(error, call, client, started, signal, timeoutMs);
    }
    return deliver(outcome(call, started, result));
  };
  const fail = (error: unknown): T => {
    release(signal, forward, progress);
    return deliver(
      outcome(call, started, failure(error, call, client, started, signal, timeoutMs)),
    );
  };
  // A result may be a task's handle (polled to its end) and, on 2026-07-28, input the server
  // requires first (answered, then the call sent again).
  const finish = (raw: unknown): T | Promise<T> => {
    const handle = taskHandleOf(raw);
    if (handle === undefined) return settle(raw);
    return taskCallResult(handle, {
      call,
      index,
      client,
      schema: AS_RECEIVED,
      maxTaskMs,
      timeoutMs,
      signal: controller?.signal,
      onProgress,
      onNotice: options.onNotice,
    }).then((ended) => {
      if (!('result' in ended)) {
        release(signal, forward, progress);
        return deliver(outcome(call, started, ended));
      }
      return settle(ended.result);
    }, fail);
  };
  return sent.then(
    (raw) =>
      isInputRequired(raw)
        ? fulfilInputRequests(client, request, raw, {
            limits: options.inputRequired,
            deadline: started + timeoutMs,
            timeoutMs,
            signal: controller?.signal,
            headers: requestOptions.headers,
          }).then(finish, fail)
        : finish(raw),
    fail,
  );
}

/**
 * Runs `call` once the approval hook allows it (as it edited it), or delivers the error that
 * answers it; without a hook, or for a call that cannot start (cancelled, unknown server), at once.
 */
function approvedThenExecuted<T>(
  call: ResolvedCall,
  clients: ClientMap,
  options: ExecuteOptions,
  index: number,
  deliver: Deliver<T>,
): Promise<T> {
  const { onToolCall, signal } = options;
  const client = clientOf(clients, call.serverId);
  if (onToolCall === undefined || client === undefined || signal?.aborted) {
    return executed(call, clients, options, index, deliver);
  }
  const trusted = isTrusted(client) || options.trustedServers?.includes(call.serverId) === true;
  return approveCall(call, trusted, onToolCall, options).then((approved) =>
    isToolError(approved)
      ? deliver(outcome(call, performance.now(), approved))
      : executed(approved, clients, options, index, deliver),
  );
}

/**
 * Runs the calls of a model turn on their servers' clients, at most `concurrency` at a time,
 * and returns one {@link Outcome} per item, in order: pass `functionCalls(...).items` and a
 * rejected item comes back as it is, a call as an {@link ExecutedCall}; pass calls alone
 * (`functionCalls(...).calls`) and each comes back executed. Every failure (timeout,
 * cancellation, transport, closed client, unknown server, a result that fails the MCP
 * CallToolResult schema or the tool's outputSchema) becomes a `ToolError` with its code; a
 * single call never throws. Timeouts and `signal` cancel the MCP request itself, so the server
 * gets `notifications/cancelled`. `onProgress` hears each call's progress notifications with
 * the call's index, id, exposed name and server. `onToolCall` is asked before each call runs
 * (see {@link ApprovalOptions}): a call it does not allow is answered with its error, unrun. A
 * call the server runs as a task (the MCP tasks extension) is polled until it ends, within
 * `maxTaskMs`, and answered like any other call; its status reports reach `onProgress`. Throws
 * INVALID_INPUT (naming the option) for a `concurrency` that is not a whole number >= 1 or
 * Infinity, or a `timeoutMs`, `approvalTimeoutMs` or `maxTaskMs` outside (0, 2^31 - 1].
 *
 * @example
 * ```ts
 * const { items } = functionCalls(response, connections.toolset);
 * const outcomes = await executeToolCalls(items, connections.clients, { timeoutMs: 10_000 });
 * for (const outcome of outcomes) {
 *   if (outcome.kind === 'call') console.log(outcome.call.exposedName, isToolError(outcome.result) ? outcome.result.code : 'ok');
 * }
 * ```
 */
export function executeToolCalls(
  calls: readonly ResolvedCall[],
  clients: ClientMap,
  options?: ExecuteOptions,
): Promise<ExecutedCall[]>;
export function executeToolCalls(
  items: readonly CallItem[],
  clients: ClientMap,
  options?: ExecuteOptions,
): Promise<Outcome[]>;
export function executeToolCalls(
  items: readonly (CallItem | ResolvedCall)[],
  clients: ClientMap,
  options: ExecuteOptions = NO_OPTIONS,
): Promise<Outcome[]> {
  // Not an async function (a single call would pay its frame and a hop): every throw is
  // turned into the rejection an async function would give.
  try {
    checkCount('concurrency', options.concurrency, true);
    checkTimeout('timeoutMs', options.timeoutMs);
    checkTimeout('approvalTimeoutMs', options.approvalTimeoutMs);
    checkInputRequiredLimits(options.inputRequired);
    checkTimeout('maxTaskMs', options.maxTaskMs);
    if (items.length === 1) {
      const only = items[0]!;
      const call = toRun(only);
      return call === undefined
        ? Promise.resolve([only as RejectedItem])
        : approvedThenExecuted(call, clients, options, 0, inList);
    }
    return mapConcurrent(items, options.concurrency ?? DEFAULT_CONCURRENCY, (item, index) => {
      try {
        const call = toRun(item);
        return call === undefined
          ? Promise.resolve(item as RejectedItem)
          : approvedThenExecuted(call, clients, options, index, itself);
      } catch (error) {
        return Promise.reject(error);
      }
    });
  } catch (error) {
    return Promise.reject(error);
  }
}
