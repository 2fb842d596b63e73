/** Gemini's reply to a sampling request as the MCP CreateMessageResult the server gets. */
import { GeminiMcpError } from '../../errors.js';
import { checkMcpCreateMessageResult } from '../../generated/guards-mcp.js';
import type {
  GenerateContentResponse,
  McpAudioContent,
  McpCreateMessageResult,
  McpImageContent,
  McpTextContent,
  McpToolUseContent,
  Part,
} from '../../generated/types.js';
import { proveContract } from '../../json/contract.js';
import { isPlainObject } from '../../json/object.js';
import { appendPointer } from '../../json/pointer.js';
import { generatedCallId, THOUGHT_SIGNATURE_META } from './ids.js';
import type { SamplingResultOptions, SamplingWarning } from './types.js';

type ResultBlock = McpTextContent | McpImageContent | McpAudioContent | McpToolUseContent;

/** A CreateMessageResult and what was lost on the way. */
export interface SamplingResult {
  result: McpCreateMessageResult;
  warnings: SamplingWarning[];
}

/** Finish reasons with an MCP stop reason of their own. */
const STOP_REASONS: Readonly<Record<string, string>> = {
  STOP: 'endTurn',
  MAX_TOKENS: 'maxTokens',
};

function toolUse(
  part: Part,
  options: SamplingResultOptions,
  path: string,
  warnings: SamplingWarning[],
): McpToolUseContent {
  const call = part.functionCall!;
  const entry = options.toolset.resolve(call.name);
  if (entry === undefined) {
    warnings.push({
      code: 'UNKNOWN_TOOL_CALL',
      path: appendPointer(path, 'functionCall'),
      message: `the model called "${call.name}", which the request did not declare: passed on as it is`,
    });
  }
  const input = call.args === undefined || isPlainObject(call.args) ? (call.args ?? {}) : {};
  return {
    type: 'tool_use',
    id: call.id ?? generatedCallId(options.newId),
    name: entry?.tool.name ?? call.name,
    input,
    ...(part.thoughtSignature === undefined
      ? {}
      : { _meta: { [THOUGHT_SIGNATURE_META]: part.thoughtSignature } }),
  };
}

function mediaBlock(part: Part): McpImageContent | McpAudioContent | undefined {
  const { mimeType = '', data = '' } = part.inlineData ?? {};
  if (mimeType.startsWith('image/')) return { type: 'image', mimeType, data };
  if (mimeType.startsWith('audio/')) return { type: 'audio', mimeType, data };
  return undefined;
}

/** The reply's parts as blocks: consecutive texts joined, thoughts and what MCP cannot hold left out. */
function blocksOf(
  parts: readonly Part[],
  options: SamplingResultOptions,
  warnings: SamplingWarning[],
): ResultBlock[] {
  const blocks: ResultBlock[] = [];
  let thoughts = 0;
  for (const [index, part] of parts.entries()) {
    const path = appendPointer('/candidates/0/content/parts', index);
    if (part.thought === true) thoughts++;
    else if (typeof part.text === 'string') {
      const last = blocks.at(-1);
      if (last?.type === 'text') last.text += part.text;
      else blocks.push({ type: 'text', text: part.text });
    } else if (part.functionCall !== undefined) blocks.push(toolUse(part, options, path, warnings));
    else {
      const media = part.inlineData === undefined ? undefined : mediaBlock(part);
      if (media !== undefined) blocks.push(media);
      else {
        const kind = Object.keys(part).filter((key) => key !== 'thoughtSignature');
        warnings.push({
          code: 'PART_DROPPED',
          path,
          message: `a part MCP sampling cannot hold (${kind.join(', ') || 'empty'}${part.inlineData ? ` ${part.inlineData.mimeType}` : ''}) was left out`,
          data: { fields: kind },
        });
      }
    }
  }
  if (thoughts > 0) {
    warnings.push({
      code: 'THOUGHTS_OMITTED',
      path: '/candidates/0/content/parts',
      message: `${thoughts} thought part(s) of the model are not part of the result`,
    });
  }
  return blocks;
}

/** One block for a request without tools: the texts joined, else the first medium. */
function singleBlock(blocks: readonly ResultBlock[], warnings: SamplingWarning[]): ResultBlock {
  const texts = blocks.filter((block): block is McpTextContent => block.type === 'text');
  const chosen: ResultBlock =
    texts.length > 0
      ? { type: 'text', text: texts.map((block) => block.text).join('\n') }
      : (blocks[0] ?? { type: 'text', text: '' });
  const left = blocks.length - (texts.length > 0 ? texts.length : Math.min(1, blocks.length));
  if (left > 0 || texts.length > 1) {
    warnings.push({
      code: 'SINGLE_BLOCK',
      path: '/candidates/0/content/parts',
      message: `a request without tools gets one block: ${texts.length > 1 ? `${texts.length} texts joined` : ''}${texts.length > 1 && left > 0 ? ', ' : ''}${left > 0 ? `${left} other block(s) left out` : ''}`,
    });
  }
  return chosen;
}

