/**
 * The `generate` functions {@link runConversation} calls, and ready ones for @google/genai's
 * `ai.models.generateContent` and `ai.models.generateContentStream`. @google/genai is typed
 * structurally here, so gemini-mcp-kit never loads it: users bring their own client.
 */

import type { Dialect } from '../../adapter/dialect.js';
import { dialectShapes } from '../../adapter/dialect-shapes.js';
import type {
  AnswerContent,
  ContentInput,
  FunctionTool,
  ResponseInput,
  SchemaMode,
} from '../../adapter/shapes.js';
import { GeminiMcpError } from '../../errors.js';
import type { ReadNotice } from '../../generated/guards-common.js';
import type {
  Content,
  GenerateContentResponse,
  McpServer,
  ToolConfig,
} from '../../generated/types.js';
import { isJsonObject } from '../../json/object.js';

/** Options of the functions that read what the model sends. */
export interface ReadOptions {
  /**
   * Called for each tolerance the read contract used: a field, enum value (a new `finishReason`,
   * `HarmCategory`, modality, ...) or kind of part that the vendored revision does not know. The
   * value is kept as it came; the notice says where it is and that it is new.
   */
  onNotice?: (notice: ReadNotice) => void;
  /**
   * The API (and version) the reply comes from, read with that reference's shapes (default
   * `'gemini'`; `'vertex-v1'`, `'vertex-v1beta1'`, `'vertex'` for Vertex AI, whose replies carry
   * fields of their own such as `createTime`).
   */
  readonly dialect?: Dialect;
}

/**
 * What {@link runConversation} asks of a model on each turn. `C` is the type of the history's
 * Contents (the caller's, e.g. @google/genai's `Content`), `M` the schema mode of the tools.
 */
export interface GenerateRequest<C = Content, M extends SchemaMode = 'json'> {
  /** The conversation so far, ending with the user's turn: the caller's Contents and the answers. */
  contents: (C | AnswerContent)[];
  /** The tool set as Gemini tools (`[]` when it is empty). */
  tools: FunctionTool<M>[];
  /**
   * The MCP servers Gemini runs itself, when there are any: send them as one more Tool,
   * `{mcpServers}` (`genaiGenerate` and `genaiGenerateStream` do).
   */
  mcpServers?: McpServer[];
  /** Fires when the conversation is cancelled. */
  signal?: AbortSignal;
  /** Where a `generate` that reads the reply reports each tolerance used (see {@link ReadOptions}). */
  onNotice?: (notice: ReadNotice) => void;
  /**
   * The model for this request, when the caller chooses one (a sampling request's model
   * policy); `genaiGenerate` and `genaiGenerateStream` use it instead of their own.
   */
  model?: string;
  /** The system instruction (a sampling request's system prompt), as the REST API spells it. */
  systemInstruction?: Content;
  /** Generation settings (a sampling request's `maxTokens`, `temperature`, `stopSequences`). */
  generationConfig?: { maxOutputTokens?: number; temperature?: number; stopSequences?: string[] };
  /** The function calling mode (a sampling request's `toolChoice`). */
  toolConfig?: ToolConfig;
}

/** The Content type of a response type's candidates (genai's `Content` for genai's response). */
export type ContentOf<R extends ResponseInput> = NonNullable<
  NonNullable<NonNullable<R['candidates']>[number]['content']>
>;

/**
 * One model turn: a whole response, or a stream of chunks that together make one turn.
 * Any client works: wrap it in a function of this type. `R` is the client's response type
 * (gemini-mcp-kit's own, @google/genai's `GenerateContentResponse`, or the object literals of a
 * script); the history it is given holds the caller's Contents (`C`, by default that response's
 * Content type), the response's Contents and gemini-mcp-kit's answers.
 */
export type Generate<
  R extends ResponseInput = GenerateContentResponse,
  M extends SchemaMode = 'json',
  C extends ContentInput = ContentOf<R>,
