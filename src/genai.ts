/**
 * gemini-mcp-kit for @google/genai users: everything `gemini-mcp-kit` exports, with the functions that
 * emit Gemini `Schema`s typed by @google/genai's own types. The OpenAPI `Schema.type` is a
 * TypeScript enum in genai (`Type.STRING`), which no string-literal type can be assigned to; the
 * values are the same strings (the type test compares the two value sets for each genai
 * version it compiles against), so these signatures state what the functions return and the
 * run-time proof against the Gemini API's schemas is unchanged.
 *
 * @example
 * ```ts
 * import { GoogleGenAI } from '@google/genai';
 * import { connectServers, geminiTools } from 'gemini-mcp-kit/genai';
 *
 * const ai = new GoogleGenAI({ apiKey: process.env['GEMINI_API_KEY'] ?? '' });
 * const servers = await connectServers('mcp.json');
 * const tools = geminiTools(servers.toolset, { schemaMode: 'openapi' }); // genai.Tool[]
 * const response = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi', config: { tools } });
 * ```
 *
 * @packageDocumentation
 */
import type * as genai from '@google/genai';
import type { SchemaMode } from './adapter/shapes.js';
import type { FunctionDeclarationsOptions } from './adapter/tools/declarations.js';
import * as declarations from './adapter/tools/declarations.js';
import type { ToolSet } from './adapter/tools/toolset-types.js';
import type { CallableServers, CallableToolOptions } from './runtime/turn/callable-tool.js';
import * as callable from './runtime/turn/callable-tool.js';
import type { SchemaWarning, ToGeminiSchemaOptions } from './schema/to-gemini-schema.js';
import * as schemas from './schema/to-gemini-schema.js';

export * from './index.js';

/** `toGeminiSchema`'s result, typed with genai's `Schema`. */
export interface GenAiSchemaResult {
  schema: genai.Schema;
  warnings: SchemaWarning[];
}

/** `toGeminiParameters`' result, typed with genai's `Schema`. */
export interface GenAiParametersResult {
  schema: genai.Schema | undefined;
  warnings: SchemaWarning[];
}

/** The gemini-mcp-kit `functionDeclarations`, typed `genai.FunctionDeclaration[]` in either schema mode. */
export function functionDeclarations(
  toolset: ToolSet,
  options?: FunctionDeclarationsOptions,
): genai.FunctionDeclaration[] {
  return declarations.functionDeclarations(toolset, options) as genai.FunctionDeclaration[];
}

/** The gemini-mcp-kit `geminiTools`, typed `genai.Tool[]` in either schema mode. */
export function geminiTools(toolset: ToolSet, options?: FunctionDeclarationsOptions): genai.Tool[] {
  return declarations.geminiTools(toolset, options) as genai.Tool[];
}

/** The gemini-mcp-kit `toGeminiSchema`, typed with genai's `Schema`. */
export function toGeminiSchema(
  jsonSchema: unknown,
  options?: ToGeminiSchemaOptions,
): GenAiSchemaResult {
  return schemas.toGeminiSchema(jsonSchema, options) as GenAiSchemaResult;
}

/** The gemini-mcp-kit `toGeminiParameters`, typed with genai's `Schema`. */
export function toGeminiParameters(
  inputSchema: unknown,
  options?: ToGeminiSchemaOptions,
): GenAiParametersResult {
  return schemas.toGeminiParameters(inputSchema, options) as GenAiParametersResult;
}

/** The gemini-mcp-kit `mcpCallableTool`, typed as genai's `CallableTool` in either schema mode. */
export function mcpCallableTool(
  servers: CallableServers,
  options?: CallableToolOptions<SchemaMode>,
): genai.CallableTool {
  return callable.mcpCallableTool(servers, options) as genai.CallableTool;
}
