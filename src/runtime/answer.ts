/**
 * Answers a model turn: runs its function calls and returns the user Content holding exactly
 * one functionResponse per functionCall, in call order.
 */
import {
  type FunctionCallsOptions,
  type FunctionCallsResult,
  functionCalls,
  toolsetOfRead,
} from '../adapter/calls.js';
import { dialectShapes } from '../adapter/dialect-shapes.js';
import { type FunctionResponseOptions, unprovenResponsePart } from '../adapter/responses.js';
import type {
  AnswerContent,
  AnswerPart,
  ContentInput,
  PartInput,
  ResponseInput,
} from '../adapter/shapes.js';
import type { ToolSet } from '../adapter/toolset-types.js';
import { GeminiMcpError } from '../errors.js';
import { proveContract } from '../json/contract.js';
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

function responsePart(outcome: ExecutedCall, options: AnswerOptions): AnswerPart {
  const { structured, media, maxOutputBytes, dialect } = options;
  return unprovenResponsePart(outcome.call.exposedName, outcome.result, {
    id: outcome.call.callId,
    ...(structured === undefined ? {} : { structured }),
    ...(media === undefined ? {} : { media }),
    ...(maxOutputBytes === undefined ? {} : { maxOutputBytes }),
    ...(dialect === undefined ? {} : { dialect }),
  });
}

/** The turn's calls: read now, or as `functionCalls` already read them against `toolset`. */
function callsOf(
  turn: ModelTurn | FunctionCallsResult,
  toolset: ToolSet,
  options: AnswerOptions,
): FunctionCallsResult {
  const readWith = toolsetOfRead(turn);
  if (readWith === undefined) {
    return functionCalls(turn, toolset, {
      dialect: options.dialect ?? 'gemini',
      ...(options.validateArgs === undefined ? {} : { validateArgs: options.validateArgs }),
    });
  }
  if (readWith !== toolset) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      'the calls were read against another tool set than the one given to answerCalls',
    );
  }
  return turn as FunctionCallsResult;
}

/**
 * Runs the function calls of a model turn on `clients` and returns the next user Content:
 * exactly one functionResponse per functionCall, in call order, whether the call ran, was
 * rejected (unknown name, bad arguments), failed, timed out or was cancelled. The turn is a
 * GenerateContentResponse (its first candidate), a Content or its parts, or what
 * `functionCalls(turn, toolset)` already read of it (then it is not read again, and
 * `validateArgs` and `dialect` are those it was read with). Each answer is the outcome of its
 * own item, so none can shift to another call. Call ids are echoed where the dialect's reference
 * has them (Gemini API, Vertex AI v1beta1) and left out where not (Vertex AI v1); each result is proven once (CallToolResult and outputSchema when run)
 * and the Content once, against that dialect's schema. Throws `INVALID_INPUT` when the turn
 * holds no function call (the candidate's FC-6 finish reason, if any, is named), so the API
 * never sees a count mismatch.
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
  const { content } = dialectShapes(options.dialect);
  const { items, finish } = callsOf(turn, toolset, options);
  if (items.length === 0) {
    const why = finish === undefined ? '' : ` (the candidate finished with ${finish.reason})`;
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `the model turn has no function call to answer${why}`,
    );
  }
  const outcomes = await executeToolCalls(items, clients, options);
  const parts = outcomes.map((outcome) =>
    outcome.kind === 'rejected' ? outcome.rejected.part : responsePart(outcome, options),
  );
  return proveContract<AnswerContent>({ role: 'user', parts }, content.check, {
    schema: content.schema,
  });
}
