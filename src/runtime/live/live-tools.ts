/**
 * MCP servers inside a Gemini Live session (`ai.live.connect` of @google/genai): the session's
 * tools declared from the tool set, every `toolCall` answered through the same path as
 * `answerCalls` (names resolved, arguments checked, results proven, one response per call, ids
 * kept, bounded), each response sent as its call finishes; `toolCallCancellation` cancels the
 * matching MCP requests and answers nothing for them; long-running tools declared
 * `NON_BLOCKING`, their progress sent as coalesced `SILENT` responses.
 */
import { apiDialect, type Dialect } from '../../adapter/dialect.js';
import { dialectShapes } from '../../adapter/dialect-shapes.js';
import type { AnswerPart } from '../../adapter/shapes.js';
import { geminiTools } from '../../adapter/tools/declarations.js';
import type { ToolSet, ToolSetEntry } from '../../adapter/tools/toolset-types.js';
import { type CallItem, functionCalls } from '../../adapter/turn/calls.js';
import {
  type ResponseFormat,
  unprovenRejectionPart,
  unprovenResponsePart,
} from '../../adapter/turn/responses.js';
import type { ResolvedCall, ToolError, ToolResult } from '../../adapter/types.js';
import { proveContract } from '../../json/contract.js';
import { isJsonObject } from '../../json/object.js';
import type { CallProgress } from '../mcp/call-progress.js';
import type { ToolsChange } from '../mcp/live-toolset.js';
import { checkCount, checkTimeout } from '../options.js';
import type { ApprovalOptions } from '../turn/approval.js';
import { type ClientMap, executeToolCalls } from '../turn/execute.js';

/** How the model may go on while a call runs (the FunctionDeclaration's `behavior`). */
export type LiveBehavior = 'BLOCKING' | 'NON_BLOCKING';

/** When the model hears a non-blocking call's result (the FunctionResponse's `scheduling`). */
export type LiveScheduling = 'SILENT' | 'WHEN_IDLE' | 'INTERRUPT';

/** How one tool runs in a Live session. */
export interface LiveToolPolicy {
  readonly behavior: LiveBehavior;
  /**
   * For a non-blocking tool: when the model hears its final result.
   *
   * @defaultValue 'WHEN_IDLE'
   */
  readonly scheduling?: LiveScheduling;
}

/** One event of a Live session's tool calls, as `onEvent` hears it (for logs and UIs). */
export type LiveToolEvent =
  /** A call of the model was read: it runs (or waits for a free slot), or was rejected. */
  | {
      readonly type: 'call';
      readonly callId: string | null;
      readonly exposedName: string;
      readonly behavior: LiveBehavior;
      /** Why it cannot run (unknown name, bad arguments), when it cannot. */
      readonly rejected?: string;
    }
  /** A server's progress on a running call; `sent` when it went to the model. */
  | {
      readonly type: 'progress';
      readonly callId: string | null;
      readonly exposedName: string;
      readonly progress: number;
      readonly total?: number;
      readonly message?: string;
    }
  /** A functionResponse was sent. */
  | {
      readonly type: 'response';
      readonly callId: string | null;
      readonly exposedName: string;
      /** Whether more responses follow (a progress response). */
      readonly willContinue: boolean;
      readonly scheduling?: LiveScheduling;
      /** Whether the response is an error (`response.error`). */
      readonly error: boolean;
    }
  /** A call was cancelled: by the server's toolCallCancellation, or because the session closed. */
  | {
      readonly type: 'cancelled';
      readonly callId: string;
      readonly exposedName: string;
      readonly reason: 'toolCallCancellation' | 'closed';
    }
  /** The session's tools were replaced after a tools/list_changed (`contextUpdate` sent or not). */
  | { readonly type: 'tools'; readonly count: number; readonly sent: boolean }
  /** The server will close the connection; `running` calls are still in flight. */
  | { readonly type: 'goAway'; readonly timeLeft?: string; readonly running: number }
  /** A response could not be sent (the connection was closed, genai refused it), or a toolCall could not be read. */
  | { readonly type: 'error'; readonly callId: string | null; readonly message: string };

