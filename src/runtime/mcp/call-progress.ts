/**
 * A running call's MCP `notifications/progress`, bounded and told to the caller with the call
 * they belong to. Read off the transport as each message arrives, not through the SDK's
 * `onprogress`: the SDK runs notification handlers a microtask late but settles a response at
 * once, so the progress a server sends just before its result would be lost
 * (modelcontextprotocol/typescript-sdk#2580, open for SDK 1.32).
 */
import type { ResolvedCall } from '../../adapter/types.js';
import { isJsonObject } from '../../json/object.js';
import { truncateUtf8 } from '../../json/utf8.js';
import type { McpClient, McpTransport } from './mcp-client.js';
import { receiverOf } from './result-guard.js';
import type { TaskState } from './tasks.js';

/** What a progress notification's params hold, unchecked: the server wrote them. */
interface ProgressParams {
  progress?: unknown;
  total?: unknown;
  message?: unknown;
}

/** The longest progress message passed on, in UTF-8 bytes (longer ones are cut, marked `…`). */
export const MAX_PROGRESS_MESSAGE_BYTES = 1024;

/** The UTF-8 length of the `…` that marks a cut message. */
const ELLIPSIS_BYTES = 3;

/** One progress notification a server sent about a running call, as `onProgress` hears it. */
export interface CallProgress {
  /** The call's position among the items given (0 for the first): tells apart calls without id. */
  readonly index: number;
  /** The model's id for the call, or null when it sent none. */
  readonly callId: string | null;
  /** The name the model called. */
  readonly exposedName: string;
  readonly serverId: string;
  /** Progress so far, as the server counts it (always a finite number). */
  readonly progress: number;
  /** The total the server expects, when it gave a finite one. */
  readonly total?: number;
  /** The server's message, capped at 1 KiB of UTF-8 (1024 bytes, a longer one cut with `…`). */
  readonly message?: string;
  /**
   * For a call the server runs as a task: the task and the status it reported. `progress` then
   * counts the status reports heard (each new status or status message), and `message` is the
   * task's status message.
   */
  readonly task?: { readonly taskId: string; readonly status: string };
}

/** `message` as told: capped at {@link MAX_PROGRESS_MESSAGE_BYTES}, a longer one cut with `…`. */
function capped(message: string): string {
  const fits = truncateUtf8(message, MAX_PROGRESS_MESSAGE_BYTES).length === message.length;
  return fits ? message : `${truncateUtf8(message, MAX_PROGRESS_MESSAGE_BYTES - ELLIPSIS_BYTES)}…`;
}

/**
 * The progress handler of one call: each notification whose `progress` is a finite
 * number reaches `onProgress` with the call's index, id, exposed name and server; a total that
 * is not finite is left out, a message that is not a string too, and a long one is cut.
 *
 * @example
 * ```ts
 * const handler = progressHandler(call, 0, (p) => console.log(p.exposedName, p.progress, p.total));
 * handler({ progress: 1, total: 3 }); // logs: hello 1 3
 * ```
 */
export function progressHandler(
  call: ResolvedCall,
  index: number,
  onProgress: (progress: CallProgress) => void,
): (params: ProgressParams) => void {
  const { callId, exposedName, serverId } = call;
  return ({ progress, total, message }) => {
    if (typeof progress !== 'number' || !Number.isFinite(progress)) return;
    const told: { -readonly [K in keyof CallProgress]: CallProgress[K] } = {
      index,
      callId,
      exposedName,
      serverId,
      progress,
    };
    if (typeof total === 'number' && Number.isFinite(total)) told.total = total;
    if (typeof message === 'string') told.message = capped(message);
    onProgress(told);
  };
}

/**
 * The status handler of one call run as a task: each status report reaches `onProgress` with
 * the call's index, id, exposed name and server, the task, `progress` counting the reports
 * (1 for the first) and the status message, capped as any progress message.
 *
 * @example
 * ```ts
 * const handler = taskProgressHandler(call, 0, (p) => console.log(p.task?.status, p.message));
 * handler({ taskId: 't1', status: 'working', statusMessage: 'step 1 of 3' }); // logs: working step 1 of 3
 * ```
 */
export function taskProgressHandler(
  call: ResolvedCall,
  index: number,
  onProgress: (progress: CallProgress) => void,
): (task: TaskState) => void {
  const { callId, exposedName, serverId } = call;
  let reports = 0;
  return ({ taskId, status, statusMessage }) => {
    reports += 1;
    onProgress({
      index,
      callId,
      exposedName,
      serverId,
      progress: reports,
      ...(statusMessage === undefined ? {} : { message: capped(statusMessage) }),
      task: { taskId, status },
    });
  };
}

/** Our progress tokens: strings, so they never meet the SDK's numeric ones. */
const TOKEN_PREFIX = 'gemini-mcp-progress-';
let tokens = 0;
/** Per transport (so a server only reaches its own calls), the handlers by token. */
const handlersOf = new WeakMap<McpTransport, Map<string, (params: ProgressParams) => void>>();

/** The token of one of our progress notifications, if `message` is one. */
function ourToken(message: unknown): string | undefined {
  if (!isJsonObject(message) || message.method !== 'notifications/progress') return undefined;
  const params = message.params;
  const token = isJsonObject(params) ? params.progressToken : undefined;
  return typeof token === 'string' && token.startsWith(TOKEN_PREFIX) ? token : undefined;
}

/**
 * Has `handler` hear the progress notifications of one request on `client`: put the returned
 * `progressToken` in the request's `_meta`, and call `stop` once it settled. Our notifications
 * are taken off the transport as they arrive (before the response that follows them), the
 * late ones too, so the SDK never sees a token it does not know. A throw from `handler` goes to
 * the client's `onerror`. A server hears only its own calls' tokens, and its notifications
 * reach only its own calls.
 *
 * @example
 * ```ts
 * const { progressToken, stop } = followProgress(client, (params) => console.log(params));
 * try {
 *   await client.request({ method: 'tools/call', params: { name, arguments: {}, _meta: { progressToken } } }, ResultSchema);
 * } finally {
 *   stop();
 * }
 * ```
 */
export function followProgress(
  client: McpClient,
  handler: (params: ProgressParams) => void,
): { progressToken: string; stop: () => void } {
  const transport = client.transport;
  let handlers = transport === undefined ? undefined : handlersOf.get(transport);
  if (transport !== undefined && handlers === undefined) {
    const ours = new Map<string, (params: ProgressParams) => void>();
    handlers = ours;
    handlersOf.set(transport, ours);
    const receiver = receiverOf(transport);
    const deliver = receiver.onmessage;
    receiver.onmessage = (message, extra) => {
      const token = ourToken(message);
      if (token === undefined) return deliver?.(message, extra);
      const params = (message as { params: ProgressParams }).params;
      try {
        ours.get(token)?.(params);
      } catch (error) {
        client.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    };
  }
  tokens += 1;
  const progressToken = `${TOKEN_PREFIX}${tokens}`;
  handlers?.set(progressToken, handler);
  return { progressToken, stop: () => void handlers?.delete(progressToken) };
}
