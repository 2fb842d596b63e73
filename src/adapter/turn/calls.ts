/** The model's function calls, resolved against a tool set. */

import { GeminiMcpError, type ViolationDetail } from '../../errors.js';
import type { McpServer } from '../../generated/types.js';
import { isJsonObject, isPlainObject, ownValue } from '../../json/object.js';
import { serverSideTool } from '../tools/server-side.js';
import { closestNames } from '../tools/similar-names.js';
import { toolSchemaViolations } from '../tools/tool-schemas.js';
import type { ToolSet } from '../tools/toolset-types.js';
import type { ResolvedCall } from '../types.js';

/** A finish reason that means the model's function calling went wrong (FC-6). */
export type CallFinishReason =
  | 'MALFORMED_FUNCTION_CALL'
  | 'UNEXPECTED_TOOL_CALL'
  | 'MISSING_THOUGHT_SIGNATURE'
  | 'TOO_MANY_TOOL_CALLS';

/** Every {@link CallFinishReason} (the record makes the list exactly the type's). */
const CALL_FINISH_REASONS: Readonly<Record<CallFinishReason, true>> = {
  MALFORMED_FUNCTION_CALL: true,
  UNEXPECTED_TOOL_CALL: true,
  MISSING_THOUGHT_SIGNATURE: true,
  TOO_MANY_TOOL_CALLS: true,
};

const isCallFinishReason = (reason: unknown): reason is CallFinishReason =>
  typeof reason === 'string' && Object.hasOwn(CALL_FINISH_REASONS, reason);

/** A candidate that ended because function calling went wrong. */
export interface CallFinish {
  readonly reason: CallFinishReason;
  /** The candidate's `finishMessage`, when it gave one. */
  readonly message?: string;
}

/** Why a function call was not turned into a {@link ResolvedCall}. */
export type RejectionReason =
  /** The part's `functionCall` is not an object with a string `name`. */
  | 'MALFORMED_CALL'
  /** No tool in the set has that exposed name. */
  | 'UNKNOWN_FUNCTION'
  /** `args` is not a plain JSON object. */
  | 'ARGUMENTS_NOT_OBJECT'
  /** `args` fails the tool's inputSchema (option `validateArgs`). */
  | 'INVALID_ARGUMENTS'
  /**
   * The arguments were streamed and are not whole: the call still has `willContinue: true`, or
   * `partialArgs` that `gatherTurn` did not (or could not) assemble into `args`.
   */
  | 'UNASSEMBLED_ARGUMENTS';

/**
 * A function call that cannot run, as data: `answerCalls` (or {@link rejectionResponse}) answers
 * it with a functionResponse whose `response.error` is `REASON: message`.
 */
export interface RejectedCall {
  readonly reason: RejectionReason;
  /**
   * The name the answer carries: the call's own when it can name a function response, else
   * one made from it (characters other than letters, digits, `_` and `-` as `_`, at most 128)
   * or `unnamed_function` for a call without a name.
   */
  readonly name: string;
  /** The call's `id`, or `null` when it had none. */
  readonly callId: string | null;
  /** What the model is told. */
  readonly message: string;
  /** For `INVALID_ARGUMENTS`: each way the arguments fail the inputSchema (capped), in order. */
  readonly details?: readonly ViolationDetail[];
}

/** A function call that cannot run, as an item of {@link FunctionCallsResult.items}. */
export interface RejectedItem {
  readonly kind: 'rejected';
  readonly rejected: RejectedCall;
}

/** A function call to run, as an item of {@link FunctionCallsResult.items}. */
export interface CallToRun {
  readonly kind: 'call';
  readonly call: ResolvedCall;
}

/** One function call of the model, in call order: run it, or answer its rejection. */
export type CallItem = CallToRun | RejectedItem;

/**
 * A function call Gemini ran itself (an MCP server on Gemini, `Tool.mcpServers`): its
 * `functionResponse` follows it in the same Content. It is never run again nor answered.
 */
export interface GeminiRanCall {
  /** The name the model called (`{server}_{tool}` for a server on Gemini). */
  readonly name: string;
  /** The call's `id`, or `null` when it had none. */
  readonly callId: string | null;
  /**
   * The server on Gemini whose name starts `name` (option `mcpServers`), and the tool as that
   * server names it; absent when no server given matches.
   */
  readonly serverId?: string;
  readonly toolName?: string;
  /** The `response` of its functionResponse, as Gemini put it in the Content. */
  readonly response: unknown;
}

