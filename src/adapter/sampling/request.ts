/**
 * An MCP sampling request (`sampling/createMessage` params) as a Gemini GenerateContentRequest:
 * messages to contents, the system prompt, generation settings, tools and tool choice.
 */
import { GeminiMcpError } from '../../errors.js';
import { readMcpCreateMessageRequestParams } from '../../generated/guards-mcp.js';
import type {
  Content,
  FunctionCallingConfig,
  McpCreateMessageRequestParams,
  McpSamplingMessage,
  McpToolResultContent,
  McpToolUseContent,
  Part,
} from '../../generated/types.js';
import { proveContract } from '../../json/contract.js';
import { isJsonObject } from '../../json/object.js';
import { appendPointer } from '../../json/pointer.js';
import { dialectShapes } from '../dialect-shapes.js';
import type { FunctionTool, SchemaMode } from '../shapes.js';
import { type DeclarationWarning, geminiTools } from '../tools/declarations.js';
import { buildToolSet } from '../tools/toolset.js';
import type { ToolSet, ToolSetWarning } from '../tools/toolset-types.js';
import { inlineBase64 } from '../turn/render.js';
import { unprovenResponsePart } from '../turn/responses.js';
import { isGeneratedCallId, THOUGHT_SIGNATURE_META } from './ids.js';
import type { SamplingRequestOptions, SamplingWarning } from './types.js';

/** The generation settings a sampling request sets. */
export interface SamplingGenerationConfig {
  maxOutputTokens: number;
  temperature?: number;
  stopSequences?: string[];
}

/** A sampling request as Gemini takes it, and what the way back needs. */
export interface SamplingRequest<M extends SchemaMode = 'json'> {
  /** The messages as Gemini Contents (`user` and `model`). */
  contents: Content[];
  /** The system prompt, when there is one. */
  systemInstruction?: Content;
  generationConfig: SamplingGenerationConfig;
  /** The tool choice, when the request has tools and one. */
  toolConfig?: { functionCallingConfig: FunctionCallingConfig };
  /** The request's tools as Gemini tools (`[]` when it has none). */
  tools: FunctionTool<M>[];
  /** The tool set over the request's tools: maps the model's calls back to tool names. */
  toolset: ToolSet;
  /** Whether the request had tools or a tool choice (its result is then a list of blocks). */
  withTools: boolean;
  /** The params, as read (model preferences, stop sequences, ...). */
  params: McpCreateMessageRequestParams;
  /** Every loss and change, in request order. */
  warnings: SamplingWarning[];
}

/** Gemini takes at most this many stop sequences. */
const MAX_STOP_SEQUENCES = 5;
/** Gemini's temperature range. */
const TEMPERATURE_RANGE = [0, 2] as const;

const TOOL_CHOICE: Readonly<Record<string, FunctionCallingConfig['mode']>> = {
  auto: 'AUTO',
  required: 'ANY',
  none: 'NONE',
};

function invalid(message: string, path: string): GeminiMcpError {
  return new GeminiMcpError('INVALID_INPUT', `sampling request: ${message}`, { path });
}

/** The params read with the read contract: violations throw, novelties become warnings. */
function readParams(value: unknown, warnings: SamplingWarning[]): McpCreateMessageRequestParams {
  const { violations, notices } = readMcpCreateMessageRequestParams(value);
  const first = violations[0];
  if (first !== undefined) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `sampling request: not CreateMessageRequestParams at "${first.path}": ${first.message}`,
      { path: first.path, details: violations },
    );
  }
  for (const notice of notices) {
    warnings.push({
      code: 'REQUEST_NOVELTY',
      path: notice.path,
      message: notice.message,
      data: { notice },
    });
  }
  return value as McpCreateMessageRequestParams;
}

function toolWarning(warning: ToolSetWarning | DeclarationWarning): SamplingWarning {
  return {
    code: 'TOOL_CHANGED',
    path: '/tools',
    message: warning.message,
    data: { warning },
  };
}