function stopReason(
  finishReason: string | undefined,
  toolUse: boolean,
  options: SamplingResultOptions,
  warnings: SamplingWarning[],
): string | undefined {
  if (finishReason === undefined) return toolUse ? 'toolUse' : undefined;
  if (toolUse && finishReason === 'STOP') return 'toolUse';
  const mapped = Object.hasOwn(STOP_REASONS, finishReason) ? STOP_REASONS[finishReason] : undefined;
  if (mapped === undefined) {
    warnings.push({
      code: 'STOP_REASON',
      path: '/candidates/0/finishReason',
      message: `finish reason ${finishReason} has no MCP stop reason: sent as it is`,
    });
    return finishReason;
  }
  if (mapped === 'endTurn' && options.stopSequences === true) {
    warnings.push({
      code: 'STOP_REASON',
      path: '/candidates/0/finishReason',
      message: 'Gemini reports a stop sequence and a natural end alike (STOP): sent as endTurn',
    });
  }
  return mapped;
}

/**
 * Converts Gemini's reply to a sampling request into the MCP CreateMessageResult:
 *
 * - the first candidate's parts become content blocks: text (consecutive parts joined), image
 *   and audio `inlineData` as image and audio blocks, each `functionCall` as a `tool_use`
 *   block (its id, or a made-up `gemini-mcp-...` id when Gemini sent none; the tool's own
 *   name, mapped back through the request's tool set; its thought signature kept in
 *   `_meta["gemini-mcp/thoughtSignature"]` so that it goes back with the call); thoughts and
 *   parts MCP cannot hold are left out, each reported;
 * - with tools (`withTools`) the content is the list of blocks; without, one block (texts
 *   joined; other blocks reported as left out), as servers of older protocol versions expect;
 * - `finishReason` -> `stopReason`: `STOP` -> `endTurn` (`toolUse` when the reply calls a
 *   tool), `MAX_TOKENS` -> `maxTokens`, any other reason as it is (reported); `model` is the
 *   reply's `modelVersion`, else `options.model`; the role is `assistant`.
 *
 * A reply with no candidate content (a blocked prompt, a safety stop without text) throws
 * GeminiMcpError `INVALID_INPUT` naming the finish or block reason. The result is proven
 * against the MCP CreateMessageResult schema.
 *
 * @example
 * ```ts
 * const request = samplingRequest(params, { serverId: 'weather' });
 * const response = await ai.models.generateContent({ model, contents: request.contents });
 * const { result, warnings } = samplingResult(response, {
 *   toolset: request.toolset,
 *   withTools: request.withTools,
 *   model,
 * });
 * ```
 */
export function samplingResult(
  response: GenerateContentResponse,
  options: SamplingResultOptions,
): SamplingResult {
  const warnings: SamplingWarning[] = [];
  const candidate = response.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  if (candidate === undefined || parts.length === 0) {
    const why =
      response.promptFeedback?.blockReason !== undefined
        ? `the prompt was blocked (${response.promptFeedback.blockReason})`
        : `no content (finish reason ${candidate?.finishReason ?? 'none'})`;
    throw new GeminiMcpError('INVALID_INPUT', `the model gave no answer: ${why}`, {
      path: '/candidates/0/content',
      data: {
        ...(candidate?.finishReason === undefined ? {} : { finishReason: candidate.finishReason }),
        ...(response.promptFeedback?.blockReason === undefined
          ? {}
          : { blockReason: response.promptFeedback.blockReason }),
      },
    });
  }
  const blocks = blocksOf(parts, options, warnings);
  const toolUse = options.withTools && blocks.some((block) => block.type === 'tool_use');
  if (!options.withTools && blocks.some((block) => block.type === 'tool_use')) {
    warnings.push({
      code: 'PART_DROPPED',
      path: '/candidates/0/content/parts',
      message: 'the model called a function though the request had no tools: left out',
    });
  }
  const kept = options.withTools ? blocks : blocks.filter((block) => block.type !== 'tool_use');
  const content = options.withTools
    ? kept.length > 0
      ? kept
      : [{ type: 'text' as const, text: '' }]
    : singleBlock(kept, warnings);
  const stop = stopReason(candidate.finishReason, toolUse, options, warnings);
  const result: McpCreateMessageResult = {
    role: 'assistant',
    content,
    model: response.modelVersion ?? options.model,
    ...(stop === undefined ? {} : { stopReason: stop }),
  };
  return {
    result: proveContract(result, checkMcpCreateMessageResult, {
      schema: 'McpCreateMessageResult',
    }),
    warnings,
  };
}