> = (request: GenerateRequest<C | ContentOf<R>, M>) => Promise<R | AsyncIterable<R>>;

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
  /** The API (and version) the client talks to, for reading its replies (default `'gemini'`). */
  dialect?: Dialect;
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
  const { response } = dialectShapes(options.dialect);
  const { violations, notices } = response.read(value);
  const first = violations[0];
  if (first !== undefined) {
    throw new GeminiMcpError(
      'INVALID_PAYLOAD',
      `the model's reply is not a ${response.schema} at "${first.path}": ${first.message}`,
      { path: first.path, details: violations },
    );
  }
  if (options.onNotice !== undefined) for (const notice of notices) options.onNotice(notice);
  return value as GenerateContentResponse;
}

/**
 * The client's parameters. `contents` also travel in `httpOptions.extraBody`, which @google/genai
 * merges into the request body as they are: its own converter keeps only the fields it knows,
 * and would drop what a newer API added to the model's Content (a new Part field, a part of a
 * new kind), which must go back unchanged.
 */
function parameters<C, M extends SchemaMode>(
  options: GenAiGenerateOptions,
  request: GenerateRequest<C, M>,
): GenAiParameters {
  const { signal, systemInstruction, generationConfig, toolConfig } = request;
  const httpOptions = isJsonObject(options.config?.httpOptions) ? options.config.httpOptions : {};
  const extraBody = isJsonObject(httpOptions.extraBody) ? httpOptions.extraBody : {};
  return {
    model: request.model ?? options.model,
    contents: request.contents,
    config: {
      ...options.config,
      ...(systemInstruction === undefined ? {} : { systemInstruction }),
      ...generationConfig,
      ...(toolConfig === undefined ? {} : { toolConfig }),
      tools:
        request.mcpServers === undefined || request.mcpServers.length === 0
          ? request.tools
          : [...request.tools, { mcpServers: request.mcpServers }],
      httpOptions: { ...httpOptions, extraBody: { ...extraBody, contents: request.contents } },
      ...(signal === undefined ? {} : { abortSignal: signal }),
    },
  };
}

/** What @google/genai adds to each response itself (not the API's, so never a novelty). */
const CLIENT_FIELDS = new Set(['/sdkHttpResponse']);

function readOptions<C, M extends SchemaMode>(
  options: GenAiGenerateOptions,
  request: GenerateRequest<C, M>,
): ReadOptions {
  const { onNotice } = request;
  const dialect = options.dialect === undefined ? {} : { dialect: options.dialect };
  if (onNotice === undefined) return dialect;
  return { ...dialect, onNotice: (notice) => CLIENT_FIELDS.has(notice.path) || onNotice(notice) };
}

/** The reply itself, once it passed {@link readGenerateContentResponse}. */
function checked<R>(reply: R, options: ReadOptions): R {
  readGenerateContentResponse(reply, options);
  return reply;
}

async function* readChunks<R>(stream: AsyncIterable<R>, options: ReadOptions): AsyncIterable<R> {
  for await (const chunk of stream) yield checked(chunk, options);
}

/**
 * A {@link Generate} over @google/genai's `ai.models.generateContent`. Each reply is read with
 * {@link readGenerateContentResponse}, its notices going to the request's `onNotice`, and
 * passed on as the client returned it, typed as the client types it (genai's
 * `GenerateContentResponse`, with its `Content`); the contents are sent as they are (see the
 * note on unknown fields there).
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
  return async (request) =>
    checked(
      await ai.models.generateContent(parameters(options, request)),
      readOptions(options, request),
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
export function genaiGenerateStream<R extends ResponseInput>(
  ai: GenAiClient<R>,
  options: GenAiGenerateOptions,
): Generate<R, SchemaMode> {
  return async (request) =>
    readChunks(
      await ai.models.generateContentStream(parameters(options, request)),
      readOptions(options, request),
    );
}
