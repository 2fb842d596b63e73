/**
 * The `generate` functions {@link runConversation} calls, and ready ones for @google/genai's
 * `ai.models.generateContent` and `ai.models.generateContentStream`. @google/genai is typed
 * structurally here, so gemini-mcp never loads it: users bring their own client.
 */
import { GeminiMcpError } from '../errors.js';
import {
  type ReadNotice,
  readGenerateContentResponse as readResponse,
} from '../generated/guards.js';
import type { Content, GenerateContentResponse, Tool } from '../generated/types.js';

/** Options of the functions that read what the model sends. */
export interface ReadOptions {
  /**
   * Called for each tolerance the read contract used: a field, enum value (a new `finishReason`,
   * `HarmCategory`, modality, ...) or kind of part that the vendored revision does not know. The
   * value is kept as it came; the notice says where it is and that it is new.
   */
  onNotice?: (notice: ReadNotice) => void;
}

/** What {@link runConversation} asks of a model on each turn. */
export interface GenerateRequest {
  /** The conversation so far, ending with the user's turn. */
  contents: Content[];
  /** The tool set as Gemini tools (`[]` when it is empty). */
  tools: Tool[];
  /** Fires when the conversation is cancelled. */
  signal?: AbortSignal;
  /** Where a `generate` that reads the reply reports each tolerance used (see {@link ReadOptions}). */
  onNotice?: (notice: ReadNotice) => void;
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
 * Reads a value a client returned as a GenerateContentResponse, with the read contract: fields,
 * enum values and kinds of part newer than the vendored revision are accepted, kept as they
 * came (so the model's Content goes back unchanged) and each reported to `onNotice`; fields the
 * code depends on stay required. Enum-typed fields may therefore hold values newer than their
 * type lists (a `finishReason` of `NEW_REASON`), always with a notice. Anything else wrong is a
 * `GeminiMcpError` (`INVALID_PAYLOAD`) naming the JSON pointer.
 *
 * @example
 * ```ts
 * const response = readGenerateContentResponse(await ai.models.generateContent(params), {
 *   onNotice: (notice) => console.warn(notice.path, notice.message),
 * });
 * ```
 */
export function readGenerateContentResponse(
  value: unknown,
  options: ReadOptions = {},
): GenerateContentResponse {
  const { violations, notices } = readResponse(value);
  const first = violations[0];
  if (first !== undefined) {
    throw new GeminiMcpError(
      'INVALID_PAYLOAD',
      `the model's reply is not a GenerateContentResponse at "${first.path}": ${first.message}`,
      { path: first.path, details: violations },
    );
  }
  if (options.onNotice !== undefined) for (const notice of notices) options.onNotice(notice);
  return value as GenerateContentResponse;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The client's parameters. `contents` also travel in `httpOptions.extraBody`, which @google/genai
 * merges into the request body as they are: its own converter keeps only the fields it knows,
 * and would drop what a newer API added to the model's Content (a new Part field, a part of a
 * new kind), which must go back unchanged.
 */
function parameters(options: GenAiGenerateOptions, request: GenerateRequest): GenAiParameters {
  const { signal } = request;
  const httpOptions = isRecord(options.config?.httpOptions) ? options.config.httpOptions : {};
  const extraBody = isRecord(httpOptions.extraBody) ? httpOptions.extraBody : {};
  return {
    model: options.model,
    contents: request.contents,
    config: {
      ...options.config,
      tools: request.tools,
      httpOptions: { ...httpOptions, extraBody: { ...extraBody, contents: request.contents } },
      ...(signal === undefined ? {} : { abortSignal: signal }),
    },
  };
}

/** What @google/genai adds to each response itself (not the API's, so never a novelty). */
const CLIENT_FIELDS = new Set(['/sdkHttpResponse']);

function readOptions(request: GenerateRequest): ReadOptions {
  const { onNotice } = request;
  if (onNotice === undefined) return {};
  return { onNotice: (notice) => CLIENT_FIELDS.has(notice.path) || onNotice(notice) };
}

async function* readChunks(
  stream: AsyncIterable<unknown>,
  options: ReadOptions,
): AsyncIterable<GenerateContentResponse> {
  for await (const chunk of stream) yield readGenerateContentResponse(chunk, options);
}

/**
 * A {@link Generate} over @google/genai's `ai.models.generateContent`. Each reply is read with
 * {@link readGenerateContentResponse}, its notices going to the request's `onNotice`; the
 * contents are sent as they are (see the note on unknown fields there).
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
    readGenerateContentResponse(
      await ai.models.generateContent(parameters(options, request)),
      readOptions(request),
    );
}

/**
 * A {@link Generate} over @google/genai's `ai.models.generateContentStream`: the chunks of a
 * turn, which {@link runConversation} gathers into one model Content. Each chunk is read like
 * {@link genaiGenerate}'s reply.
 *
 * @example
 * ```ts
 * const generate = genaiGenerateStream(ai, { model: 'gemini-2.5-flash' });
 * const result = await runConversation({ generate, toolset, clients, contents });
 * ```
 */
export function genaiGenerateStream(ai: GenAiClient, options: GenAiGenerateOptions): Generate {
  return async (request) =>
    readChunks(
      await ai.models.generateContentStream(parameters(options, request)),
      readOptions(request),
    );
}
