/**
 * Tool calls a server runs as a task, in both forms MCP has had. The tasks extension
 * (`io.modelcontextprotocol/tasks`, SEP-2663, on 2026-07-28 servers): the client declares the
 * extension in the call's per-request capabilities, a server may then answer `tools/call` with a
 * task handle (`resultType: "task"`) instead of the result, and `tasks/get` answers carry the
 * result once the task completed. The 2025-11-25 revision's experimental tasks (on the 2025
 * handshake): the client asks for a task (a `task` parameter) where the tool requires one
 * (`execution.taskSupport: "required"`) and the server declares task-augmented calls, the handle
 * is `{task}`, and `tasks/result` gives the result of a finished task. Either way the client
 * polls `tasks/get` until the task is completed, failed or cancelled, and sends `tasks/cancel`
 * when it gives up.
 *
 * Two SDK gaps are bridged on the transport, as `call-progress.ts` and `result-guard.ts` do:
 * the v2 client fills a request's capabilities itself and has no per-request way to add an
 * extension (a `_meta` of our own would replace its capabilities whole), so the declaration is
 * merged into the envelope it wrote, on the way out; and it refuses a `resultType: "task"`
 * answer (`Unsupported result type 'task'`), so the handle (of either form) is carried to us
 * inside a result it accepts. Every handle and every `tasks/get` answer is read with its read
 * contract (the extension's `CreateTaskResult` and `GetTaskResult`, 2025-11-25's `Task`).
 */
import type { ViolationDetail } from '../../errors.js';
import type { ReadNotice } from '../../generated/guards-common.js';
import {
  readMcpCreateTaskResult,
  readMcpGetTaskResult,
  readMcpTask,
} from '../../generated/guards-mcp.js';
import type { McpTool } from '../../generated/types.js';
import { isJsonObject } from '../../json/object.js';
import type { McpClient, McpTransport } from './mcp-client.js';
import { receiverOf } from './result-guard.js';

/** The extension's identifier, as capabilities name it. */
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Where a 2026-07-28 request carries the client's capabilities. */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** Our mark on a call that may become a task: taken off (and acted on) before it is sent. */
const DECLARE_TASKS = 'gemini-mcp-kit/declare-tasks';

/** The key a handle travels under, through the SDK, to the call that asked (never on the wire). */
const CARRIED_HANDLE = Symbol('gemini-mcp-kit task handle');

/** The shortest wait between two polls, whatever the server suggests. */
export const MIN_POLL_MS = 100;
/** The longest wait between two polls, whatever the server suggests. */
export const MAX_POLL_MS = 30_000;
/** The wait between polls when the server suggests none. */
const DEFAULT_POLL_MS = 1000;
/** How long a `tasks/cancel` is given: an acknowledgement, sent when the call is given up. */
const CANCEL_TIMEOUT_MS = 5000;

/** The statuses the extension defines; any other is read as still running, with a notice. */
const KNOWN_STATUSES: ReadonlySet<string> = new Set([
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
]);

/** A JSON object as received. */
type JsonObject = Record<string, unknown>;

/** What a transport is, for the two wrappers here: its sender and its receiver. */
type Sender = { send?: ((message: unknown, options?: unknown) => Promise<void>) | undefined };

/** Per transport: the ids of marked calls not yet answered. */
const marked = new WeakMap<McpTransport, Set<unknown>>();

/** What a client tells of the server, where its SDK says: the capabilities it declared. */
type WithServerCapabilities = { getServerCapabilities?: () => unknown };

/**
 * Whether a call of `tool` asks for a task the 2025-11-25 way: the tool requires one and the
 * server declares task-augmented `tools/call` (a tool that merely allows one is called directly,
 * without the polling's latency).
 */
