/**
 * MCP prompts as Gemini sees them: a `prompts/get` result as Contents (roles mapped, media and
 * embedded resources as Parts under a size cap), and the arguments a caller gives checked
 * against those the prompt declares.
 */
import type { Warning } from '../../errors.js';
import { GeminiMcpError } from '../../errors.js';
import { readMcpGetPromptResult } from '../../generated/guards-mcp.js';
import type { McpContentBlock, McpGetPromptResult, McpPrompt } from '../../generated/types.js';
import { proveContract } from '../../json/contract.js';
import { isJsonObject } from '../../json/object.js';
import { appendPointer } from '../../json/pointer.js';
import type { Dialect } from '../dialect.js';
import { dialectShapes } from '../dialect-shapes.js';
import { decodedSize, inlineBase64, renderContent } from '../turn/render.js';

/** The default of `maxInlineBytes`: 4 MiB of decoded data per Part. */
const DEFAULT_MAX_INLINE_BYTES = 4 * 1024 * 1024;

/** The codes of a {@link PromptWarning}. */
export type PromptWarningCode =
  /** A prompt left out of the list: not a Prompt, or a second one of the same name on its server. */
  | 'PROMPT_DROPPED'
  /** A prompt's name, title or description had invisible characters removed, or was cut. */
  | 'PROMPT_SANITIZED'
  /** Media over `maxInlineBytes`, or not base64, sent as a placeholder text instead. */
  | 'MEDIA_DROPPED'
  /** The result used a tolerance of the read contract (a field or kind newer than the schemas). */
  | 'PROMPT_NOVELTY'
  /** Listing a server's prompts failed; its previous list stays. */
  | 'PROMPTS_UNLISTED';

/** Something changed, left out or tolerated in a server's prompts, reported instead of thrown. */
export interface PromptWarning extends Warning<PromptWarningCode> {
  readonly serverId: string;
  /** The prompt concerned, as its server names it, where one is. */
  readonly promptName?: string;
}

/**
 * One Part of a prompt's Content: text, or media inline. Typed so that it is also a
 * @google/genai `Part` (and fits `runConversation`'s history of genai Contents).
 */
export type PromptPart =
  | { text: string; inlineData?: never }
  | { inlineData: { mimeType: string; data: string }; text?: never };

/** One Content of a prompt: what a genai `Content` takes, proven against the Content schema. */
export interface PromptContent {
  role: 'user' | 'model';
  parts: PromptPart[];
}

/** Media MIME types Gemini takes inline from an embedded blob resource. */
const INLINE_TYPES = /^(image|audio|video)\/|^application\/pdf$/;

/** MIME types of an embedded blob that is text: decoded and sent as text. */
const TEXT_TYPES = /^text\/|^application\/(json|xml|yaml)$|\+(json|xml)$/;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A text blob (under the cap) decoded as UTF-8, or `undefined` when it is not. */
function blobText(blob: string, cap: number): string | undefined {
  const base64 = inlineBase64(blob);
  if (base64 === undefined || decodedSize(base64) > cap) return undefined;
  try {
    return UTF8.decode(Buffer.from(base64, 'base64'));
  } catch {
    return undefined;
  }
}

/** Options of {@link promptContents}. */
export interface PromptContentsOptions {
  /** The server the result came from (for warnings). */
  serverId: string;
  /** The prompt's name (for warnings and errors). */
  promptName: string;
  /**
   * Images, audio and embedded blobs larger than this (decoded bytes) are sent as a placeholder
   * text with a `MEDIA_DROPPED` warning.
   *
   * @defaultValue 4194304
   */
  maxInlineBytes?: number;
  /** The API (and version) the Contents are for; default `'gemini'`. */
  dialect?: Dialect;
}

/** The result of {@link promptContents}. */
export interface PromptContents {
  /** The prompt's messages as Contents, consecutive messages of one role in one Content. */
  contents: PromptContent[];
  /** The description the result carries, when it has one. */
  description?: string;
  /** Media sent as placeholders, and the tolerances the read contract used. */
  warnings: PromptWarning[];
}

/** Media as an inlineData Part, or `undefined` when too large or not base64 (warned). */
function inlinePart(
  mimeType: string,
  data: string,
  path: string,
  options: PromptContentsOptions,
  warnings: PromptWarning[],
): PromptPart | undefined {
  const cap = options.maxInlineBytes ?? DEFAULT_MAX_INLINE_BYTES;
  const base64 = inlineBase64(data);
  const size = decodedSize(data);
  if (base64 !== undefined && size <= cap) return { inlineData: { mimeType, data: base64 } };
  warnings.push({
    code: 'MEDIA_DROPPED',
    serverId: options.serverId,
    promptName: options.promptName,
    path,
    message:
      base64 === undefined
        ? `${mimeType} data is not base64: sent as a placeholder`
        : `${mimeType}, ${size} bytes, over maxInlineBytes ${cap}: sent as a placeholder`,
    data: { mimeType, size },
  });
  return undefined;
}