/** The result of {@link functionCalls}. */
export interface FunctionCallsResult {
  /** The calls to run, in call order. */
  readonly calls: ResolvedCall[];
  /** The calls that cannot run, in call order. */
  readonly rejected: RejectedCall[];
  /**
   * Every function call in call order, run or rejected: `items[i]` is the model's i-th
   * functionCall. `executeToolCalls` takes them as they are and returns one outcome per item,
   * and `answerCalls` takes this whole result, so a turn is read once.
   */
  readonly items: CallItem[];
  /**
   * The calls Gemini ran itself (each followed by its functionResponse in the same Content), in
   * call order: in no other list, never run, never answered.
   */
  readonly ranByGemini: GeminiRanCall[];
  /** Present when the candidate ended in a {@link CallFinishReason}. */
  readonly finish?: CallFinish;
}

/** Options of {@link functionCalls}. */
export interface FunctionCallsOptions {
  /** Check arguments against the tool's inputSchema (ajv, compiled once per tool); default `false`. */
  readonly validateArgs?: boolean;
  /**
   * The MCP servers Gemini runs (`Tool.mcpServers` of the request): a call Gemini ran is reported
   * with the server and tool its `{server}_{tool}` name means.
   */
  readonly mcpServers?: readonly McpServer[];
}

/** Stands in for a call name that cannot name a function response. */
const UNNAMED_FUNCTION = 'unnamed_function';

function notRecognised(): GeminiMcpError {
  return new GeminiMcpError(
    'INVALID_INPUT',
    'functionCalls takes a GenerateContentResponse, a Content or a list of Parts',
  );
}

/** The parts to read, and how the first candidate finished, whatever shape `input` has. */
function readInput(input: unknown): { parts: readonly unknown[]; finish?: CallFinish } {
  if (Array.isArray(input)) return { parts: input };
  if (!isJsonObject(input)) throw notRecognised();
  const parts = ownValue(input, 'parts');
  if (Array.isArray(parts)) return { parts };
  const candidates = ownValue(input, 'candidates');
  if (candidates === undefined && ownValue(input, 'promptFeedback') === undefined)
    throw notRecognised();
  if (candidates !== undefined && !Array.isArray(candidates)) throw notRecognised();
  const candidate: unknown = candidates?.[0];
  if (!isJsonObject(candidate)) return { parts: [] };
  const content = ownValue(candidate, 'content');
  const contentParts = isJsonObject(content) ? ownValue(content, 'parts') : undefined;
  const finish = finishOf(candidate);
  return {
    parts: Array.isArray(contentParts) ? contentParts : [],
    ...(finish === undefined ? {} : { finish }),
  };
}

function finishOf(candidate: Record<string, unknown>): CallFinish | undefined {
  const reason = ownValue(candidate, 'finishReason');
  if (!isCallFinishReason(reason)) return undefined;
  const message = ownValue(candidate, 'finishMessage');
  return typeof message === 'string' ? { reason, message } : { reason };
}

/** A name the rejection part can carry: the call's own when valid, else a sanitized one. */
function responseName(name: unknown): string {
  if (typeof name !== 'string' || name === '') return UNNAMED_FUNCTION;
  return name.replace(/[^A-Za-z0-9_-]/gu, '_').slice(0, 128);
}

/** The part describing a value for an error message: its JSON type. */
function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'a non-plain object' : `a ${typeof value}`;
}

interface Context {
  toolset: ToolSet;
  options: FunctionCallsOptions;
}

function reject(
  reason: RejectionReason,
  name: unknown,
  callId: string | null,
  message: string,
  details?: readonly ViolationDetail[],
): RejectedItem {
  const rejected: RejectedCall = { reason, name: responseName(name), callId, message };
  return {
    kind: 'rejected',
    rejected: details === undefined ? rejected : { ...rejected, details },
  };
}

