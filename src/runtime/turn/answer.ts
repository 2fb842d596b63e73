/**
 * Answers a model turn: runs its function calls and returns the user Content holding exactly
 * one functionResponse per functionCall, in call order.
 */

import { dialectShapes } from '../../adapter/dialect-shapes.js';
import {
  SEARCH_TOOLS_NAME,
  type ToolDiscovery,
  withSearch,
} from '../../adapter/selection/selection.js';
import type {
  AnswerContent,
  AnswerPart,
  ContentInput,
  PartInput,
  ResponseInput,
} from '../../adapter/shapes.js';
import type { ToolSet } from '../../adapter/tools/toolset-types.js';
import {
  type CallItem,
  type CallToRun,
  type FunctionCallsOptions,
  type FunctionCallsResult,
  functionCalls,
} from '../../adapter/turn/calls.js';
import {
  type ResponseFormat,
  unprovenRejectionPart,
  unprovenResponsePart,
} from '../../adapter/turn/responses.js';
import type { ToolResult } from '../../adapter/types.js';
import { GeminiMcpError } from '../../errors.js';
import { proveContract } from '../../json/contract.js';
import { isJsonObject } from '../../json/object.js';
import { type ClientMap, type ExecuteOptions, executeToolCalls, type Outcome } from './execute.js';

/** Options of {@link answerCalls}. */
export interface AnswerOptions
  extends ExecuteOptions,
    ResponseFormat,
    Pick<FunctionCallsOptions, 'validateArgs'> {}

/**
 * A model turn, as {@link answerCalls} and `functionCalls` read it: a response, a Content or its
 * parts, typed by the fields read (an @google/genai value fits as it is).
 */
export type ModelTurn = ResponseInput | ContentInput | readonly PartInput[];

/** Whether `turn` is what `functionCalls` returned rather than a turn to read. */
function isRead(turn: ModelTurn | FunctionCallsResult): turn is FunctionCallsResult {
  return (
    isJsonObject(turn) &&
    Array.isArray(turn.items) &&
    Array.isArray(turn.calls) &&
    Array.isArray(turn.rejected)
  );
}

/**
 * Whether `item` is one `functionCalls` read against `toolset`: a rejection, or a call whose
 * exposed name resolves there to the very tool it was read as. (Checked item by item, not taken
 * on trust: these are the calls that run.)
 */
function readAgainst(item: unknown, toolset: ToolSet): boolean {
  if (!isJsonObject(item)) return false;
  if (item.kind === 'rejected') return isJsonObject(item.rejected);
  const { call } = item;
  return (
    item.kind === 'call' &&
    isJsonObject(call) &&
    typeof call.exposedName === 'string' &&
    toolset.resolve(call.exposedName)?.tool === call.tool
  );
}

/** The turn's calls: read now, or as `functionCalls` already read them against `toolset`. */
function callsOf(
  turn: ModelTurn | FunctionCallsResult,
  toolset: ToolSet,
  options: AnswerOptions,
): FunctionCallsResult {
  if (!isRead(turn)) {
    const { validateArgs } = options;
    return functionCalls(turn, toolset, validateArgs === undefined ? {} : { validateArgs });
  }
  const stray = turn.items.findIndex((item) => !readAgainst(item, toolset));
  if (stray !== -1) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `the calls were read against another tool set than the one given to answerCalls (item ${stray} is not one of its calls)`,
      { path: `/items/${stray}` },
    );
  }
  return turn;
}

/** The functionResponse part answering one item: its result, or its rejection. */
function answerPart(outcome: Outcome, format: ResponseFormat): AnswerPart {
  if (outcome.kind === 'rejected') return unprovenRejectionPart(outcome.rejected, format);
  const { call, result } = outcome;
  return unprovenResponsePart(call.exposedName, result, call.callId, format);
}