/** One content block as a Part: text as text, media inline (under the cap), the rest described. */
function blockPart(
  block: McpContentBlock,
  path: string,
  options: PromptContentsOptions,
  warnings: PromptWarning[],
): PromptPart {
  if (block.type === 'image' || block.type === 'audio') {
    const part = inlinePart(
      block.mimeType,
      block.data,
      appendPointer(path, 'data'),
      options,
      warnings,
    );
    if (part !== undefined) return part;
  }
  if (block.type === 'resource') {
    const { resource } = block;
    const { mimeType } = resource;
    if ('blob' in resource && typeof resource.blob === 'string' && mimeType !== undefined) {
      const cap = options.maxInlineBytes ?? DEFAULT_MAX_INLINE_BYTES;
      const text = TEXT_TYPES.test(mimeType) ? blobText(resource.blob, cap) : undefined;
      if (text !== undefined) return { text: `[resource: ${resource.uri}, ${mimeType}]\n${text}` };
      const part = INLINE_TYPES.test(mimeType)
        ? inlinePart(mimeType, resource.blob, appendPointer(path, 'resource'), options, warnings)
        : undefined;
      if (part !== undefined) return part;
    }
  }
  // Text as it is; links, text resources, other blobs and unknown kinds as the model reads them
  // in tool results.
  return { text: renderContent([block], 'placeholder').text };
}

/**
 * A `prompts/get` result as Gemini Contents. Read with the MCP read contract (a malformed result
 * is INVALID_PAYLOAD with its pointer; a tolerance used is a `PROMPT_NOVELTY` warning); `user`
 * messages become `user` Contents and `assistant` ones `model` Contents (a role newer than the
 * schemas is sent as the user's), consecutive messages of one role joined in one Content. Text
 * blocks go as text; images and audio, and embedded blob resources of an image, audio, video or
 * PDF type, as `inlineData` when they decode to at most `maxInlineBytes` (else a placeholder
 * such as `[image: image/png, 1024 bytes]` and a `MEDIA_DROPPED` warning); embedded text
 * resources, and blobs of a text type that decode as UTF-8 (under the cap), as their text
 * under a `[resource: uri, type]` line; resource links and other blobs as a placeholder naming
 * them. Each Content is proven against the dialect's Content schema.
 *
 * @example
 * ```ts
 * const { contents } = promptContents(
 *   { messages: [{ role: 'user', content: { type: 'text', text: "What's the weather in Paris?" } }] },
 *   { serverId: 'everything', promptName: 'args-prompt' },
 * );
 * // [{ role: 'user', parts: [{ text: "What's the weather in Paris?" }] }]
 * ```
 */
export function promptContents(result: unknown, options: PromptContentsOptions): PromptContents {
  const { violations, notices } = readMcpGetPromptResult(result);
  const first = violations[0];
  if (first !== undefined) {
    throw new GeminiMcpError(
      'INVALID_PAYLOAD',
      `prompts/get of "${options.promptName}" on server "${options.serverId}" returned no prompt at "${first.path}": ${first.message}`,
      { path: first.path, details: violations, data: { serverId: options.serverId } },
    );
  }
  const warnings: PromptWarning[] = notices.map((notice) => ({
    code: 'PROMPT_NOVELTY',
    serverId: options.serverId,
    promptName: options.promptName,
    path: notice.path,
    message: notice.message,
  }));
  const read = result as McpGetPromptResult;
  const contents: PromptContent[] = [];
  for (const [index, message] of read.messages.entries()) {
    const path = appendPointer(appendPointer('/messages', index), 'content');
    const role = message.role === 'assistant' ? 'model' : 'user';
    const part = blockPart(message.content, path, options, warnings);
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(part);
    else contents.push({ role, parts: [part] });
  }
  const shape = dialectShapes(options.dialect).content;
  for (const content of contents) proveContract(content, shape.check, { schema: shape.schema });
  return {
    contents,
    ...(typeof read.description === 'string' ? { description: read.description } : {}),
    warnings,
  };
}

/**
 * The arguments of a `prompts/get` request, checked against those `prompt` declares: a plain
 * object of strings, every required argument given, none it does not declare. Anything else is
 * INVALID_INPUT, its `path` the argument's pointer (`/arguments/city`), its message naming the
 * arguments the prompt takes.
 *
 * @example
 * ```ts
 * const prompt = { name: 'args-prompt', arguments: [{ name: 'city', required: true }] };
 * promptArguments(prompt, { city: 'Paris' }); // { city: 'Paris' }
 * promptArguments(prompt, {}); // throws INVALID_INPUT at /arguments/city
 * ```
 */
export function promptArguments(prompt: McpPrompt, args: unknown): Record<string, string> {
  const declared = prompt.arguments ?? [];
  const takes =
    declared.length === 0
      ? 'it takes no arguments'
      : `it takes ${declared.map((a) => `${a.name}${a.required === true ? ' (required)' : ''}`).join(', ')}`;
  const refuse = (message: string, name?: string): GeminiMcpError =>
    new GeminiMcpError('INVALID_INPUT', `prompt "${prompt.name}": ${message}; ${takes}`, {
      path: name === undefined ? '/arguments' : appendPointer('/arguments', name),
      data: { prompt: prompt.name, arguments: declared.map((a) => a.name) },
    });
  const given = args ?? {};
  if (!isJsonObject(given)) throw refuse('arguments must be an object of strings');
  const names = new Set(declared.map((a) => a.name));
  for (const [name, value] of Object.entries(given)) {
    if (!names.has(name)) throw refuse(`unknown argument "${name}"`, name);
    if (typeof value !== 'string') throw refuse(`argument "${name}" must be a string`, name);
  }
  for (const argument of declared) {
    if (argument.required === true && !Object.hasOwn(given, argument.name)) {
      throw refuse(`missing required argument "${argument.name}"`, argument.name);
    }
  }
  return { ...(given as Record<string, string>) };
}