function asksForLegacyTask(client: McpClient, tool: McpTool): boolean {
  const execution = (tool as { execution?: { taskSupport?: unknown } }).execution;
  if (execution?.taskSupport !== 'required') return false;
  const capabilities = (client as WithServerCapabilities).getServerCapabilities?.();
  const tasks = isJsonObject(capabilities) ? capabilities.tasks : undefined;
  const requests = isJsonObject(tasks) ? tasks.requests : undefined;
  const tools = isJsonObject(requests) ? requests.tools : undefined;
  return isJsonObject(tools) && isJsonObject(tools.call);
}

/**
 * The params of a `tools/call` of `tool` that may become a task: marked so that, on a
 * 2026-07-28 connection, the request declares the tasks extension (its capabilities otherwise
 * as the client declares them; nothing of the mark reaches the server), and, on the 2025
 * handshake, with a `task` parameter (its `ttl` the task's bound) where the tool requires a task
 * and the server declares task-augmented calls. Needs {@link followTasks} on the client before
 * the request is sent.
 *
 * @example
 * ```ts
 * followTasks(client);
 * const params = taskParams(client, tool, { name: tool.name, arguments: {} }, 600_000);
 * const raw = await client.request({ method: 'tools/call', params }, schema);
 * ```
 */
export function taskParams(
  client: McpClient,
  tool: McpTool,
  params: Record<string, unknown>,
  ttlMs: number,
): Record<string, unknown> {
  const meta = isJsonObject(params._meta) ? params._meta : {};
  return {
    ...params,
    ...(asksForLegacyTask(client, tool) ? { task: { ttl: ttlMs } } : {}),
    _meta: { ...meta, [DECLARE_TASKS]: true },
  };
}

/** The message to send for `message`: a marked call's mark replaced by the declaration. */
function declared(message: unknown, pending: Set<unknown>): unknown {
  if (!isJsonObject(message)) return message;
  // A call given up gets no answer: its id is forgotten when the SDK tells the server so.
  if (message.method === 'notifications/cancelled' && isJsonObject(message.params)) {
    pending.delete(message.params.requestId);
  }
  if (message.method !== 'tools/call') return message;
  const params = message.params;
  if (!isJsonObject(params) || !isJsonObject(params._meta) || !(DECLARE_TASKS in params._meta))
    return message;
  const { [DECLARE_TASKS]: _mark, ...meta } = params._meta;
  const capabilities = meta[CLIENT_CAPABILITIES];
  if (isJsonObject(capabilities)) {
    const extensions = isJsonObject(capabilities.extensions) ? capabilities.extensions : {};
    meta[CLIENT_CAPABILITIES] = {
      ...capabilities,
      extensions: { ...extensions, [TASKS_EXTENSION]: {} },
    };
  }
  pending.add(message.id);
  const rest: JsonObject = { ...params };
  if (Object.keys(meta).length === 0) delete rest._meta;
  else rest._meta = meta;
  return { ...message, params: rest };
}

/** The message to deliver for `message`: a marked call's task handle carried in a plain result. */
function carried(message: unknown, pending: Set<unknown>): unknown {
  if (!isJsonObject(message) || 'method' in message || !pending.has(message.id)) return message;
  pending.delete(message.id);
  const result = message.result;
  const handle =
    isJsonObject(result) &&
    (result.resultType === 'task' || (isJsonObject(result.task) && !('content' in result)));
  if (!handle) return message;
  return { ...message, result: { resultType: 'complete', content: [], [CARRIED_HANDLE]: result } };
}

/**
 * Equips `client`'s transport for task-based calls (idempotent per transport; call it after
 * `client.connect`): the calls {@link taskParams} marked declare the extension, and a task
 * handle answering one reaches the caller ({@link taskHandleOf}).
 *
 * @example
 * ```ts
 * await client.connect(transport);
 * followTasks(client);
 * ```
 */
export function followTasks(client: McpClient): void {
  const transport = client.transport;
  if (transport === undefined || marked.has(transport)) return;
  const pending = new Set<unknown>();
  marked.set(transport, pending);
  const sender = transport as Sender;
  const send = sender.send;
  if (send !== undefined) {
    sender.send = (message, options) => send.call(transport, declared(message, pending), options);
  }
  const receiver = receiverOf(transport);
  const deliver = receiver.onmessage;
  receiver.onmessage = (message, extra) => deliver?.(carried(message, pending), extra);
}

