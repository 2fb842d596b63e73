/**
 * gemini-mcp-kit/features: what servers may ask of the client, what they publish, and the
 * approval of what the model asks of servers. The servers' options go to `connectServers`
 * (`sampling`, `capabilities.elicitation`, `capabilities.roots`); this entry holds their types and
 * the pieces for a client of your own: `serveSampling` serves one MCP SDK `Client`'s (v1 or v2)
 * sampling requests with Gemini, `samplingRequest` and `samplingResult` are its conversions alone,
 * `modelByHints` and `chooseSamplingModel` pick the model, `fieldProblem` checks one answer of an
 * elicitation form. A server's resources as Gemini Parts: `resourceParts` reads one,
 * `expandUriTemplate` fills in a resource template, `completeResourceArgument` asks the server for
 * a template argument's values. The approval hook (`onToolCall` of `executeToolCalls`,
 * `answerCalls`, `runConversation`, `mcpCallableTool`, `liveTools`) has its types here and ready
 * policies: `allowReadOnly`, `confirmDestructive`, `confirmOpenWorld`, composed with
 * `composePolicies`. Prompts: `getPrompt` fetches one of `connections.prompts` as Gemini
 * Contents, `completePromptArgument` completes an argument, `listAllPrompts` lists one client's,
 * `promptContents` is the conversion alone.
 * Skills (MCP skills extension): `loadSkill` reads and verifies one, `readSkillFile` one of its
 * files.
 *
 * @example
 * ```ts
 * import { GoogleGenAI } from '@google/genai';
 * import { connectServers, genaiGenerate } from 'gemini-mcp-kit';
 * import { modelByHints } from 'gemini-mcp-kit/features';
 *
 * const ai = new GoogleGenAI({});
 * const servers = await connectServers('mcp.json', {
 *   sampling: {
 *     generate: genaiGenerate(ai, { model: 'gemini-2.5-flash' }),
 *     model: modelByHints(['gemini-2.5-pro', 'gemini-2.5-flash'], 'gemini-2.5-flash'),
 *   },
 * });
 * ```
 *
 * @packageDocumentation
 * @module gemini-mcp-kit/features
 */

export type {
  PromptContent,
  PromptContents,
  PromptContentsOptions,
  PromptPart,
} from './adapter/prompts/contents.js';
export { promptContents } from './adapter/prompts/contents.js';
export type {
  ResourceContentsOptions,
  ResourceContentWarning,
  ResourcePart,
} from './adapter/resources/contents.js';
export type { UriTemplateValue } from './adapter/resources/uri-template.js';
export { expandUriTemplate } from './adapter/resources/uri-template.js';
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
export type { ServerRequestContext } from './runtime/mcp/features/capabilities.js';
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
export { fieldProblem } from './runtime/mcp/features/elicitation.js';
export type { ClientRoot } from './runtime/mcp/features/roots.js';
export type {
  SamplingApprovalRequest,
  SamplingDecision,
  SamplingLimits,
  SamplingOptions,
} from './runtime/mcp/features/sampling.js';
export { serveSampling } from './runtime/mcp/features/sampling.js';
export type { McpClientWithHandlers } from './runtime/mcp/mcp-client.js';
export type {
  CompletePromptOptions,
  FetchedPrompt,
  GetPromptOptions,
  PromptCompletion,
  PromptRequestOptions,
  PromptServers,
  ServerPromptList,
} from './runtime/mcp/prompts.js';
export { completePromptArgument, getPrompt, listAllPrompts } from './runtime/mcp/prompts.js';
export type {
  ResourceCompletion,
  ResourceCompletionRequest,
  ResourceParts,
  ResourcePartsOptions,
  ResourceServers,
} from './runtime/mcp/resources/read.js';
export { completeResourceArgument, resourceParts } from './runtime/mcp/resources/read.js';
export type {
  LoadedSkill,
  SkillCheck,
  SkillFileContents,
  SkillReadOptions,
  SkillServers,
} from './runtime/mcp/skills/load.js';
export { loadSkill, readSkillFile } from './runtime/mcp/skills/load.js';
export type {
  ApprovalOptions,
  ToolAnnotationHints,
  ToolCallCheck,
  ToolCallDecision,
  ToolCallHook,
} from './runtime/turn/approval.js';
export type { ConfirmCall } from './runtime/turn/approval-policies.js';
export {
  allowReadOnly,
  composePolicies,
  confirmDestructive,
  confirmOpenWorld,
} from './runtime/turn/approval-policies.js';