/**
 * Runs the function calls of a model turn on `clients` and returns the next user Content:
 * exactly one functionResponse per functionCall, in call order, whether the call ran, was
 * rejected (unknown name, bad arguments), failed, timed out or was cancelled. The turn is a
 * GenerateContentResponse (its first candidate), a Content or its parts, or what
 * `functionCalls(turn, toolset)` already read of it (then it is not read again, and
 * `validateArgs` is what it was read with; calls read against another tool set are
 * INVALID_INPUT). Each answer is the outcome of its own item, so none can shift to another
 * call; every part, run or rejected, is made here, in `dialect`. Call ids are echoed where the
 * dialect's reference has them (Gemini API, Vertex AI v1beta1) and left out where not (Vertex
 * AI v1); each result is proven once (CallToolResult and outputSchema when run) and the Content
 * once, against that dialect's schema. Throws `INVALID_INPUT` when the turn holds no function
 * call (the candidate's FC-6 finish reason, if any, is named), so the API never sees a count
 * mismatch. `onProgress` hears the servers' progress notifications per call.
 *
 * @example
 * ```ts
 * const response = await ai.models.generateContent({ model, contents, config: { tools } });
 * contents.push(response.candidates![0]!.content!);
 * contents.push(await answerCalls(response, connections.toolset, connections.clients, { timeoutMs: 30_000 }));
 * ```
 */
export async function answerCalls(
  turn: ModelTurn | FunctionCallsResult,
  toolset: ToolSet,
  clients: ClientMap,
  options: AnswerOptions & {
    /**
     * The tool discovery the request's tools were declared with (`geminiTools(toolset, {
     * budget: { select: discovery } })`): calls of `gmk__search_tools` are answered by it,
     * never sent to a server, and each search loads the tools it returns for the next request.
     */
    readonly discovery?: ToolDiscovery;
  } = {},
): Promise<AnswerContent> {
  const { discovery } = options;
  if (discovery === undefined) return answerTurn(turn, toolset, clients, options);
  return answerTurn(turn, withSearch(toolset), clients, options, discoveryFunctions(discovery));
}

/** The functions a tool discovery answers itself: `gmk__search_tools`. */
export function discoveryFunctions(discovery: ToolDiscovery): OwnFunctions {
  return new Map([[SEARCH_TOOLS_NAME, (args) => discovery.search(args)]]);
}

/**
 * gemini-mcp-kit's own functions (the reserved namespace): each answers a call of its exposed
 * name itself, never on a server.
 */
export type OwnFunctions = ReadonlyMap<
  string,
  (args: Readonly<Record<string, unknown>>) => Promise<ToolResult>
>;

/**
 * {@link answerCalls}, with gemini-mcp-kit's own functions answered here (`own`): their calls are
 * in the same turn, answered in their place, rendered and proven like every other.
 */
export async function answerTurn(
  turn: ModelTurn | FunctionCallsResult,
  toolset: ToolSet,
  clients: ClientMap,
  options: AnswerOptions,
  own?: OwnFunctions,
): Promise<AnswerContent> {
  const { content } = dialectShapes(options.dialect);
  const { items, finish, ranByGemini } = callsOf(turn, toolset, options);
  if (items.length === 0) {
    const why =
      finish !== undefined
        ? ` (the candidate finished with ${finish.reason})`
        : (ranByGemini?.length ?? 0) > 0
          ? ` (Gemini ran its ${ranByGemini.length} call(s) itself and answered them in the same Content)`
          : '';
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `the model turn has no function call to answer${why}`,
    );
  }
  const ownOf = (item: CallItem) =>
    item.kind === 'call' ? own?.get(item.call.exposedName) : undefined;
  const toServers = own === undefined ? items : items.filter((item) => ownOf(item) === undefined);
  const run = await executeToolCalls(toServers, clients, options);
  let next = 0;
  const outcomes = await Promise.all(
    items.map(async (item): Promise<Outcome> => {
      const answer = ownOf(item);
      if (answer === undefined) return run[next++]!;
      const { call } = item as CallToRun;
      const started = performance.now();
      return {
        kind: 'call',
        call,
        result: await answer(call.arguments),
        durationMs: performance.now() - started,
      };
    }),
  );
  const parts = outcomes.map((outcome) => answerPart(outcome, options));
  return proveContract<AnswerContent>({ role: 'user', parts }, content.check, {
    schema: content.schema,
  });
}
