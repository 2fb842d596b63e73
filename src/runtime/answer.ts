/**
 * Answers a model turn: runs its function calls and returns the user Content holding exactly
 * one functionResponse per functionCall, in call order.
 */
import { type FunctionCallsOptions, functionCalls } from '../adapter/calls.js';
import { type FunctionResponseOptions, functionResponse } from '../adapter/responses.js';
import type { ToolSet } from '../adapter/toolset-types.js';
import { GeminiMcpError } from '../errors.js';
import { checkContent, checkVertexContent } from '../generated/guards.js';
import type { Content, GenerateContentResponse, Part } from '../generated/types.js';
import { proveContract } from '../json/contract.js';
import { type ClientMap, type ExecuteOptions, executeToolCalls, type Outcome } from './execute.js';

/** Options of {@link answerCalls}. */
export interface AnswerOptions
  extends Omit<ExecuteOptions, 'toolset'>,
    Omit<FunctionResponseOptions, 'id'>,
    Pick<FunctionCallsOptions, 'validateArgs'> {}

/** A model turn, as {@link answerCalls} and `functionCalls` read it. */
export type ModelTurn = GenerateContentResponse | Content | readonly Part[];

function responsePart(outcome: Outcome, options: AnswerOptions): Part {
  const { structured, media, maxOutputBytes, dialect } = options;
  return functionResponse(outcome.call.exposedName, outcome.result, {
    id: outcome.call.callId,
    ...(structured === undefined ? {} : { structured }),
    ...(media === undefined ? {} : { media }),
    ...(maxOutputBytes === undefined ? {} : { maxOutputBytes }),
    ...(dialect === undefined ? {} : { dialect }),
  });
}

/**
 * Runs the function calls of a model turn (a GenerateContentResponse's first candidate, a
 * Content or its parts) on `clients` and returns the next user Content: exactly one
 * functionResponse per functionCall, in call order, whether the call ran, was rejected (unknown
 * name, bad arguments), failed, timed out or was cancelled. Call ids are echoed for the Gemini
 * dialect and left out for Vertex AI; the Content is proven against that dialect's schema.
 * Throws `INVALID_INPUT` when the turn holds no function call (the candidate's FC-6 finish
 * reason, if any, is named), so the API never sees a count mismatch.
 *
 * @example
 * ```ts
 * const response = await ai.models.generateContent({ model, contents, config: { tools } });
 * contents.push(response.candidates![0]!.content!);
 * contents.push(await answerCalls(response, connections.toolset, connections.clients, { timeoutMs: 30_000 }));
 * ```
 */
export async function answerCalls(
  turn: ModelTurn,
  toolset: ToolSet,
  clients: ClientMap,
  options: AnswerOptions = {},
): Promise<Content> {
  const dialect = options.dialect ?? 'gemini';
  const { items, calls, finish } = functionCalls(turn, toolset, {
    dialect,
    ...(options.validateArgs === undefined ? {} : { validateArgs: options.validateArgs }),
  });
  if (items.length === 0) {
    const why = finish === undefined ? '' : ` (the candidate finished with ${finish.reason})`;
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `the model turn has no function call to answer${why}`,
    );
  }
  // One outcome per call, in call order: the i-th 'call' item takes the i-th outcome.
  const outcomes = await executeToolCalls(calls, clients, { ...options, toolset });
  let next = 0;
  const parts = items.map((item) =>
    item.kind === 'rejected' ? item.rejected.part : responsePart(outcomes[next++]!, options),
  );
  const vertex = dialect === 'vertex';
  return proveContract<Content>(
    { role: 'user', parts },
    vertex ? checkVertexContent : checkContent,
    {
      schema: vertex ? 'VertexContent' : 'Content',
    },
  );
}