/**
 * The task handle a `tools/call` was answered with (the server's `CreateTaskResult` of either
 * form, as it came), or undefined for a result.
 *
 * @example
 * ```ts
 * const handle = taskHandleOf(raw); // {resultType: 'task', taskId: '786512e2', status: 'working', ...}
 * ```
 */
export function taskHandleOf(raw: unknown): unknown {
  return isJsonObject(raw) ? (raw as { [CARRIED_HANDLE]?: unknown })[CARRIED_HANDLE] : undefined;
}

/** A task's state as a poll (or its handle) reported it. */
export interface TaskState {
  readonly taskId: string;
  /** As the server wrote it: one of the extension's statuses, or one newer than it. */
  readonly status: string;
  readonly statusMessage?: string;
}

/** How a task ended for the call that waited on it. */
export type TaskEnd =
  /** Completed: the call's result, as the server wrote it (to be checked as any result). */
  | { readonly state: 'completed'; readonly task: TaskState; readonly result: unknown }
  /** Failed: the JSON-RPC error the request ran into. */
  | {
      readonly state: 'failed';
      readonly task: TaskState;
      readonly error: { code: number; message: string; data?: unknown };
    }
  /** Cancelled by the server (or on an earlier request of ours). */
  | { readonly state: 'cancelled'; readonly task: TaskState }
  /** A bound passed (`maxTaskMs`, or the task's own `ttlMs`): `tasks/cancel` was sent. */
  | {
      readonly state: 'expired';
      readonly task: TaskState;
      readonly bound: 'maxTaskMs' | 'ttlMs';
      readonly ms: number;
    }
  /** The caller's signal fired: `tasks/cancel` was sent. */
  | { readonly state: 'aborted'; readonly task: TaskState }
  /** The handle or a poll's answer broke its read contract. */
  | {
      readonly state: 'malformed';
      readonly what: 'task handle' | 'tasks/get result';
      readonly violations: readonly ViolationDetail[];
    };

/** How {@link awaitTask} waits. */
export interface AwaitTaskOptions {
  /** The longest the task may run, from its handle's arrival, in ms. */
  readonly maxTaskMs: number;
  /** The limit of each `tasks/get` request, in ms (the time left counts too). */
  readonly requestTimeoutMs: number;
  /** Gives the task up (a `tasks/cancel` is sent). */
  readonly signal?: AbortSignal | undefined;
  /** Hears each new status or status message (the handle's first); a throw goes to `onerror`. */
  readonly onStatus?: ((task: TaskState) => void) | undefined;
  /** Hears each novelty the handle and the polls hold (unknown fields, an unknown status). */
  readonly onNotice?: ((notice: ReadNotice) => void) | undefined;
}

/** The result schema handed to the SDK: anything passes, as it came (read here). */
type AnySchema = Parameters<McpClient['request']>[1];

/** What a task object read says, when it read. */
interface ReadTask {
  readonly task: TaskState;
  readonly pollIntervalMs: number | undefined;
  readonly ttlMs: number | null | undefined;
  /** The extension's: what a completed task resulted in, or the error a failed one met. */
  readonly result?: unknown;
  readonly error?: unknown;
}

/** A read that failed: what broke the contract. */
type Unread = { readonly violations: readonly ViolationDetail[] };

/** The two forms of tasks: the extension's (2026-07-28) and the 2025-11-25 revision's. */
type TaskForm = 'extension' | 'legacy';

const NOT_AN_OBJECT: Unread = {
  violations: [{ path: '', keyword: 'type', message: 'must be object' }],
};

/**
 * Reads an extension handle or poll: an absent `resultType` is its own (the revision reads an
 * absent one as `"complete"`; the v2 SDK takes the field off the results it hands on), and a
 * status the extension does not define is a notice, the rest read as for a running task.
 */
