/**
 * The `generate` functions {@link runConversation} calls, and ready ones for @google/genai's
 * `ai.models.generateContent` and `ai.models.generateContentStream`. @google/genai is typed
 * structurally here, so gemini-mcp never loads it: users bring their own client.
 */

import type { AnswerContent, FunctionTool, ResponseInput, SchemaMode } from '../adapter/shapes.js';
import { GeminiMcpError } from '../errors.js';
import { checkGenerateContentResponse } from '../generated/guards.js';
import type { Content, GenerateContentResponse } from '../generated/types.js';

/**
 * What {@link runConversation} asks of a model on each turn. `C` is the type of the history's
 * Contents (the caller's, e.g. @google/genai's `Content`), `M` the schema mode of the tools.
 */
export interface GenerateRequest<C = Content, M extends SchemaMode = 'json'> {
  /** The conversation so far, ending with the user's turn: the caller's Contents and the answers. */
  contents: (C | AnswerContent)[];
  /** The tool set as Gemini tools (`[]` when it is empty). */
  tools: FunctionTool<M>[];
  /** Fires when the conversation is cancelled. */
  signal?: AbortSignal;
}

/** The Content type of a response type's candidates (genai's `Content` for genai's response). */
export type ContentOf<R extends ResponseInput> = NonNullable<
  NonNullable<NonNullable<R['candidates']>[number]['content']>
>;

/**
 * One model turn: a whole response, or a stream of chunks that together make one turn.
 * Any client works: wrap it in a function of this type. `R` is the client's response type
 * (gemini-mcp's own, or @google/genai's `GenerateContentResponse`); the history it is given
 * holds that response's Contents and gemini-mcp's answers.
 */
export type Generate<
  R extends ResponseInput = GenerateContentResponse,
  M extends SchemaMode = 'json',
> = (request: GenerateRequest<ContentOf<R>, M>) => Promise<R | AsyncIterable<R>>;

/** The parameters @google/genai's `generateContent` and `generateContentStream` take. */
export interface GenAiParameters {
  model: string;
  contents: unknown;
  config?: object;
}

/**
 * The part of a @google/genai `GoogleGenAI` client the ready `generate` functions use; `R` is
 * the client's response type (genai's `GenerateContentResponse`), checked at run time.
 */
export interface GenAiClient<R extends ResponseInput = ResponseInput> {
  models: {
    generateContent(params: GenAiParameters): Promise<R>;
    generateContentStream(params: GenAiParameters): Promise<AsyncIterable<R>>;
  };
}

/** Options of {@link genaiGenerate} and {@link genaiGenerateStream}. */
export interface GenAiGenerateOptions {
  /** The model, e.g. `gemini-2.5-flash`. */
  model: string;
  /** More `GenerateContentConfig` (system instruction, temperature, thinking, ...); `tools` is set per turn. */
  config?: Record<string, unknown>;
}

/**
 * Reads a value a client returned as a GenerateContentResponse: checked against the schema,
 * tolerating fields the schema does not know (the API adds fields over time; they are kept
 * and sent back as they came). Any other violation is a `GeminiMcpError` (`INVALID_PAYLOAD`).
 *
 * @example
 * ```ts
 * const response = readGenerateContentResponse(await ai.models.generateContent(params));
 * ```
 */
export function readGenerateContentResponse(value: unknown): GenerateContentResponse {
  const violations = checkGenerateContentResponse(value).filter(
    (violation) => violation.keyword !== 'additionalProperties',
  );
  const first = violations[0];
  if (first === undefined) return value as GenerateContentResponse;
  throw new GeminiMcpError(
    'INVALID_PAYLOAD',
    `the model's reply is not a GenerateContentResponse at "${first.path}": ${first.message}`,
    { path: first.path, details: violations },
  );
}

function parameters<C, M extends SchemaMode>(
  options: GenAiGenerateOptions,
  request: GenerateRequest<C, M>,
): GenAiParameters {
  const { signal } = request;
  return {
    model: options.model,
    contents: request.contents,
    config: {
      ...options.config,
      tools: request.tools,
      ...(signal === undefined ? {} : { abortSignal: signal }),
    },
  };
}

/** The reply itself, once it passed {@link readGenerateContentResponse}. */
function checked<R>(reply: R): R {
  readGenerateContentResponse(reply);
  return reply;
}

async function* readChunks<R>(stream: AsyncIterable<R>): AsyncIterable<R> {
  for await (const chunk of stream) yield checked(chunk);
}

/**
 * A {@link Generate} over @google/genai's `ai.models.generateContent`. Each reply is checked
 * as {@link readGenerateContentResponse} checks it and passed on as the client returned it,
 * typed as the client types it (genai's `GenerateContentResponse`, with its `Content`).
 *
 * @example
 * ```ts
 * import { GoogleGenAI } from '@google/genai';
 * const ai = new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY });
 * const generate = genaiGenerate(ai, { model: 'gemini-2.5-flash' });
 * const result = await runConversation({ generate, toolset, clients, contents });
 * ```
 */
export function genaiGenerate<R extends ResponseInput>(
  ai: GenAiClient<R>,
  options: GenAiGenerateOptions,
): Generate<R, SchemaMode> {
  return async (request) => checked(await ai.models.generateContent(parameters(options, request)));
}

/**
 * A {@link Generate} over @google/genai's `ai.models.generateContentStream`: the chunks of a
 * turn, which {@link runConversation} gathers into one model Content.
 *
 * @example
 * ```ts
 * const generate = genaiGenerateStream(ai, { model: 'gemini-2.5-flash' });
 * const result = await runConversation({ generate, toolset, clients, contents });
 * ```
 */
export function genaiGenerateStream<R extends ResponseInput>(
  ai: GenAiClient<R>,
  options: GenAiGenerateOptions,
): Generate<R, SchemaMode> {
  return async (request) =>
    readChunks(await ai.models.generateContentStream(parameters(options, request)));
}
