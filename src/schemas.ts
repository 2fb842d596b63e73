/**
 * gemini-mcp-kit/schemas: the contract itself. Guards generated from the vendored JSON Schemas
 * (the Gemini API's, the Gemini Live API's messages, Vertex AI's per version and MCP's), the `SCHEMAS` table of every schema by
 * name, the check of a whole request before it is sent, the read contract of a model's reply,
 * and every schema's generated type.
 *
 * Strict when we write, tolerant when we read: `checkX` and `assertX` hold a value to the write
 * contract (no unknown field, known enum values only); `readX` reads a received value with the
 * read contract and reports each tolerance used as a notice.
 *
 * A family's validators (Gemini API, Live API, MCP, each Vertex AI version) load with the first
 * check of one of its schemas, synchronously: importing this entry loads none.
 *
 * @example
 * ```ts
 * import { checkFunctionDeclaration, SCHEMAS } from 'gemini-mcp-kit/schemas';
 *
 * checkFunctionDeclaration({ name: 'get weather' }); // [{ path: '/name', message: 'must match pattern ...' }]
 * SCHEMAS.VertexV1Part.check({ text: 'hi' }); // []
 * ```
 *
 * @packageDocumentation
 * @module gemini-mcp-kit/schemas
 */

export type { BudgetOptions, DeclarationBudget, DeclarationMeasure } from './adapter/limits.js';
export { resolveBudget } from './adapter/limits.js';
export type {
  BudgetWarning,
  BudgetWarningCode,
  DeclarationBudgetOptions,
  DeclarationCandidate,
  DeclarationSelector,
  DiscoverySelector,
  SelectionContext,
} from './adapter/tools/fit.js';
export { isBudgetWarning } from './adapter/tools/fit.js';
export { isReservedName } from './adapter/tools/names.js';
export type {
  Refusal,
  RefusalKind,
  RefusedDeclaration,
  RefusedRequest,
} from './adapter/turn/refusal.js';
export { traceRefusal } from './adapter/turn/refusal.js';
export type { RequestCheckOptions, RequestFinding } from './adapter/turn/request-checks.js';
export { checkRequest } from './adapter/turn/request-checks.js';
export type { ReadCheck, SchemaName } from './generated/guards.js';
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
  checkLiveBidiGenerateContentClientMessage,
  checkMcpCallToolResult,
  checkMcpTool,
  checkPart,
  checkTool,
  readContent,
  readLiveBidiGenerateContentServerMessage,
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
/** Every vendored schema's generated type (Gemini API, Live API, Vertex AI v1 and v1beta1, MCP), by schema name. */
export type * as schemas from './generated/types.js';
export type {
  Candidate,
  Content,
  FunctionCall,
  FunctionDeclaration,
  FunctionResponse,
  GenerateContentRequest,
  GenerateContentResponse,
  LiveBidiGenerateContentClientMessage,
  LiveBidiGenerateContentServerMessage,
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
export type { ReadOptions } from './runtime/model/generate.js';
export { readGenerateContentResponse } from './runtime/model/generate.js';