/** Options of {@link liveTools}. */
export interface LiveToolsOptions
  extends Pick<ResponseFormat, 'structured' | 'media' | 'maxOutputBytes'>,
    ApprovalOptions {
  /**
   * The API the session talks to: `'gemini'` (default) sends `behavior`, `scheduling` and
   * `willContinue`; a Vertex AI dialect does not (its reference has none of them), so every
   * tool is blocking there and no progress response is sent.
   *
   * @defaultValue 'gemini'
   */
  dialect?: Dialect;
  /**
   * How each tool runs. The default: `NON_BLOCKING` (final result `WHEN_IDLE`) for a tool whose
   * MCP `execution.taskSupport` is `required` or `optional` (the server says it is long-running),
   * `BLOCKING` for every other. Return `undefined` to keep that default for a tool.
   */
  policy?: (entry: ToolSetEntry) => LiveToolPolicy | undefined;
  /**
   * The least time between two progress responses of one call, in ms: the notifications in
   * between are coalesced (the latest is sent). Progress goes into the model's context: never
   * one response per notification.
   *
   * @defaultValue 2000
   */
  progressIntervalMs?: number;
  /** Check each call's arguments against its tool's inputSchema (as `answerCalls`' option). */
  validateArgs?: boolean;
  /**
   * Per-call limit, in ms; the MCP request is cancelled when it passes (an error response).
   *
   * @defaultValue 60000
   */
  timeoutMs?: number;
  /**
   * Calls running at once; the others wait for a slot.
   *
   * @defaultValue 8
   */
  concurrency?: number;
  /** Hears what happens to the session's tool calls, as it happens. */
  onEvent?: (event: LiveToolEvent) => void;
}

/** What {@link liveTools} needs of the servers: what `connectServers` returns fits. */
export interface LiveToolSource {
  /** The current tool set (read for every toolCall, so a vanished tool is answered as unknown). */
  readonly toolset: ToolSet;
  readonly clients: ClientMap;
  /** Tool list changes, when the servers can send them: the session's tools follow. */
  onToolsChanged?(listener: (change: ToolsChange) => void): () => void;
}

/** A functionResponse as a Live session sends it. */
export interface LiveFunctionResponse {
  id?: string;
  name: string;
  response: Record<string, unknown>;
  parts?: AnswerPart['functionResponse']['parts'];
  willContinue?: boolean;
  scheduling?: LiveScheduling;
}

/**
 * What this module needs of genai's `Session` (`ai.live.connect`'s result): `sendToolResponse`,
 * and `sendContextUpdate` where the version has it (@google/genai 2.32 and 3.3:
 * `sendContextUpdate({tools: {tools}})`, on the wire `{contextUpdate: {tools: {tools: Tool[]}}}`).
 * Typed loosely, so any genai version's session fits.
 */
export interface LiveSessionLike {
  sendToolResponse(params: never): void;
  sendContextUpdate?(params: never): void;
}

/** What this module needs of genai's `ai.live`: its `connect`. */
export interface LiveConnector {
  connect(params: never): Promise<LiveSessionLike>;
}

/** How this module calls the session (see {@link LiveSessionLike}). */
interface SessionCalls {
  sendToolResponse(params: { functionResponses: LiveFunctionResponse[] }): void;
  sendContextUpdate?(params: { tools: { tools: unknown[] } }): void;
}

/** What this module reads of the connect parameters, and extends. */
interface ConnectParams {
  config?: { tools?: unknown[] };
  callbacks?: {
    onmessage?: (message: unknown) => void;
    onclose?: (event: unknown) => void;
  };
}

/** A bound Live session: genai's session, and the calls this module runs for it. */
export interface LiveToolsSession<S> {
  /** genai's session, as `ai.live.connect` returned it (send audio, text, close it). */
  readonly session: S;
  /** Calls running or waiting for a slot. */
  readonly inFlight: number;
  /**
   * Stops answering: every running call is cancelled (its server gets
   * `notifications/cancelled`), waiting calls are dropped, nothing more is sent, tool changes
   * are no longer followed. The session itself stays open. Runs on its own when the
   * connection closes.
   */
  stop(): void;
}

/** The tools of a Live session. */
export interface LiveTools {
  /**
   * Connects with `live.connect` (`ai.live`): the parameters with the tool set's declarations
   * added to `config.tools` (after the caller's own) and the caller's `onmessage` and `onclose`
   * chained after this module's; resolves once genai's session is bound.
   */
  connect<L extends LiveConnector>(
    live: L,
    params: Parameters<L['connect']>[0],
  ): Promise<LiveToolsSession<Awaited<ReturnType<L['connect']>>>>;
  /** The declarations a session gets now (`config.tools`), behaviours included. */
  declarations(): unknown[];
}

const DEFAULT_PROGRESS_INTERVAL_MS = 2_000;
const DEFAULT_CONCURRENCY = 8;

