/**
 * gemini-mcp-kit/genai, for @google/genai users: everything the root entry exports, with the
 * functions that emit Gemini `Schema`s typed by @google/genai's own types. The OpenAPI
 * `Schema.type` is a TypeScript enum in genai (`Type.STRING`), which no string-literal type can
 * be assigned to; the values are the same strings (the type test compares the two value sets for
 * each genai version it compiles against), so these signatures state what the functions return
 * and the run-time proof against the Gemini API's schemas is unchanged.
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
 * @module gemini-mcp-kit/genai
 */
import type * as genai from '@google/genai';
import type { SchemaMode } from './adapter/shapes.js';
import type { FunctionDeclarationsOptions } from './adapter/tools/declarations.js';
import * as declarations from './adapter/tools/declarations.js';
import type { McpServersOption } from './adapter/tools/server-side.js';
import type { ToolSet } from './adapter/tools/toolset-types.js';
import type { CallableServers, CallableToolOptions } from './runtime/turn/callable-tool.js';
import * as callable from './runtime/turn/callable-tool.js';
import type { SchemaWarning, ToGeminiSchemaOptions } from './schema/to-gemini-schema.js';
import * as schemas from './schema/to-gemini-schema.js';

export type {
  AnswerContent,
  AnsweredTurn,
  AnswerOptions,
  AnswerPart,
  ApiDialect,
  BuildToolSetOptions,
  BuildToolSetResult,
  CallableServers,
  CallableToolOptions,
  CallFinish,
  CallFinishReason,
  CallItem,
  CallProgress,
  CallToolResultInput,
  CallToRun,
  CandidateInput,
  ClientCapabilityOptions,
  ClientMap,
  ConfigFormat,
  ConfigReadOptions,
  ConfigWarning,
  ConfigWarningCode,
  ConnectOptions,
  ContentInput,
  ContentOf,
  ConversationOptions,
  ConversationResult,
  ConversationStop,
  DeclarationWarning,
  DeclarationWarningCode,
  DeclaredFunction,
  Dialect,
  ExecutedCall,
  ExecuteOptions,
  FunctionCallInput,
  FunctionCallsOptions,
  FunctionCallsResult,
  FunctionDeclarationsOptions,
  FunctionResponseOptions,
  FunctionTool,
  GatherOptions,
  GeminiCliHttpServerConfig,
  GeminiMcpErrorCode,
  GeminiMcpErrorOptions,
  GeminiParametersResult,
  GeminiRanCall,
  GeminiSchemaResult,
  GenAiClient,
  GenAiGenerateOptions,
  GenAiParameters,
  Generate,
  GenerateRequest,
  HttpServerConfig,
  HttpServerEntry,
  InputRequiredLimits,
  JsonFunctionDeclaration,
  ListedResource,
  ListedResourceTemplate,
  ListedSkill,
  ListToolsOptions,
  McpCallableTool,
  McpClient,
  McpRequest,
  McpRequestOptions,
  McpServer,
  McpServersConfig,
  McpServersOption,
  McpServerTool,
  McpTransport,
  MediaMode,
  ModelTurn,
  OpenApiFunctionDeclaration,
  Outcome,
  PartInput,
  PartialArgInput,
  PartialArgsUpdate,
  PrefixMode,
  PromptsChange,
  PromptWarning,
  PromptWarningCode,
  ReadNotice,
  RejectedCall,
  RejectedItem,
  RejectionReason,
  ResolvedCall,
  ResourceAccess,
  ResourceCatalog,
  ResourceListWarning,
  ResourcesChange,
  ResourceUpdate,
  ResponseFormat,
  ResponseInput,
  RunOn,
  SchemaMode,
  SchemaWarning,
  SchemaWarningCode,
  SelectionMode,
  ServerConfig,
  ServerConnections,
  ServerEntry,
  ServerInstructions,
  ServerOptions,
  ServerPlacement,
  ServerPrompt,
  ServerSideObstacle,
  ServerSideReason,
  ServerStatus,
  ServersConfig,
  ServerTools,
  SkillAccess,
  SkillCatalog,
  SkillEntry,
  SkillFile,
  StdioServerConfig,
  StdioServerEntry,
  StreamableHttpTransport,
  StructuredMode,
  SubscribeOptions,
  ToGeminiSchemaOptions,
  ToolDeclarationWarning,
  ToolDiscovery,
  ToolError,
  ToolErrorCode,
  ToolFilter,
  ToolRanker,
  ToolResult,
  ToolSelection,
  ToolSelectionOptions,
  ToolSet,
  ToolSetEntry,
  ToolSetSource,
  ToolSetWarning,
  ToolSetWarningCode,
  ToolsChange,
  ToolsSettleOptions,
  TransportOptions,
  UncheckedKeyword,
  UseGeminiMcpKitGenaiForGenaiFunctionDeclaration,
  UseGeminiMcpKitGenaiForGenaiTool,
  ViolationDetail,
  VsCodeServersConfig,
  Warning,
} from './index.js';
export {
  answerCalls,
  buildToolSet,
  connectServers,
  executeToolCalls,
  functionCalls,
  functionResponse,
  GeminiMcpError,
  gatherTurn,
  genaiGenerate,
  genaiGenerateStream,
  isToolError,
  listAllTools,
  parseServersConfig,
  readServersConfig,
  rejectionResponse,
  runConversation,
  toolSelection,
} from './index.js';

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

/** The root entry's `functionDeclarations`, typed `genai.FunctionDeclaration[]` in either schema mode. */
export function functionDeclarations(
  toolset: ToolSet,
  options?: FunctionDeclarationsOptions,
): genai.FunctionDeclaration[] {
  return declarations.functionDeclarations(toolset, options) as genai.FunctionDeclaration[];
}

/**
 * The root entry's `geminiTools`, typed `genai.Tool[]` in either schema mode (with `mcpServers`,
 * the servers Gemini runs itself, as one more Tool).
 */
export function geminiTools(
  toolset: ToolSet,
  options?: FunctionDeclarationsOptions & Partial<McpServersOption>,
): genai.Tool[] {
  return declarations.geminiTools(toolset, options) as genai.Tool[];
}

/** The root entry's `toGeminiSchema`, typed with genai's `Schema`. */
export function toGeminiSchema(
  jsonSchema: unknown,
  options?: ToGeminiSchemaOptions,
): GenAiSchemaResult {
  return schemas.toGeminiSchema(jsonSchema, options) as GenAiSchemaResult;
}

/** The root entry's `toGeminiParameters`, typed with genai's `Schema`. */
export function toGeminiParameters(
  inputSchema: unknown,
  options?: ToGeminiSchemaOptions,
): GenAiParametersResult {
  return schemas.toGeminiParameters(inputSchema, options) as GenAiParametersResult;
}

/**
 * The root entry's `mcpCallableTool`, typed as genai's `CallableTool` in either schema mode, its
 * `mcpServerTools()` as genai `Tool`s.
 */
export function mcpCallableTool(
  servers: CallableServers,
  options?: CallableToolOptions<SchemaMode>,
): genai.CallableTool & { mcpServerTools(): genai.Tool[] } {
  return callable.mcpCallableTool(servers, options) as genai.CallableTool & {
    mcpServerTools(): genai.Tool[];
  };
}
