/**
 * The shapes gemini-mcp-kit takes from a model client and gives back to it, typed so that
 * @google/genai's own values fit both ways without casts:
 *
 * - What we read (a response, a Content, Parts) is typed structurally, by the few fields the
 *   adapter looks at, each as loose as the run-time check that follows: any object with those
 *   fields fits, including genai's classes and interfaces, whose enums are strings.
 * - What we emit is typed as exactly what we emit (a subset of the generated types, which the
 *   validators prove at run time), so it has none of the enum-typed fields (`behavior`,
 *   `scheduling`, `mediaResolution`, ...) that a string-literal union could never meet in
 *   genai's TypeScript enums. The one emitted field that is an enum in genai, the OpenAPI
 *   `Schema.type`, is typed by the `gemini-mcp-kit/genai` entry.
 */
import type { FunctionResponsePart, Schema } from '../generated/types.js';

/** A function call as read from a model turn; every field is checked at run time. */
export interface FunctionCallInput {
  readonly name?: string | undefined;
  readonly id?: string | undefined;
  readonly args?: Readonly<Record<string, unknown>> | undefined;
}

/** A Part as read from a model turn: the fields gemini-mcp-kit looks at, any others kept as they are. */
export interface PartInput {
  readonly text?: string | undefined;
  readonly thought?: boolean | undefined;
  readonly thoughtSignature?: string | undefined;
  readonly functionCall?: FunctionCallInput | undefined;
}

/** A Content as read from a model turn or a history. */
export interface ContentInput {
  readonly role?: string | undefined;
  readonly parts?: readonly PartInput[] | undefined;
}

/** A candidate of a model response. */
export interface CandidateInput {
  readonly content?: ContentInput | undefined;
  readonly finishReason?: string | undefined;
  readonly finishMessage?: string | undefined;
}

/** A GenerateContentResponse (an @google/genai `GenerateContentResponse` instance fits). */
export interface ResponseInput {
  readonly candidates?: readonly CandidateInput[] | undefined;
  readonly promptFeedback?: object | undefined;
}

/** A functionResponse part answering one function call, as gemini-mcp-kit emits it. */
export interface AnswerPart {
  functionResponse: {
    /** The call's id, when the call had one and the dialect has ids. */
    id?: string;
    name: string;
    /** `{output}` on success, `{error}` on failure. */
    response: Record<string, unknown>;
    /** Images and audio with `media: 'parts'`. */
    parts?: FunctionResponsePart[];
  };
}

/** The user Content answering a model turn: one functionResponse part per call, in call order. */
export interface AnswerContent {
  role: 'user';
  parts: AnswerPart[];
}

/**
 * What a tool call returned, as the MCP SDK's `Client.callTool` types it: a CallToolResult, or
 * the `{toolResult}` of protocol version 2024-10-07. Checked against the MCP schema at run time.
 */
export type CallToolResultInput =
  | {
      readonly content: readonly unknown[];
      readonly structuredContent?: unknown;
      readonly isError?: boolean | undefined;
    }
  | { readonly toolResult: unknown };

/** How a tool's schemas are declared: see `FunctionDeclarationsOptions.schemaMode`. */
export type SchemaMode = 'json' | 'openapi';

/** A function declaration in json schema mode: the tool's JSON Schemas as they are. */
export interface JsonFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema?: unknown;
  responseJsonSchema?: unknown;
}

/** A function declaration in openapi schema mode: the schemas converted to Gemini's Schema. */
export interface OpenApiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: Schema;
  response?: Schema;
}

/** The declaration {@link SchemaMode} `M` yields (both kinds for the union). */
export type DeclaredFunction<M extends SchemaMode = 'json'> = M extends 'openapi'
  ? OpenApiFunctionDeclaration
  : JsonFunctionDeclaration;

/** A Gemini Tool holding function declarations, as `geminiTools` emits it. */
export interface FunctionTool<M extends SchemaMode = 'json'> {
  functionDeclarations: DeclaredFunction<M>[];
}

/**
 * An openapi-mode declaration as `functionDeclarations` from the main entry types it: its
 * `Schema.type` is the API's string (`'STRING'`), which @google/genai's `FunctionDeclaration`
 * does not take (its `Type` is a TypeScript enum). The name is what a type error shows: import
 * `functionDeclarations` from `gemini-mcp-kit/genai` to have the same value typed
 * `genai.FunctionDeclaration[]`.
 */
export interface UseGeminiMcpKitGenaiForGenaiFunctionDeclaration
  extends OpenApiFunctionDeclaration {}

/**
 * An openapi-mode Tool as `geminiTools` from the main entry types it: its declarations'
 * `Schema.type` is the API's string (`'STRING'`), which @google/genai's `Tool` does not take
 * (its `Type` is a TypeScript enum). The name is what a type error shows: import `geminiTools`
 * from `gemini-mcp-kit/genai` to have the same value typed `genai.Tool[]`.
 */
export interface UseGeminiMcpKitGenaiForGenaiTool extends FunctionTool<'openapi'> {
  functionDeclarations: UseGeminiMcpKitGenaiForGenaiFunctionDeclaration[];
}
