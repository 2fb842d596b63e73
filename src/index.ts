/**
 * gemini-mcp-kit: connect MCP servers to Gemini function calling, with every payload proven
 * against the API's own schemas.
 *
 * The root entry holds the loop and the adapter core: connect servers, declare their tools,
 * read the model's calls, run them and answer. The rest has its own entry:
 * `gemini-mcp-kit/schemas` (the generated guards, `SCHEMAS`, `checkRequest`, the read
 * contract of a reply), `gemini-mcp-kit/auth` (OAuth providers and token stores),
 * `gemini-mcp-kit/features` (sampling, elicitation, roots) and `gemini-mcp-kit/genai` (this
 * entry, typed with @google/genai's own types).
 *
 * Importing it loads what the loop needs and no more: the MCP SDK's `Client` (with the first
 * connection), a transport's module (with `node:child_process` or the SDK's HTTP transports),
 * the OAuth client, the client features, ajv's builds, RE2JS and each family of generated
 * validators load when first used.
 *
 * @packageDocumentation
 * @module gemini-mcp-kit
 */

export type { ApiDialect, Dialect } from './adapter/dialect.js';
export type { PromptWarning, PromptWarningCode } from './adapter/prompts/contents.js';
export type {
  SelectionMode,
  ToolDiscovery,
  ToolRanker,
  ToolSelection,
  ToolSelectionOptions,
} from './adapter/selection/selection.js';
export { toolSelection } from './adapter/selection/selection.js';
export type {
  AnswerContent,
  AnswerPart,
  CallToolResultInput,
  CandidateInput,
  ContentInput,
  DeclaredFunction,
  FunctionCallInput,
  FunctionTool,
  JsonFunctionDeclaration,
  OpenApiFunctionDeclaration,
  PartInput,
  ResponseInput,
  SchemaMode,
  UseGeminiMcpKitGenaiForGenaiFunctionDeclaration,
  UseGeminiMcpKitGenaiForGenaiTool,
} from './adapter/shapes.js';
export type {
  DeclarationWarning,
  DeclarationWarningCode,
  FunctionDeclarationsOptions,
  ToolDeclarationWarning,
} from './adapter/tools/declarations.js';
export { functionDeclarations, geminiTools } from './adapter/tools/declarations.js';
export type { PrefixMode } from './adapter/tools/names.js';
export type {
  McpServersOption,
  McpServerTool,
  ServerSideObstacle,
  ServerSideReason,
} from './adapter/tools/server-side.js';
export type { UncheckedKeyword } from './adapter/tools/tool-schemas.js';
export { buildToolSet } from './adapter/tools/toolset.js';
export type {
  BuildToolSetOptions,
  BuildToolSetResult,
  ServerTools,
  ToolFilter,
  ToolSet,
  ToolSetEntry,
  ToolSetWarning,
  ToolSetWarningCode,
} from './adapter/tools/toolset-types.js';
export type {
  CallFinish,
  CallFinishReason,
  CallItem,
  CallToRun,
  FunctionCallsOptions,
  FunctionCallsResult,
  GeminiRanCall,
  RejectedCall,
  RejectedItem,
  RejectionReason,
} from './adapter/turn/calls.js';
export { functionCalls } from './adapter/turn/calls.js';
export type { MediaMode } from './adapter/turn/render.js';
export type {
  FunctionResponseOptions,
  ResponseFormat,
  StructuredMode,
} from './adapter/turn/responses.js';
export { functionResponse, rejectionResponse } from './adapter/turn/responses.js';
export type { ResolvedCall, ToolError, ToolErrorCode, ToolResult } from './adapter/types.js';
export { isToolError } from './adapter/types.js';
export type {
  GeminiMcpErrorCode,
  GeminiMcpErrorOptions,
  ViolationDetail,
  Warning,
} from './errors.js';
export { GeminiMcpError } from './errors.js';
export type { ReadNotice } from './generated/guards-common.js';
export type { McpServer, StreamableHttpTransport } from './generated/types.js';
export type { CallProgress } from './runtime/mcp/call-progress.js';
export { parseServersConfig, readServersConfig } from './runtime/mcp/config/index.js';
export type {
  ConfigFormat,
  ConfigReadOptions,
  ConfigWarning,
  ConfigWarningCode,
  GeminiCliHttpServerConfig,
  HttpServerConfig,
  HttpServerEntry,
  McpServersConfig,
  RunOn,
  ServerConfig,
  ServerEntry,
  ServersConfig,
  StdioServerConfig,
  StdioServerEntry,
  VsCodeServersConfig,
} from './runtime/mcp/config/types.js';
export type {
  ConnectOptions,
  ListedResource,
  ListedResourceTemplate,
  ListedSkill,
  ResourceCatalog,
  ResourceListWarning,
  ResourcesChange,
  ResourceUpdate,
  ServerConnections,
  ServerPlacement,
  ServerStatus,
  SkillCatalog,
  SkillEntry,
  SkillFile,
  SubscribeOptions,
  ToolSetSource,
  ToolsChange,
  ToolsSettleOptions,
} from './runtime/mcp/connect.js';
export { connectServers } from './runtime/mcp/connect.js';
export type {
  ClientCapabilityOptions,
  ServerOptions,
} from './runtime/mcp/features/capabilities-config.js';
export type { InputRequiredLimits } from './runtime/mcp/input-required.js';
export type { ServerInstructions } from './runtime/mcp/instructions.js';
export type { ListToolsOptions } from './runtime/mcp/list-tools.js';
export { listAllTools } from './runtime/mcp/list-tools.js';
export type {
  McpClient,
  McpRequest,
  McpRequestOptions,
  McpTransport,
} from './runtime/mcp/mcp-client.js';
export type { PromptsChange, ServerPrompt } from './runtime/mcp/prompts.js';
export type { TransportOptions } from './runtime/mcp/transports/index.js';
export { gatherTurn } from './runtime/model/gather.js';
export type {
  ContentOf,
  GenAiClient,
  GenAiGenerateOptions,
  GenAiParameters,
  Generate,
  GenerateRequest,
} from './runtime/model/generate.js';
export { genaiGenerate, genaiGenerateStream } from './runtime/model/generate.js';
export type {
  GatherOptions,
  PartialArgInput,
  PartialArgsUpdate,
} from './runtime/model/streamed-calls.js';
export type { AnswerOptions, ModelTurn } from './runtime/turn/answer.js';
export { answerCalls } from './runtime/turn/answer.js';
export type {
  CallableServers,
  CallableToolOptions,
  McpCallableTool,
} from './runtime/turn/callable-tool.js';
export { mcpCallableTool } from './runtime/turn/callable-tool.js';
export type {
  AnsweredTurn,
  ConversationOptions,
  ConversationResult,
  ConversationStop,
  ResourceAccess,
  SkillAccess,
} from './runtime/turn/conversation.js';
export { runConversation } from './runtime/turn/conversation.js';
export type { ClientMap, ExecutedCall, ExecuteOptions, Outcome } from './runtime/turn/execute.js';
export { executeToolCalls } from './runtime/turn/execute.js';
export type {
  GeminiParametersResult,
  GeminiSchemaResult,
  SchemaWarning,
  SchemaWarningCode,
  ToGeminiSchemaOptions,
} from './schema/to-gemini-schema.js';
export { toGeminiParameters, toGeminiSchema } from './schema/to-gemini-schema.js';