function unknownFunction(name: string, callId: string | null, context: Context): CallItem {
  const known = context.toolset.entries.map((entry) => ({
    name: entry.exposedName,
    aliases: [entry.tool.name],
  }));
  const close = closestNames(name, known);
  const hint =
    close.length > 0
      ? ` Did you mean ${close.map((candidate) => `"${candidate}"`).join(', ')}?`
      : '';
  const shown = name.length > 128 ? `${name.slice(0, 128)}…` : name;
  return reject('UNKNOWN_FUNCTION', name, callId, `There is no function named "${shown}".${hint}`);
}

/**
 * Why a call's streamed arguments are not whole, if they are not: run with `args` alone, such
 * a call would run with a part of what the model sent.
 */
function unassembledArguments(
  functionCall: Record<string, unknown>,
  name: string,
): string | undefined {
  const pieces = ownValue(functionCall, 'partialArgs');
  const streaming = ownValue(functionCall, 'willContinue') === true;
  if (!streaming && !(Array.isArray(pieces) && pieces.length > 0)) return undefined;
  const first: unknown = Array.isArray(pieces) ? pieces[0] : undefined;
  const path = isJsonObject(first) ? ownValue(first, 'jsonPath') : undefined;
  const where =
    typeof path === 'string'
      ? ` (at ${JSON.stringify(path.length > 100 ? `${path.slice(0, 100)}…` : path)})`
      : '';
  return `The arguments of "${name}" arrived in pieces that could not be put together${where}, so it was not run. Call it again.`;
}

function outcomeOf(functionCall: unknown, context: Context): CallItem {
  if (!isJsonObject(functionCall) || typeof ownValue(functionCall, 'name') !== 'string') {
    const id = isJsonObject(functionCall) ? ownValue(functionCall, 'id') : undefined;
    const callId = typeof id === 'string' ? id : null;
    const name = isJsonObject(functionCall) ? ownValue(functionCall, 'name') : undefined;
    return reject('MALFORMED_CALL', name, callId, 'The function call has no name.');
  }
  const name = ownValue(functionCall, 'name') as string;
  const id = ownValue(functionCall, 'id');
  const callId = typeof id === 'string' ? id : null;
  const unassembled = unassembledArguments(functionCall, name);
  if (unassembled !== undefined) return reject('UNASSEMBLED_ARGUMENTS', name, callId, unassembled);
  const entry = context.toolset.resolve(name);
  if (entry === undefined) return unknownFunction(name, callId, context);
  const rawArgs = ownValue(functionCall, 'args');
  const args = rawArgs === undefined || rawArgs === null ? {} : rawArgs;
  if (!isPlainObject(args)) {
    const message = `The arguments of "${name}" must be a JSON object, not ${jsonType(args)}.`;
    return reject('ARGUMENTS_NOT_OBJECT', name, callId, message);
  }
  if (context.options.validateArgs === true) {
    const violations = toolSchemaViolations(entry.tool.inputSchema, args) ?? [];
    if (violations.length > 0) {
      const listed = violations.map(
        (violation) => `${violation.path === '' ? '(root)' : violation.path}: ${violation.message}`,
      );
      const message = `Invalid arguments for "${name}": ${listed.join('; ')}. Correct them and call again.`;
      return reject('INVALID_ARGUMENTS', name, callId, message, violations);
    }
  }
  return {
    kind: 'call',
    call: {
      serverId: entry.serverId,
      name: entry.tool.name,
      exposedName: entry.exposedName,
      callId,
      arguments: args,
      tool: entry.tool,
    },
  };
}

/**
 * The calls of `parts` a later functionResponse of the same parts answers (Gemini ran them), each
 * with that response: a response answers the first unanswered call before it with its `id`, or,
 * without an id, with its `name`.
 */
function answeredInContent(parts: readonly unknown[]): Map<unknown, { response: unknown }> {
  const answered = new Map<unknown, { response: unknown }>();
  const open: Record<string, unknown>[] = [];
  for (const part of parts) {
    if (!isJsonObject(part)) continue;
    const functionCall = ownValue(part, 'functionCall');
    if (isJsonObject(functionCall) && typeof ownValue(functionCall, 'name') === 'string') {
      open.push(functionCall);
      continue;
    }
    const functionResponse = ownValue(part, 'functionResponse');
    if (!isJsonObject(functionResponse)) continue;
    const id = ownValue(functionResponse, 'id');
    const name = ownValue(functionResponse, 'name');
    const at = open.findIndex((call) =>
      typeof id === 'string' ? ownValue(call, 'id') === id : ownValue(call, 'name') === name,
    );
    if (at < 0) continue;
    const [call] = open.splice(at, 1);
    answered.set(call, { response: ownValue(functionResponse, 'response') });
  }
  return answered;
}