/** One call this module runs: its MCP request's controller and its progress state. */
interface Running {
  readonly call: ResolvedCall;
  readonly policy: LiveToolPolicy;
  readonly controller: AbortController;
  /** The latest progress not sent yet. */
  pending: CallProgress | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  lastSent: number;
  done: boolean;
}

const BLOCKING: LiveToolPolicy = { behavior: 'BLOCKING' };
const NON_BLOCKING: LiveToolPolicy = { behavior: 'NON_BLOCKING', scheduling: 'WHEN_IDLE' };

/** The default policy: non-blocking for a tool its server runs as a task. */
function defaultPolicy(entry: ToolSetEntry): LiveToolPolicy {
  const execution = (entry.tool as { execution?: unknown }).execution;
  const support = isJsonObject(execution) ? execution.taskSupport : undefined;
  return support === 'required' || support === 'optional' ? NON_BLOCKING : BLOCKING;
}

/**
 * MCP servers' tools for Gemini Live sessions: `connect` opens a session whose `toolCall`s are
 * answered on the servers, each response sent with `sendToolResponse` as its call finishes (not
 * after the slowest), every call answered exactly once with its id, unless the server cancels
 * it (`toolCallCancellation`: the MCP request is cancelled, so its server gets
 * `notifications/cancelled`, and no response is sent). Calls are read as `answerCalls` reads
 * them: an unknown name or bad arguments are answered as errors, results are checked against
 * the MCP schema and the tool's outputSchema, bounded in time and bytes; `onToolCall` is asked
 * before each call runs, as by `executeToolCalls` (a denial is the call's response). A non-blocking tool's
 * progress notifications become `willContinue` responses scheduled `SILENT`, at most one per
 * `progressIntervalMs`, and its result is scheduled `WHEN_IDLE` (or as its policy says). When a
 * server's tool list changes, the session's tools are replaced with `sendContextUpdate` where
 * the genai version has it; either way a call to a vanished tool is answered as unknown. When
 * the connection closes (after a `goAway`, or any other way), running calls are cancelled and
 * not answered: a resumed session starts with no call in flight.
 *
 * @example
 * ```ts
 * const servers = await connectServers('mcp.json');
 * const { session } = await liveTools(servers).connect(ai.live, {
 *   model: 'gemini-live-2.5-flash-preview',
 *   config: { responseModalities: [Modality.TEXT] },
 *   callbacks: { onmessage: (message) => console.log(message.text) },
 * });
 * session.sendClientContent({ turns: 'What is in my notes?' });
 * ```
 */
export function liveTools(source: LiveToolSource, options: LiveToolsOptions = {}): LiveTools {
  checkTimeout('timeoutMs', options.timeoutMs);
  checkTimeout('approvalTimeoutMs', options.approvalTimeoutMs);
  checkTimeout('progressIntervalMs', options.progressIntervalMs);
  checkCount('concurrency', options.concurrency);
  const dialect = apiDialect(options.dialect);
  const scheduled = dialect === 'gemini';
  const policyOf = (entry: ToolSetEntry): LiveToolPolicy =>
    scheduled ? (options.policy?.(entry) ?? defaultPolicy(entry)) : BLOCKING;

  const declarations = (): unknown[] => {
    const tools = geminiTools(source.toolset);
    if (!scheduled) return tools;
    return tools.map((tool) => ({
      ...tool,
      functionDeclarations: tool.functionDeclarations.map((declaration) => {
        const entry = source.toolset.resolve(declaration.name);
        const policy = entry === undefined ? BLOCKING : policyOf(entry);
        return policy.behavior === 'NON_BLOCKING'
          ? { ...declaration, behavior: 'NON_BLOCKING' }
          : declaration;
      }),
    }));
  };

  return {
    declarations,
    connect: (live, params) =>
      bind(live, params as ConnectParams, source, options, policyOf, declarations) as never,
  };
}

