/**
 * gemini-mcp-kit: connect MCP servers to Gemini function calling, with every payload proven against
 * the API's own schemas.
 *
 * @packageDocumentation
 */

export type { ApiDialect, Dialect } from './adapter/dialect.js';
export type {
  BudgetOptions,
  DeclarationBudget,
  DeclarationMeasure,
} from './adapter/limits.js';
export { resolveBudget } from './adapter/limits.js';
export type { SamplingModelPolicy } from './adapter/sampling/model.js';
export { chooseSamplingModel, modelByHints } from './adapter/sampling/model.js';
export type { SamplingGenerationConfig, SamplingRequest } from './adapter/sampling/request.js';
export { samplingRequest } from './adapter/sampling/request.js';
export type { SamplingResult } from './adapter/sampling/result.js';
export { samplingResult } from './adapter/sampling/result.js';
export type {
  SamplingRequestOptions,
  SamplingResultOptions,
  SamplingWarning,
  SamplingWarningCode,
} from './adapter/sampling/types.js';
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
export type {
  BudgetWarning,
  BudgetWarningCode,
  DeclarationBudgetOptions,
  DeclarationCandidate,
  DeclarationSelector,
  SelectionContext,
} from './adapter/tools/fit.js';
export { isBudgetWarning } from './adapter/tools/fit.js';
export type { PrefixMode } from './adapter/tools/names.js';
export { EXPOSED_NAME_PATTERN, isReservedName, RESERVED_PREFIX } from './adapter/tools/names.js';
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
  RejectedCall,
  RejectedItem,
  RejectionReason,
} from './adapter/turn/calls.js';
export { CALL_FINISH_REASONS, functionCalls } from './adapter/turn/calls.js';
export type {
  Refusal,
  RefusalKind,
  RefusedDeclaration,
  RefusedRequest,
} from './adapter/turn/refusal.js';
export { traceRefusal } from './adapter/turn/refusal.js';
export type { MediaMode } from './adapter/turn/render.js';
export type { RequestCheckOptions, RequestFinding } from './adapter/turn/request-checks.js';
export { checkRequest } from './adapter/turn/request-checks.js';
export type {
  FunctionResponseOptions,
  ResponseFormat,
  StructuredMode,
} from './adapter/turn/responses.js';
export {
  DEFAULT_MAX_OUTPUT_BYTES,
  functionResponse,
  rejectionResponse,
} from './adapter/turn/responses.js';
export type { ResolvedCall, ToolError, ToolErrorCode, ToolResult } from './adapter/types.js';
export { isToolError } from './adapter/types.js';
export type {
  GeminiMcpErrorCode,
  GeminiMcpErrorOptions,
  ViolationDetail,
  Warning,
} from './errors.js';
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
export type {
  ApiLimit,
  ApiLimitId,
  ApiLimitSource,
  LimitDialect,
  LimitValue,
} from './generated/limits.js';
export { API_LIMITS } from './generated/limits.js';
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
export type { FileTokenStoreOptions } from './runtime/mcp/auth/file-store.js';
export { defaultTokenDir, fileTokenStore } from './runtime/mcp/auth/file-store.js';
export type {
  AuthorizationHooks,
  OAuthProviderOptions,
  ServerAuthProvider,
} from './runtime/mcp/auth/provider.js';
export { oauthProvider } from './runtime/mcp/auth/provider.js';
export type { AuthTarget, OAuthFromConfigOptions, ServerAuth } from './runtime/mcp/auth/resolve.js';
export { oauthFromConfig } from './runtime/mcp/auth/resolve.js';
export type { OAuthSettings } from './runtime/mcp/auth/settings.js';
export type { StoredAuthorization, TokenStore } from './runtime/mcp/auth/store.js';
export { memoryTokenStore } from './runtime/mcp/auth/store.js';
export type { CallProgress } from './runtime/mcp/call-progress.js';
export { MAX_PROGRESS_MESSAGE_BYTES } from './runtime/mcp/call-progress.js';
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
  ServerConfig,
  ServerEntry,
  ServersConfig,
  StdioServerConfig,
  StdioServerEntry,
  VsCodeServersConfig,
} from './runtime/mcp/config/types.js';
export type {
  ConnectOptions,
  ServerConnections,
  ToolSetSource,
  ToolsChange,
  ToolsSettleOptions,
} from './runtime/mcp/connect.js';
export { connectServers } from './runtime/mcp/connect.js';
export type { ServerRequestContext } from './runtime/mcp/features/capabilities.js';
export type {
  ClientCapabilityOptions,
  ServerOptions,
} from './runtime/mcp/features/capabilities-config.js';
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
} from './runtime/mcp/features/elicitation.js';
export { DEFAULT_MAX_ELICITATION_BYTES, fieldProblem } from './runtime/mcp/features/elicitation.js';
export type { ClientRoot } from './runtime/mcp/features/roots.js';
export type {
  SamplingApprovalRequest,
  SamplingDecision,
  SamplingLimits,
  SamplingOptions,
} from './runtime/mcp/features/sampling.js';
export { SAMPLING_ERROR_CODES, serveSampling } from './runtime/mcp/features/sampling.js';
export type { ListToolsOptions } from './runtime/mcp/list-tools.js';
export { listAllTools } from './runtime/mcp/list-tools.js';
export { DEFAULT_TOOLS_REFRESH_TIMEOUT_MS } from './runtime/mcp/live-toolset.js';
export type { TransportOptions } from './runtime/mcp/transports/index.js';
export { gatherTurn } from './runtime/model/gather.js';
export type {
  ContentOf,
  GenAiClient,
  GenAiGenerateOptions,
  GenAiParameters,
  Generate,
  GenerateRequest,
  ReadOptions,
} from './runtime/model/generate.js';
export {
  genaiGenerate,
  genaiGenerateStream,
  readGenerateContentResponse,
} from './runtime/model/generate.js';
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
} from './runtime/turn/conversation.js';
export { runConversation } from './runtime/turn/conversation.js';
export type { RefusalOptions } from './runtime/turn/declare.js';
export type { ClientMap, ExecutedCall, ExecuteOptions, Outcome } from './runtime/turn/execute.js';
export {
  DEFAULT_CONCURRENCY,
  DEFAULT_TIMEOUT_MS,
  executeToolCalls,
} from './runtime/turn/execute.js';
export type {
  GeminiParametersResult,
  GeminiSchemaResult,
  SchemaWarning,
  SchemaWarningCode,
  ToGeminiSchemaOptions,
} from './schema/to-gemini-schema.js';
export { toGeminiParameters, toGeminiSchema } from './schema/to-gemini-schema.js';
