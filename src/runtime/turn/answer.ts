/**
 * Answers a model turn: runs its function calls and returns the user Content holding exactly
 * one functionResponse per functionCall, in call order.
 */

import { type ApiDialect, apiDialect } from '../../adapter/dialect.js';
import { dialectShapes } from '../../adapter/dialect-shapes.js';
import type {
  AnswerContent,
  AnswerPart,
  ContentInput,
  PartInput,
  ResponseInput,
} from '../../adapter/shapes.js';
import type { ToolSet } from '../../adapter/tools/toolset-types.js';
import {
  type FunctionCallsOptions,
  type FunctionCallsResult,
  functionCalls,
  readWithOf,
} from '../../adapter/turn/calls.js';
import {
  type FunctionResponseOptions,
  unprovenResponsePart,
} from '../../adapter/turn/responses.js';
import { GeminiMcpError } from '../../errors.js';
import { proveContract } from '../../json/contract.js';
import {
  type ClientMap,
  type ExecutedCall,
  type ExecuteOptions,
  executeToolCalls,
} from './execute.js';

/** Options of {@link answerCalls}. */
export interface AnswerOptions
  extends ExecuteOptions,
    Omit<FunctionResponseOptions, 'id'>,
    Pick<FunctionCallsOptions, 'validateArgs'> {}

/**
 * A model turn, as {@link answerCalls} and `functionCalls` read it: a response, a Content or its
 * parts, typed by the fields read (an @google/genai value fits as it is).
 */
export type ModelTurn = ResponseInput | ContentInput | readonly PartInput[];

function responsePart(
  outcome: ExecutedCall,
  options: AnswerOptions,
  dialect: ApiDialect,
): AnswerPart {
  const { structured, media, maxOutputBytes } = options;
  return unprovenResponsePart(outcome.call.exposedName, outcome.result, {
    id: outcome.call.callId,
    ...(structured === undefined ? {} : { structured }),
    ...(media === undefined ? {} : { media }),
    ...(maxOutputBytes === undefined ? {} : { maxOutputBytes }),
    dialect,
  });
}

/**
 * The turn's calls and their dialect: read now, or as `functionCalls` already read them against
 * `toolset` (in the dialect they were read in).
 */
function callsOf(
  turn: ModelTurn | FunctionCallsResult,
  toolset: ToolSet,
  options: AnswerOptions,
): { read: FunctionCallsResult; dialect: ApiDialect } {
  const readWith = readWithOf(turn);
  if (readWith === undefined) {
    const dialect = apiDialect(options.dialect);
    const read = functionCalls(turn, toolset, {
      dialect,
      ...(options.validateArgs === undefined ? {} : { validateArgs: options.validateArgs }),
    });
    return { read, dialect };
  }
  if (readWith.toolset !== toolset) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      'the calls were read against another tool set than the one given to answerCalls',
    );
  }
  if (options.dialect !== undefined && apiDialect(options.dialect) !== readWith.dialect) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `the calls were read as ${readWith.dialect} and cannot be answered as ${apiDialect(options.dialect)}`,
    );
  }
  return { read: turn as FunctionCallsResult, dialect: readWith.dialect };
}

/**
 * Runs the function calls of a model turn on `clients` and returns the next user Content:
 * exactly one functionResponse per functionCall, in call order, whether the call ran, was
 * rejected (unknown name, bad arguments), failed, timed out or was cancelled. The turn is a
 * GenerateContentResponse (its first candidate), a Content or its parts, or what
 * `functionCalls(turn, toolset)` already read of it (then it is not read again, and
 * `validateArgs` and `dialect` are those it was read with; another `dialect` is INVALID_INPUT).
 * Each answer is the outcome of its own item, so none can shift to another call. Call ids are
 * echoed where the dialect's reference has them (Gemini API, Vertex AI v1beta1) and left out
 * where not (Vertex AI v1); each result is proven once (CallToolResult and outputSchema when
 * run) and the Content once, against that dialect's schema. Throws `INVALID_INPUT` when the turn
 * holds no function call (the candidate's FC-6 finish reason, if any, is named), so the API
 * never sees a count mismatch. `onProgress` hears the servers' progress notifications per call.
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
  options: AnswerOptions = {},
): Promise<AnswerContent> {
  const { read, dialect } = callsOf(turn, toolset, options);
  const { items, finish } = read;
  const { content } = dialectShapes(dialect);
  if (items.length === 0) {
    const why = finish === undefined ? '' : ` (the candidate finished with ${finish.reason})`;
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `the model turn has no function call to answer${why}`,
    );
  }
  const outcomes = await executeToolCalls(items, clients, options);
  const parts = outcomes.map((outcome) =>
    outcome.kind === 'rejected' ? outcome.rejected.part : responsePart(outcome, options, dialect),
  );
  return proveContract<AnswerContent>({ role: 'user', parts }, content.check, {
    schema: content.schema,
  });
}