async function bind(
  live: LiveConnector,
  params: ConnectParams,
  source: LiveToolSource,
  options: LiveToolsOptions,
  policyOf: (entry: ToolSetEntry) => LiveToolPolicy,
  declarations: () => unknown[],
): Promise<LiveToolsSession<LiveSessionLike>> {
  const { onEvent } = options;
  const dialect = apiDialect(options.dialect);
  const scheduled = dialect === 'gemini';
  const format: ResponseFormat = {
    dialect,
    ...(options.structured === undefined ? {} : { structured: options.structured }),
    ...(options.media === undefined ? {} : { media: options.media }),
    ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
  };
  const interval = options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const { part } = dialectShapes(dialect);

  let session: SessionCalls | undefined;
  let stopped = false;
  /** Messages genai handed over before its session was returned. */
  const early: unknown[] = [];
  /** Calls in flight by id (calls without id cannot be cancelled by the server). */
  const byId = new Map<string, Running>();
  const running = new Set<Running>();
  const waiting: Running[] = [];
  let active = 0;

  const send = (call: ResolvedCall | null, response: LiveFunctionResponse): void => {
    if (stopped || session === undefined) return;
    try {
      proveContract({ functionResponse: response }, part.check, {
        schema: part.schema,
        tool: response.name,
      });
      session.sendToolResponse({ functionResponses: [response] });
    } catch (error) {
      onEvent?.({
        type: 'error',
        callId: call?.callId ?? response.id ?? null,
        message: error instanceof Error ? error.message : String(error),
      });
      return;
    }
    onEvent?.({
      type: 'response',
      callId: response.id ?? null,
      exposedName: response.name,
      willContinue: response.willContinue === true,
      ...(response.scheduling === undefined ? {} : { scheduling: response.scheduling }),
      error: 'error' in response.response,
    });
  };

  const finish = (entry: Running): void => {
    entry.done = true;
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.pending = undefined;
    running.delete(entry);
    if (entry.call.callId !== null && byId.get(entry.call.callId) === entry) {
      byId.delete(entry.call.callId);
    }
  };

  const flushProgress = (entry: Running): void => {
    entry.timer = undefined;
    const progress = entry.pending;
    if (progress === undefined || entry.done) return;
    entry.pending = undefined;
    entry.lastSent = performance.now();
    const { functionResponse } = unprovenResponsePart(
      entry.call.exposedName,
      progressResult(progress),
      entry.call.callId,
      format,
    );
    send(entry.call, { ...functionResponse, willContinue: true, scheduling: 'SILENT' });
  };

  const onProgress = (entry: Running, progress: CallProgress): void => {
    if (entry.done) return;
    onEvent?.({
      type: 'progress',
      callId: entry.call.callId,
      exposedName: entry.call.exposedName,
      progress: progress.progress,
      ...(progress.total === undefined ? {} : { total: progress.total }),
      ...(progress.message === undefined ? {} : { message: progress.message }),
    });
    if (!scheduled || entry.policy.behavior !== 'NON_BLOCKING') return;
    entry.pending = progress;
    if (entry.timer !== undefined) return;
    const wait = Math.max(0, entry.lastSent + interval - performance.now());
    entry.timer = setTimeout(() => flushProgress(entry), wait);
  };

  const answer = (entry: Running, result: ToolResult | ToolError): void => {
    if (entry.done) return;
    finish(entry);
    const { functionResponse } = unprovenResponsePart(
      entry.call.exposedName,
      result,
      entry.call.callId,
      format,
    );
    const nonBlocking = scheduled && entry.policy.behavior === 'NON_BLOCKING';
    send(
      entry.call,
      nonBlocking
        ? { ...functionResponse, scheduling: entry.policy.scheduling ?? 'WHEN_IDLE' }
        : functionResponse,
    );
  };

  const start = (entry: Running): void => {
    entry.lastSent = performance.now();
    active += 1;
    const { onToolCall, approvalTimeoutMs, trustedServers } = options;
    void executeToolCalls([entry.call], source.clients, {
      signal: entry.controller.signal,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(onToolCall === undefined ? {} : { onToolCall }),
      ...(approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs }),
      ...(trustedServers === undefined ? {} : { trustedServers }),
      onProgress: (progress) => onProgress(entry, progress),
    }).then(([outcome]) => {
      active -= 1;
      // A cancelled call (toolCallCancellation, the session closed) is not answered.
      if (!entry.controller.signal.aborted && outcome !== undefined) answer(entry, outcome.result);
      next();
    });
  };

  const next = (): void => {
    while (active < concurrency && waiting.length > 0 && !stopped) start(waiting.shift()!);
  };

  const cancel = (entry: Running, reason: 'toolCallCancellation' | 'closed'): void => {
    if (entry.done) return;
    finish(entry);
    const at = waiting.indexOf(entry);
    if (at !== -1) waiting.splice(at, 1);
    entry.controller.abort(new Error(`cancelled by ${reason}`));
    if (entry.call.callId !== null) {
      onEvent?.({
        type: 'cancelled',
        callId: entry.call.callId,
        exposedName: entry.call.exposedName,
        reason,
      });
    }
  };

  const onToolCall = (toolCall: unknown): void => {
    const calls = isJsonObject(toolCall) ? toolCall.functionCalls : undefined;
    if (!Array.isArray(calls) || calls.length === 0) return;
    const { toolset } = source;
    const { items } = functionCalls(
      calls.map((functionCall: unknown) => ({ functionCall })) as never,
      toolset,
      options.validateArgs === undefined ? {} : { validateArgs: options.validateArgs },
    );
    for (const item of items) onItem(item, toolset);
    next();
  };

  const onItem = (item: CallItem, toolset: ToolSet): void => {
    if (item.kind === 'rejected') {
      const { rejected } = item;
      onEvent?.({
        type: 'call',
        callId: rejected.callId,
        exposedName: rejected.name,
        behavior: 'BLOCKING',
        rejected: rejected.reason,
      });
      send(null, unprovenRejectionPart(rejected, format).functionResponse);
      return;
    }
    const { call } = item;
    const entry = toolset.resolve(call.exposedName);
    const policy = entry === undefined ? BLOCKING : policyOf(entry);
    const state: Running = {
      call,
      policy,
      controller: new AbortController(),
      pending: undefined,
      timer: undefined,
      lastSent: 0,
      done: false,
    };
    onEvent?.({
      type: 'call',
      callId: call.callId,
      exposedName: call.exposedName,
      behavior: policy.behavior,
    });
    running.add(state);
    if (call.callId !== null) byId.set(call.callId, state);
    waiting.push(state);
  };

  const onCancellation = (cancellation: unknown): void => {
    const ids = isJsonObject(cancellation) ? cancellation.ids : undefined;
    if (!Array.isArray(ids)) return;
    for (const id of ids) {
      const entry = typeof id === 'string' ? byId.get(id) : undefined;
      if (entry !== undefined) cancel(entry, 'toolCallCancellation');
    }
    next();
  };

  const handle = (message: unknown): void => {
    if (stopped || !isJsonObject(message)) return;
    if (message.toolCall !== undefined) {
      try {
        onToolCall(message.toolCall);
      } catch (error) {
        // A toolCall functionCalls cannot read at all: told, never thrown into genai's callback.
        onEvent?.({
          type: 'error',
          callId: null,
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
    if (message.toolCallCancellation !== undefined) onCancellation(message.toolCallCancellation);
    if (isJsonObject(message.goAway)) {
      const { timeLeft } = message.goAway;
      onEvent?.({
        type: 'goAway',
        ...(typeof timeLeft === 'string' ? { timeLeft } : {}),
        running: running.size,
      });
    }
  };

  const stop = (): void => {
    if (stopped) return;
    for (const entry of [...running]) cancel(entry, 'closed');
    stopped = true;
    unsubscribe?.();
  };

  const userCallbacks = params.callbacks ?? {};
  const wrapped = {
    ...params,
    config: {
      ...params.config,
      tools: [...(params.config?.tools ?? []), ...declarations()],
    },
    callbacks: {
      ...userCallbacks,
      onmessage: (message: unknown) => {
        if (session === undefined) early.push(message);
        else handle(message);
        userCallbacks.onmessage?.(message);
      },
      onclose: (event: unknown) => {
        stop();
        userCallbacks.onclose?.(event);
      },
    },
  };

  const unsubscribe = source.onToolsChanged?.((change) => {
    if (stopped || session === undefined || !('toolset' in change)) return;
    const tools = declarations();
    const update = session.sendContextUpdate?.bind(session);
    if (update !== undefined) update({ tools: { tools } });
    onEvent?.({ type: 'tools', count: countDeclarations(tools), sent: update !== undefined });
  });

  let bound: LiveSessionLike;
  try {
    bound = await live.connect(wrapped as never);
  } catch (error) {
    unsubscribe?.();
    throw error;
  }
  session = bound as unknown as SessionCalls;
  for (const message of early.splice(0)) handle(message);
  return {
    session: bound,
    get inFlight() {
      return running.size;
    },
    stop,
  };
}

/** A progress notification as the result of a progress response: what the model is told. */
function progressResult(progress: CallProgress): ToolResult {
  const status: Record<string, unknown> = { status: 'running', progress: progress.progress };
  if (progress.total !== undefined) status.total = progress.total;
  if (progress.message !== undefined) status.message = progress.message;
  return { content: [], structuredContent: status };
}

function countDeclarations(tools: readonly unknown[]): number {
  let count = 0;
  for (const tool of tools) {
    const declared = isJsonObject(tool) ? tool.functionDeclarations : undefined;
    if (Array.isArray(declared)) count += declared.length;
  }
  return count;
}