/** The blocks of a message, whatever its form (one block or a list). */
function blocksOf(message: McpSamplingMessage): readonly unknown[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

/** What converting the messages needs to carry along. */
interface MessageContext {
  serverId: string;
  toolset: ToolSet;
  options: SamplingRequestOptions<SchemaMode>;
  warnings: SamplingWarning[];
  /** The exposed name of each tool_use id seen so far (a tool_result answers one of them). */
  callNames: Map<string, string>;
}

/** The name a `tool_use` of `toolName` is called by: its exposed name, or its own when valid. */
function calledName(toolName: string, context: MessageContext, path: string): string {
  const exposed = context.toolset.exposedName(context.serverId, toolName);
  if (exposed !== undefined) return exposed;
  if (/^[A-Za-z0-9_-]{1,128}$/.test(toolName)) return toolName;
  throw invalid(
    `tool_use names "${toolName}", which is not among the request's tools and cannot name a Gemini function call`,
    appendPointer(path, 'name'),
  );
}

function toolUsePart(block: McpToolUseContent, context: MessageContext, path: string): Part {
  const name = calledName(block.name, context, path);
  context.callNames.set(block.id, name);
  const sendId = dialectShapes(context.options.dialect).callIds && !isGeneratedCallId(block.id);
  const meta = isJsonObject(block._meta) ? block._meta[THOUGHT_SIGNATURE_META] : undefined;
  const signature = typeof meta === 'string' ? inlineBase64(meta) : undefined;
  return {
    functionCall: { ...(sendId ? { id: block.id } : {}), name, args: block.input },
    ...(signature === undefined ? {} : { thoughtSignature: signature }),
  };
}

function toolResultPart(block: McpToolResultContent, context: MessageContext, path: string): Part {
  const name = context.callNames.get(block.toolUseId);
  if (name === undefined) {
    throw invalid(
      `tool_result answers "${block.toolUseId}", which no earlier tool_use has as its id`,
      appendPointer(path, 'toolUseId'),
    );
  }
  return unprovenResponsePart(
    name,
    {
      content: block.content,
      ...(block.structuredContent === undefined
        ? {}
        : { structuredContent: block.structuredContent }),
      ...(block.isError === undefined ? {} : { isError: block.isError }),
    },
    isGeneratedCallId(block.toolUseId) ? null : block.toolUseId,
    context.options,
  );
}

/** One block as a Part, or `undefined` (with a warning) when Gemini cannot take it. */
function blockPart(block: unknown, context: MessageContext, path: string): Part | undefined {
  const typed = block as { type?: unknown };
  switch (typed.type) {
    case 'text':
      return { text: (block as { text: string }).text };
    case 'image':
    case 'audio': {
      const { mimeType, data } = block as { mimeType: string; data: string };
      const base64 = inlineBase64(data);
      if (base64 !== undefined) return { inlineData: { mimeType, data: base64 } };
      context.warnings.push({
        code: 'CONTENT_DROPPED',
        path,
        message: `${typed.type} block left out: its data is not base64`,
        data: { type: typed.type },
      });
      return undefined;
    }
    case 'tool_use':
      return toolUsePart(block as McpToolUseContent, context, path);
    case 'tool_result':
      return toolResultPart(block as McpToolResultContent, context, path);
  }
  context.warnings.push({
    code: 'CONTENT_DROPPED',
    path,
    message: `a block of type ${JSON.stringify(typed.type)} has no Gemini part: left out`,
    data: { type: typed.type },
  });
  return undefined;
}

function messageContents(
  messages: readonly McpSamplingMessage[],
  context: MessageContext,
): Content[] {
  const contents: Content[] = [];
  for (const [index, message] of messages.entries()) {
    const path = appendPointer('/messages', index);
    const blocks = blocksOf(message);
    const parts: Part[] = [];
    for (const [blockIndex, block] of blocks.entries()) {
      const blockPath = Array.isArray(message.content)
        ? appendPointer(appendPointer(path, 'content'), blockIndex)
        : appendPointer(path, 'content');
      const part = blockPart(block, context, blockPath);
      if (part !== undefined) parts.push(part);
    }
    if (parts.length === 0) {
      context.warnings.push({
        code: 'MESSAGE_DROPPED',
        path,
        message: 'message left out: none of its blocks can be sent to Gemini',
      });
      continue;
    }
    // Role is `user` or `assistant`; a newer role (a notice already) is sent as the user's.
    contents.push({ role: message.role === 'assistant' ? 'model' : 'user', parts });
  }
  return contents;
}

function generationConfig(
  params: McpCreateMessageRequestParams,
  cap: number | undefined,
  warnings: SamplingWarning[],
): SamplingGenerationConfig {
  if (!(params.maxTokens >= 1)) throw invalid('maxTokens must be at least 1', '/maxTokens');
  let maxOutputTokens = params.maxTokens;
  if (cap !== undefined && maxOutputTokens > cap) {
    warnings.push({
      code: 'MAX_TOKENS_CAPPED',
      path: '/maxTokens',
      message: `maxTokens ${maxOutputTokens} lowered to the cap ${cap}`,
      data: { asked: maxOutputTokens, cap },
    });
    maxOutputTokens = cap;
  }
  const config: SamplingGenerationConfig = { maxOutputTokens };
  if (params.temperature !== undefined) {
    const [low, high] = TEMPERATURE_RANGE;
    const temperature = Math.min(high, Math.max(low, params.temperature));
    if (temperature !== params.temperature) {
      warnings.push({
        code: 'TEMPERATURE_CLAMPED',
        path: '/temperature',
        message: `temperature ${params.temperature} clamped to ${temperature} (Gemini takes ${low} to ${high})`,
      });
    }
    config.temperature = temperature;
  }
  const stops = params.stopSequences ?? [];
  if (stops.length > MAX_STOP_SEQUENCES) {
    warnings.push({
      code: 'STOP_SEQUENCES_CUT',
      path: '/stopSequences',
      message: `${stops.length} stop sequences: the first ${MAX_STOP_SEQUENCES} are sent (Gemini's limit)`,
    });
  }
  if (stops.length > 0) config.stopSequences = stops.slice(0, MAX_STOP_SEQUENCES);
  return config;
}

function toolConfig(
  params: McpCreateMessageRequestParams,
  hasTools: boolean,
  warnings: SamplingWarning[],
): SamplingRequest['toolConfig'] {
  const choice = params.toolChoice?.mode;
  if (choice === undefined) return undefined;
  const mode = Object.hasOwn(TOOL_CHOICE, choice) ? TOOL_CHOICE[choice] : undefined;
  if (mode === undefined || !hasTools) {
    warnings.push({
      code: 'TOOL_CHOICE_IGNORED',
      path: '/toolChoice/mode',
      message:
        mode === undefined
          ? `toolChoice mode ${JSON.stringify(choice)} is unknown: the model chooses (AUTO)`
          : `toolChoice "${choice}" without tools: not sent`,
    });
    return undefined;
  }
  return { functionCallingConfig: { mode } };
}

function contextWarnings(params: McpCreateMessageRequestParams, warnings: SamplingWarning[]): void {
  if (params.includeContext !== undefined && params.includeContext !== 'none') {
    warnings.push({
      code: 'INCLUDE_CONTEXT',
      path: '/includeContext',
      message: `includeContext "${params.includeContext}" answered as "none": this client does not declare sampling.context and adds no context`,
    });
  }
  if (params.metadata !== undefined) {
    warnings.push({
      code: 'METADATA_IGNORED',
      path: '/metadata',
      message: 'metadata (provider-specific) is not sent to Gemini',
    });
  }
}

/**
 * Converts the params of an MCP `sampling/createMessage` request into a Gemini request:
 *
 * - `messages` -> `contents`: `user` stays `user`, `assistant` becomes `model`; text as text,
 *   image and audio as `inlineData`; `tool_use` as a `functionCall` (its id, unless the id is
 *   one gemini-mcp-kit made up; its thought signature from `_meta`, see `samplingResult`);
 *   `tool_result` as a `functionResponse` built by the rules of `functionResponse`
 *   (structured content, media, size cap), named after the `tool_use` it answers;
 * - `systemPrompt` -> `systemInstruction`; `maxTokens` -> `generationConfig.maxOutputTokens`
 *   (lowered to `maxTokensCap`); `temperature` (clamped to [0, 2]) and `stopSequences` (the
 *   first 5) to `generationConfig`;
 * - `tools` -> a tool set of the server's tools (`buildToolSet`: naming, sanitizing, schema
 *   modes) declared as Gemini tools within the budget of `dialect` (what does not fit is left out
 *   and reported, `TOOL_CHANGED`); `toolChoice` `auto` / `required` / `none` ->
 *   `toolConfig.functionCallingConfig.mode` `AUTO` / `ANY` / `NONE`.
 *
 * `includeContext` other than `none` and `metadata` are reported and not sent; model
 * preferences are the caller's (see `chooseSamplingModel`). Every loss is a warning with its
 * pointer into the params. Params that fail their read contract, a `tool_result` that answers
 * no earlier `tool_use`, or `maxTokens` < 1 throw INVALID_INPUT; the request is proven against
 * the GenerateContentRequest schema (the dialect's own GenerateContentRequest for Vertex AI).
 *
 * @example
 * ```ts
 * const request = samplingRequest(params, { serverId: 'weather', maxTokensCap: 4096 });
 * const response = await ai.models.generateContent({
 *   model: 'gemini-2.5-flash',
 *   contents: request.contents,
 *   config: { tools: request.tools, maxOutputTokens: request.generationConfig.maxOutputTokens },
 * });
 * ```
 */
export function samplingRequest<M extends SchemaMode = 'json'>(
  params: unknown,
  options: SamplingRequestOptions<M>,
): SamplingRequest<M> {
  const warnings: SamplingWarning[] = [];
  const read = readParams(params, warnings);
  contextWarnings(read, warnings);
  const built = buildToolSet([{ serverId: options.serverId, tools: read.tools ?? [] }]);
  for (const warning of built.warnings) warnings.push(toolWarning(warning));
  const budget = options.declarations?.budget;
  const tools = geminiTools(built.toolset, {
    ...options.declarations,
    // The request's own dialect sets its budget, unless the declarations name another.
    budget:
      budget === false
        ? false
        : { ...(options.dialect === undefined ? {} : { dialect: options.dialect }), ...budget },
    onWarning: (warning) => warnings.push(toolWarning(warning)),
  });
  const context: MessageContext = {
    serverId: options.serverId,
    toolset: built.toolset,
    options,
    warnings,
    callNames: new Map(),
  };
  const contents = messageContents(read.messages, context);
  if (contents.length === 0) throw invalid('no message can be sent to Gemini', '/messages');
  const config = generationConfig(read, options.maxTokensCap, warnings);
  const choice = toolConfig(read, tools.length > 0, warnings);
  const system =
    read.systemPrompt === undefined || read.systemPrompt === ''
      ? undefined
      : { parts: [{ text: read.systemPrompt }] };
  const request = {
    contents,
    ...(system === undefined ? {} : { systemInstruction: system }),
    generationConfig: config,
    ...(choice === undefined ? {} : { toolConfig: choice }),
    tools,
  };
  const shape = dialectShapes(options.dialect).request;
  proveContract(request, shape.check, { schema: shape.schema });
  return {
    ...request,
    toolset: built.toolset,
    withTools: read.tools !== undefined || read.toolChoice !== undefined,
    params: read,
    warnings,
  };
}
