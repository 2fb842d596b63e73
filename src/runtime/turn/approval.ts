/**
 * The approval of a tool call before it runs: the application's `onToolCall` hook is asked,
 * bounded in time, and its decision (allow, deny, edit the arguments) is checked; whatever goes
 * wrong becomes a {@link ToolError} answered to the model in the call's own response.
 */
import { toolSchemaViolations } from '../../adapter/tools/tool-schemas.js';
import type { ResolvedCall, ToolError } from '../../adapter/types.js';
import { isJsonObject, isPlainObject } from '../../json/object.js';
import { describeCall, violationError } from './tool-errors.js';

/**
 * A tool's annotations as its server wrote them (MCP `ToolAnnotations`): hints a server gives
 * about its own tool, believable only as far as the server is trusted.
 */
export interface ToolAnnotationHints {
  /** A title for people. */
  readonly title?: string;
  /** The tool changes nothing (MCP default: false). */
  readonly readOnlyHint?: boolean;
  /** A tool that changes things may destroy or overwrite (MCP default: true). */
  readonly destructiveHint?: boolean;
  /** Calling it again with the same arguments changes nothing more (MCP default: false). */
  readonly idempotentHint?: boolean;
  /** It reaches beyond a closed world: the web, other people, other systems (MCP default: true). */
  readonly openWorldHint?: boolean;
}

/** One call the model made, as the approval hook is asked about it before it runs. */
export interface ToolCallCheck {
  /** The id of the MCP server that owns the tool. */
  readonly serverId: string;
  /** The tool's MCP name, as the server knows it. */
  readonly name: string;
  /** The name Gemini saw and called. */
  readonly exposedName: string;
  /** The functionCall's `id`, or `null` when Gemini sent none. */
  readonly callId: string | null;
  /** The tool's title for people (its `title`, else `annotations.title`), when it has one. */
  readonly title?: string;
  /** The tool's annotations (`{}` when it has none), as its server wrote them. */
  readonly annotations: ToolAnnotationHints;
  /**
   * Whether the server is trusted (its entry's `trust: true`, or named in `trustedServers`):
   * only then are its annotations more than claims (see the README's Security model).
   */
  readonly trusted: boolean;
  /** The arguments the model sent. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Fires when the decision is no longer wanted: `approvalTimeoutMs` passed, or the calls were cancelled. */
  readonly signal: AbortSignal;
}

/**
 * What the hook decides: run the call, do not run it (the model is told, with `reason`), or run
 * it with other arguments (checked against the tool's inputSchema first).
 */
export type ToolCallDecision =
  | { readonly action: 'allow' }
  | { readonly action: 'deny'; readonly reason?: string }
  | { readonly action: 'edit'; readonly arguments: Readonly<Record<string, unknown>> };

/**
 * Asked before each call to a server's tool runs. `undefined` lets the call run (as with no
 * hook); in a composition of policies it passes the question to the next one.
 */
export type ToolCallHook = (
  check: ToolCallCheck,
) => ToolCallDecision | undefined | Promise<ToolCallDecision | undefined>;

/** The options of the approval asked before each call (of `executeToolCalls` and everything that runs calls). */
export interface ApprovalOptions {
  /**
   * Asked before each call to a server's tool runs, with the tool's annotations, the server's
   * trust and the arguments: allow, deny or edit (see {@link ToolCallDecision}). A denial, a
   * throw, a decision that is none, edited arguments that fail the inputSchema, or no decision
   * within `approvalTimeoutMs` answer the call with an error (`DENIED`, `APPROVAL_FAILED`,
   * `INVALID_EDIT`): the call is not run, and the model is told in the call's own response.
   * gemini-mcp-kit's own functions (`gmk__`) are never asked about. Ready policies are in
   * `gemini-mcp-kit/features`.
   */
  onToolCall?: ToolCallHook;
  /**
   * The longest wait for `onToolCall`'s decision on one call, in ms (a person may be asked).
   *
   * @defaultValue 300000
   */
  approvalTimeoutMs?: number;
  /**
   * Servers trusted besides those whose entry says `trust: true` (for clients of your own,
   * which have no entry).
   */
  trustedServers?: readonly string[];
}

/** Default longest wait for a decision: five minutes. */
const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

/** A hook's thrown message, as far as the model is told it. */
const MAX_QUOTED_MESSAGE = 200;