function readExtensionTask(
  value: unknown,
  handle: boolean,
  onNotice: AwaitTaskOptions['onNotice'],
): ReadTask | Unread {
  if (!isJsonObject(value)) return NOT_AN_OBJECT;
  const status = value.status;
  const unknownStatus = typeof status === 'string' && !KNOWN_STATUSES.has(status);
  const read = handle ? readMcpCreateTaskResult : readMcpGetTaskResult;
  const checked = read({
    resultType: handle ? 'task' : 'complete',
    ...value,
    ...(unknownStatus ? { status: 'working' } : {}),
  });
  if (checked.violations.length > 0) return { violations: checked.violations };
  for (const notice of checked.notices) onNotice?.(notice);
  if (unknownStatus) {
    onNotice?.({
      code: 'unknown-enum-value',
      schema: handle ? 'McpCreateTaskResult' : 'McpGetTaskResult',
      path: '/status',
      value: status,
      message: `task status "${status}" is unknown to the tasks extension; polled as still running`,
    });
  }
  return {
    task: stateOf(value),
    pollIntervalMs: typeof value.pollIntervalMs === 'number' ? value.pollIntervalMs : undefined,
    ttlMs: value.ttlMs as number | null | undefined,
    result: value.result,
    error: value.error,
  };
}

/**
 * Reads a 2025-11-25 task (a handle's `task`, or a `tasks/get` result) with its `Task` read
 * contract, which notices a status it does not define.
 */
function readLegacyTask(value: unknown, onNotice: AwaitTaskOptions['onNotice']): ReadTask | Unread {
  if (!isJsonObject(value)) return NOT_AN_OBJECT;
  const checked = readMcpTask(value);
  if (checked.violations.length > 0) return { violations: checked.violations };
  for (const notice of checked.notices) onNotice?.(notice);
  return {
    task: stateOf(value),
    pollIntervalMs: typeof value.pollInterval === 'number' ? value.pollInterval : undefined,
    ttlMs: value.ttl as number | null | undefined,
  };
}

/** The state a task object (read) reports. */
function stateOf(value: Record<string, unknown>): TaskState {
  return {
    taskId: value.taskId as string,
    status: value.status as string,
    ...(typeof value.statusMessage === 'string' ? { statusMessage: value.statusMessage } : {}),
  };
}

/** The wait before the next poll: the server's suggestion within our bounds. */
export function pollDelay(pollIntervalMs: number | undefined): number {
  const suggested = pollIntervalMs ?? DEFAULT_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, suggested));
}

/** Resolves after `ms`, or at once when `signal` fires. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Tells the server to cancel the task, bounded. The answer is an acknowledgement and the call's
 * outcome is already decided, so a failure of the cancel itself changes nothing for it.
 */
async function cancelTask(client: McpClient, taskId: string, schema: AnySchema): Promise<void> {
  try {
    await client.request({ method: 'tasks/cancel', params: { taskId } }, schema, {
      timeout: CANCEL_TIMEOUT_MS,
    });
  } catch {
    // best effort: the server may already have forgotten the task
  }
}

/** A JSON-RPC error as either SDK throws it (a numeric `code`), else undefined. */
function rpcError(error: unknown): { code: number; message: string; data?: unknown } | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, data } = error as Error & { code?: unknown; data?: unknown };
  if (typeof code !== 'number') return undefined;
  return { code, message: error.message, ...(data === undefined ? {} : { data }) };
}

/**
 * The end a terminal status gives, or undefined while the task runs. A finished 2025-11-25 task
 * gives its result (or its error) through `tasks/result`.
 */
async function terminal(
  form: TaskForm,
  read: ReadTask,
  client: McpClient,
  schema: AnySchema,
  requestOptions: { timeout: number; signal?: AbortSignal },
): Promise<TaskEnd | undefined> {
  const { task } = read;
  if (task.status === 'cancelled') return { state: 'cancelled', task };
  if (task.status !== 'completed' && task.status !== 'failed') return undefined;
  if (form === 'extension') {
    return task.status === 'completed'
      ? { state: 'completed', task, result: read.result }
      : { state: 'failed', task, error: read.error as { code: number; message: string } };
  }
  try {
    const result = await client.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      schema,
      requestOptions,
    );
    return { state: 'completed', task, result };
  } catch (error) {
    const failed = rpcError(error);
    if (task.status === 'failed' && failed !== undefined)
      return { state: 'failed', task, error: failed };
    throw error;
  }
}