function ranCall(
  functionCall: Record<string, unknown>,
  answer: { response: unknown },
  serverNames: readonly string[],
): GeminiRanCall {
  const name = ownValue(functionCall, 'name') as string;
  const id = ownValue(functionCall, 'id');
  const meant = serverSideTool(name, serverNames);
  return {
    name,
    callId: typeof id === 'string' ? id : null,
    ...(meant === undefined ? {} : { serverId: meant.server, toolName: meant.tool }),
    response: answer.response,
  };
}

/**
 * Reads the model's function calls from a GenerateContentResponse (its first candidate), a
 * Content, or a list of Parts, and resolves each against `toolset`. Parts without a
 * `functionCall` are ignored; call order is kept.
 *
 * - A call whose name resolves becomes a {@link ResolvedCall} carrying its tool: `callId` is its
 *   `id` or `null`, absent `args` are `{}`; `args` is passed on as the model sent it.
 * - An unknown name, `args` that are not a plain object, a call without a name, streamed
 *   arguments not assembled (`partialArgs` left, or `willContinue: true`: see `gatherTurn`), or
 *   (with `validateArgs`) arguments failing the inputSchema are not run: each becomes a
 *   {@link RejectedCall} saying why (naming close matches, or the failing paths), in
 *   `rejected`; `answerCalls` (or `rejectionResponse`) answers it to the model.
 * - `items` lists every call in call order, run or rejected, so a runtime can answer each
 *   in its place with its id.
 * - A call whose functionResponse already follows it in the same Content ran on Gemini (an MCP
 *   server of `Tool.mcpServers`): it is in `ranByGemini` only, with that response and, given
 *   the servers (`mcpServers`), the server and tool its `{server}_{tool}` name means.
 * - A candidate that ended in MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL,
 *   MISSING_THOUGHT_SIGNATURE or TOO_MANY_TOOL_CALLS is reported in `finish`.
 *
 * Reading renders nothing: the answers (in whichever dialect) are made by `answerCalls`, or by
 * `functionResponse` and `rejectionResponse` in a loop of your own. Whatever the model sent,
 * only INVALID_INPUT is thrown, and only when `input` is not a response, a content or a part
 * list at all.
 *
 * @example
 * ```ts
 * const response = await ai.models.generateContent({ model, contents, config: { tools } });
 * const { calls, rejected, finish } = functionCalls(response, toolset, { validateArgs: true });
 * if (finish) console.warn(`model failed to call a tool: ${finish.reason}`);
 * for (const call of calls) await client.callTool({ name: call.name, arguments: call.arguments });
 * ```
 */
export function functionCalls(
  input: unknown,
  toolset: ToolSet,
  options: FunctionCallsOptions = {},
): FunctionCallsResult {
  const { parts, finish } = readInput(input);
  const context: Context = { toolset, options };
  const answered = answeredInContent(parts);
  const serverNames = (options.mcpServers ?? []).flatMap((server) =>
    typeof server.name === 'string' ? [server.name] : [],
  );
  const items: CallItem[] = [];
  const ranByGemini: GeminiRanCall[] = [];
  for (const part of parts) {
    if (!isJsonObject(part)) continue;
    const functionCall = ownValue(part, 'functionCall');
    if (functionCall === undefined) continue;
    const response = answered.get(functionCall);
    if (response === undefined) items.push(outcomeOf(functionCall, context));
    else ranByGemini.push(ranCall(functionCall as Record<string, unknown>, response, serverNames));
  }
  return {
    calls: items.flatMap((item) => (item.kind === 'call' ? [item.call] : [])),
    rejected: items.flatMap((item) => (item.kind === 'rejected' ? [item.rejected] : [])),
    items,
    ranByGemini,
    ...(finish === undefined ? {} : { finish }),
  };
}
