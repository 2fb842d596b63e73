/**
 * gemini-mcp: connect MCP servers to Gemini function calling, with every payload proven against
 * the API's own schemas.
 *
 * @packageDocumentation
 */

export type {
  CallFinish,
  CallFinishReason,
  CallItem,
  CallToRun,
  FunctionCallsOptions,
  FunctionCallsResult,
  RejectedCall,
  RejectedItem,
  RejectionReason,
} from './adapter/calls.js';
export { CALL_FINISH_REASONS, functionCalls } from './adapter/calls.js';
export type { DeclarationWarning, FunctionDeclarationsOptions } from './adapter/declarations.js';
export { functionDeclarations, geminiTools } from './adapter/declarations.js';
export type { ApiDialect, Dialect } from './adapter/dialect.js';
export type { PrefixMode } from './adapter/names.js';
export { EXPOSED_NAME_PATTERN } from './adapter/names.js';
export type { MediaMode } from './adapter/render.js';
export type { RequestCheckOptions, RequestFinding } from './adapter/request-checks.js';
export { checkRequest } from './adapter/request-checks.js';
export type { FunctionResponseOptions, StructuredMode } from './adapter/responses.js';
export { DEFAULT_MAX_OUTPUT_BYTES, functionResponse } from './adapter/responses.js';
export type { SamplingModelPolicy } from './adapter/sampling-model.js';
export { chooseSamplingModel, modelByHints } from './adapter/sampling-model.js';
export type { SamplingGenerationConfig, SamplingRequest } from './adapter/sampling-request.js';
export { samplingRequest } from './adapter/sampling-request.js';
export type { SamplingResult } from './adapter/sampling-result.js';
export { samplingResult } from './adapter/sampling-result.js';
export type {
  SamplingRequestOptions,
  SamplingResultOptions,
  SamplingWarning,
  SamplingWarningCode,
} from './adapter/sampling-types.js';
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
} from './adapter/shapes.js';
export type { UncheckedKeyword } from './adapter/tool-schemas.js';
export { buildToolSet } from './adapter/toolset.js';
export type {
  BuildToolSetOptions,
  BuildToolSetResult,
  ServerTools,
  ToolFilter,
  ToolSet,
  ToolSetEntry,
  ToolSetWarning,
  ToolSetWarningCode,
} from './adapter/toolset-types.js';
export type { ResolvedCall, ToolError, ToolErrorCode, ToolResult } from './adapter/types.js';
export { isToolError } from './adapter/types.js';
export type { GeminiMcpErrorCode, GeminiMcpErrorOptions, ViolationDetail } from './errors.js';
export { GeminiMcpError } from './errors.js';
export type { ReadCheck, ReadNotice, SchemaName } from './generated/guards.js';
export {
  assertContent,
  assertFunctionDeclaration,
  assertGenerateContentRequest,
  assertGenerateContentResponse,
  assertMcpCallToolResult,
  assertMcpTool,
  assertPart,
  assertTool,
  checkContent,
  checkFunctionDeclaration,
  checkGenerateContentRequest,
  checkGenerateContentResponse,
  checkMcpCallToolResult,
  checkMcpTool,
  checkPart,
  checkTool,
  readContent,
  readMcpCallToolResult,
  readMcpListToolsResult,
  readMcpTool,
  readPart,
  SCHEMAS,
} from './generated/guards.js';
/** Every vendored schema's generated type (Gemini API, Vertex AI v1 and v1beta1, MCP), by schema name. */
export type * as schemas from './generated/types.js';
export type {
  Candidate,
  Content,
  FunctionCall,
  FunctionDeclaration,
  FunctionResponse,
  GenerateContentRequest,
  GenerateContentResponse,
  McpCallToolResult,
  McpContentBlock,
  McpListToolsResult,
  McpTool,
  Part,
  Schema,
  Tool,
  VertexV1Beta1Content,
  VertexV1Beta1Part,
  VertexV1Content,
  VertexV1Part,
} from './generated/types.js';
export type { AnswerOptions, ModelTurn } from './runtime/answer.js';
export { answerCalls } from './runtime/answer.js';
export type { FileTokenStoreOptions } from './runtime/auth/file-store.js';
export { defaultTokenDir, fileTokenStore } from './runtime/auth/file-store.js';
export type {
  AuthorizationHooks,
  OAuthProviderOptions,
  ServerAuthProvider,
} from './runtime/auth/provider.js';
export { oauthProvider } from './runtime/auth/provider.js';
export type { AuthTarget, OAuthFromConfigOptions, ServerAuth } from './runtime/auth/resolve.js';
export { oauthFromConfig } from './runtime/auth/resolve.js';
export type { OAuthSettings } from './runtime/auth/settings.js';
export type { StoredAuthorization, TokenStore } from './runtime/auth/store.js';
export { memoryTokenStore } from './runtime/auth/store.js';
export type { CallProgress } from './runtime/call-progress.js';
export { MAX_PROGRESS_MESSAGE_BYTES } from './runtime/call-progress.js';
export type {
  CallableServers,
  CallableToolOptions,
  McpCallableTool,
} from './runtime/callable-tool.js';
export { mcpCallableTool } from './runtime/callable-tool.js';
export type { ServerRequestContext } from './runtime/capabilities.js';
export type { ClientCapabilityOptions, ServerOptions } from './runtime/capabilities-config.js';
export { parseServersConfig, readServersConfig } from './runtime/config.js';
export type {
  ConfigFormat,
  ConfigReadOptions,
  ConfigWarning,
  GeminiCliHttpServerConfig,
  HttpServerConfig,
  HttpServerEntry,
  McpServersConfig,
  ServerConfig,
  ServerEntry,
  ServersConfig,
  StdioServerConfig,
  StdioServerEntry,
  VsCodeServersConfig,
} from './runtime/config-types.js';
export type {
  ConnectOptions,
  ServerConnections,
  ToolSetSource,
  ToolsChange,
  ToolsSettleOptions,
} from './runtime/connect.js';
export { connectServers } from './runtime/connect.js';
export type {
  AnsweredTurn,
  ConversationOptions,
  ConversationResult,
  ConversationStop,
} from './runtime/conversation.js';
export { runConversation } from './runtime/conversation.js';
export type {
  BooleanField,
  ChoiceField,
  ElicitationAnswer,
  ElicitationOptions,
  ElicitationQuery,
  FormField,
  FormOption,
  FormValue,
  MultiChoiceField,
  NumberField,
  TextField,
} from './runtime/elicitation.js';
export { DEFAULT_MAX_ELICITATION_BYTES, fieldProblem } from './runtime/elicitation.js';
export type { ClientMap, ExecutedCall, ExecuteOptions, Outcome } from './runtime/execute.js';
export { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS, executeToolCalls } from './runtime/execute.js';
export { gatherTurn } from './runtime/gather.js';
export type {
  ContentOf,
  GenAiClient,
  GenAiGenerateOptions,
  GenAiParameters,
  Generate,
  GenerateRequest,
  ReadOptions,
} from './runtime/genai.js';
export {
  genaiGenerate,
  genaiGenerateStream,
  readGenerateContentResponse,
} from './runtime/genai.js';
export type { ListToolsOptions } from './runtime/list-tools.js';
export { listAllTools } from './runtime/list-tools.js';
export { DEFAULT_TOOLS_REFRESH_TIMEOUT_MS } from './runtime/live-toolset.js';
export type { ClientRoot } from './runtime/roots.js';
export type {
  SamplingApprovalRequest,
  SamplingDecision,
  SamplingLimits,
  SamplingOptions,
} from './runtime/sampling.js';
export { SAMPLING_ERROR_CODES, serveSampling } from './runtime/sampling.js';
export type { TransportOptions } from './runtime/transport.js';
export type {
  GeminiParametersResult,
  GeminiSchemaResult,
  SchemaWarning,
  ToGeminiSchemaOptions,
} from './schema/to-gemini-schema.js';
export { toGeminiParameters, toGeminiSchema } from './schema/to-gemini-schema.js';
