/**
 * The `generate` functions {@link runConversation} calls, and ready ones for @google/genai's
 * `ai.models.generateContent` and `ai.models.generateContentStream`. @google/genai is typed
 * structurally here, so gemini-mcp never loads it: users bring their own client.
 */
import { GeminiMcpError } from '../errors.js';
import { checkGenerateContentResponse } from '../generated/guards.js';
import type { Content, GenerateContentResponse, Tool } from '../generated/types.js';

/** What {@link runConversation} asks of a model on each turn. */
export interface GenerateRequest {
  /** The conversation so far, ending with the user's turn. */
  contents: Content[];
  /** The tool set as Gemini tools (`[]` when it is empty). */
  tools: Tool[];
  /** Fires when the conversation is cancelled. */
  signal?: AbortSignal;
}

/**
 * One model turn: a whole response, or a stream of chunks that together make one turn.
 * Any client works: wrap it in a function of this type.
 */
export type Generate = (
  request: GenerateRequest,
) => Promise<GenerateContentResponse | AsyncIterable<GenerateContentResponse>>;

/** The parameters @google/genai's `generateContent` and `generateContentStream` take. */
export interface GenAiParameters {
  model: string;
  contents: unknown;
  config?: object;
}

/** The part of a @google/genai `GoogleGenAI` client the ready `generate` functions use. */
export interface GenAiClient {
  models: {
    generateContent(params: GenAiParameters): Promise<unknown>;
    generateContentStream(params: GenAiParameters): Promise<AsyncIterable<unknown>>;
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

function parameters(options: GenAiGenerateOptions, request: GenerateRequest): GenAiParameters {
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

async function* readChunks(stream: AsyncIterable<unknown>): AsyncIterable<GenerateContentResponse> {
  for await (const chunk of stream) yield readGenerateContentResponse(chunk);
}

/**
 * A {@link Generate} over @google/genai's `ai.models.generateContent`.
 *
 * @example
 * ```ts
 * import { GoogleGenAI } from '@google/genai';
 * const ai = new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY });
 * const generate = genaiGenerate(ai, { model: 'gemini-2.5-flash' });
 * const result = await runConversation({ generate, toolset, clients, contents });
 * ```
 */
export function genaiGenerate(ai: GenAiClient, options: GenAiGenerateOptions): Generate {
  return async (request) =>
    readGenerateContentResponse(await ai.models.generateContent(parameters(options, request)));
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
export function genaiGenerateStream(ai: GenAiClient, options: GenAiGenerateOptions): Generate {
  return async (request) =>
    readChunks(await ai.models.generateContentStream(parameters(options, request)));
}