/**
 * Waits for the task `handle` stands for (of either form): polls `tasks/get` at the server's
 * suggested interval (clamped to [{@link MIN_POLL_MS}, {@link MAX_POLL_MS}], 1 s when it gives
 * none) until the task completes, fails or is cancelled; sends `tasks/cancel` when `signal`
 * fires, when `maxTaskMs` passes, or when the task outlives its own time to live (the server may
 * have discarded it). A `tasks/get` (or `tasks/result`) that fails otherwise (a transport error,
 * its timeout) rejects, as the call would.
 *
 * @example
 * ```ts
 * const end = await awaitTask(client, taskHandleOf(raw), schema, { maxTaskMs: 600_000, requestTimeoutMs: 60_000 });
 * if (end.state === 'completed') console.log(end.result);
 * ```
 */
export async function awaitTask(
  client: McpClient,
  handle: unknown,
  schema: AnySchema,
  options: AwaitTaskOptions,
): Promise<TaskEnd> {
  const { signal, onStatus, onNotice, maxTaskMs } = options;
  const started = performance.now();
  const form: TaskForm =
    isJsonObject(handle) && handle.resultType !== 'task' && isJsonObject(handle.task)
      ? 'legacy'
      : 'extension';
  const readPoll = (value: unknown): ReadTask | Unread =>
    form === 'legacy' ? readLegacyTask(value, onNotice) : readExtensionTask(value, false, onNotice);
  let read =
    form === 'legacy'
      ? readLegacyTask((handle as { task: unknown }).task, onNotice)
      : readExtensionTask(handle, true, onNotice);
  let heard: TaskState | undefined;
  for (;;) {
    if ('violations' in read) {
      return {
        state: 'malformed',
        what: heard === undefined ? 'task handle' : 'tasks/get result',
        violations: read.violations,
      };
    }
    const { task } = read;
    if (heard?.status !== task.status || heard.statusMessage !== task.statusMessage) {
      heard = task;
      try {
        onStatus?.(task);
      } catch (error) {
        // As a throw from a progress handler: the client's, not the call's.
        client.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
    const ttl = typeof read.ttlMs === 'number' ? read.ttlMs : Number.POSITIVE_INFINITY;
    const bound = ttl < maxTaskMs ? 'ttlMs' : 'maxTaskMs';
    const limit = Math.min(ttl, maxTaskMs);
    const requestOptions = (): { timeout: number; signal?: AbortSignal } => {
      const left = limit - (performance.now() - started);
      return {
        timeout: Math.max(1, Math.min(options.requestTimeoutMs, Math.ceil(left))),
        ...(signal === undefined ? {} : { signal }),
      };
    };
    const given = (): boolean => signal?.aborted === true || performance.now() - started >= limit;
    let polled: unknown;
    try {
      const end = await terminal(form, read, client, schema, requestOptions());
      if (end !== undefined) return end;
      if (!given()) {
        await pause(
          Math.min(pollDelay(read.pollIntervalMs), limit - (performance.now() - started)),
          signal,
        );
      }
      if (!given()) {
        polled = await client.request(
          { method: 'tasks/get', params: { taskId: task.taskId } },
          schema,
          requestOptions(),
        );
      }
    } catch (error) {
      // Cut off by the caller or by our own bound: the task is given up, as between polls.
      if (!given()) throw error;
    }
    if (given()) {
      await cancelTask(client, task.taskId, schema);
      return signal?.aborted
        ? { state: 'aborted', task }
        : { state: 'expired', task, bound, ms: limit };
    }
    read = readPoll(polled);
  }
}