const HINT_KEYS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** The tool's annotations of known kinds, copied (the hook cannot change the tool set's). */
function hintsOf(annotations: unknown): ToolAnnotationHints {
  if (!isJsonObject(annotations)) return {};
  const hints: { -readonly [K in keyof ToolAnnotationHints]: ToolAnnotationHints[K] } = {};
  if (typeof annotations.title === 'string') hints.title = annotations.title;
  for (const key of HINT_KEYS) {
    const value = annotations[key];
    if (typeof value === 'boolean') hints[key] = value;
  }
  return hints;
}

/** What the hook is asked about `call`. */
function checkOf(call: ResolvedCall, trusted: boolean, signal: AbortSignal): ToolCallCheck {
  const annotations = hintsOf(call.tool.annotations);
  const title = typeof call.tool.title === 'string' ? call.tool.title : annotations.title;
  return {
    serverId: call.serverId,
    name: call.name,
    exposedName: call.exposedName,
    callId: call.callId,
    ...(title === undefined ? {} : { title }),
    annotations,
    trusted,
    arguments: call.arguments,
    signal,
  };
}

function failed(call: ResolvedCall, why: string): ToolError {
  return {
    code: 'APPROVAL_FAILED',
    message: `${describeCall(call)} was not run: its approval check ${why}`,
  };
}

/** The call to run, or the error answering it, for what the hook returned. */
function decided(call: ResolvedCall, decision: unknown): ResolvedCall | ToolError {
  if (decision === undefined) return call;
  const action = isJsonObject(decision) ? decision.action : undefined;
  if (action === 'allow') return call;
  if (action === 'deny') {
    const { reason } = decision as { reason?: unknown };
    return {
      code: 'DENIED',
      message: `${describeCall(call)} was not run: denied${typeof reason === 'string' && reason !== '' ? ` (${reason})` : ''}`,
    };
  }
  if (action === 'edit') {
    const edited = (decision as { arguments?: unknown }).arguments;
    if (!isPlainObject(edited)) {
      return {
        code: 'INVALID_EDIT',
        message: `${describeCall(call)} was not run: its approval check edited the arguments into something other than a JSON object`,
      };
    }
    const violations = toolSchemaViolations(call.tool.inputSchema, edited) ?? [];
    const first = violations[0];
    if (first !== undefined) {
      return violationError(
        'INVALID_EDIT',
        call,
        'was not run: the arguments its approval check edited fail the inputSchema',
        first,
        violations,
      );
    }
    return { ...call, arguments: edited };
  }
  return failed(
    call,
    'returned no decision (expected undefined, {action: "allow"}, {action: "deny", reason?} or {action: "edit", arguments})',
  );
}

function thrown(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > MAX_QUOTED_MESSAGE
    ? `${message.slice(0, MAX_QUOTED_MESSAGE)}...`
    : message;
}

/**
 * Asks `hook` about `call` and resolves to the call to run (its arguments edited, perhaps) or
 * to the error answering it: never rejects, never waits past `approvalTimeoutMs`, and stops
 * waiting (CANCELLED) when `signal` fires. The hook's own signal fires in both cases.
 *
 * @example
 * ```ts
 * const approved = await approveCall(call, false, hook, { signal });
 * if (isToolError(approved)) console.log(approved.code); // 'DENIED'
 * ```
 */
export function approveCall(
  call: ResolvedCall,
  trusted: boolean,
  hook: ToolCallHook,
  options: Pick<ApprovalOptions, 'approvalTimeoutMs'> & { signal?: AbortSignal | undefined },
): Promise<ResolvedCall | ToolError> {
  const { signal } = options;
  const timeoutMs = options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const asked = new AbortController();
  return new Promise((resolve) => {
    let done = false;
    const settle = (answer: ResolvedCall | ToolError): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
      resolve(answer);
    };
    const cancel = (): void => {
      asked.abort(signal?.reason);
      settle({
        code: 'CANCELLED',
        message: `${describeCall(call)} was cancelled while its approval was asked`,
      });
    };
    const timer = setTimeout(() => {
      asked.abort(new Error(`no decision within ${timeoutMs} ms`));
      settle(failed(call, `gave no decision within ${timeoutMs} ms`));
    }, timeoutMs);
    signal?.addEventListener('abort', cancel, { once: true });
    let answer: ReturnType<ToolCallHook>;
    try {
      answer = hook(checkOf(call, trusted, asked.signal));
    } catch (error) {
      settle(failed(call, `threw: ${thrown(error)}`));
      return;
    }
    Promise.resolve(answer).then(
      (decision) => settle(decided(call, decision)),
      (error: unknown) => settle(failed(call, `threw: ${thrown(error)}`)),
    );
  });
}
