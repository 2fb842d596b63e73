/** MCP result content as text (and, optionally, media parts) for a Gemini function response. */
import type {
  FunctionResponsePart,
  McpContentBlock,
  McpEmbeddedResource,
  McpResourceLink,
} from '../../generated/types.js';

/** How image and audio blocks travel: as text placeholders, or as function response parts. */
export type MediaMode = 'placeholder' | 'parts';

/** The result of {@link renderContent}. */
export interface RenderedContent {
  /** Every block as text, joined by newlines. */
  text: string;
  /** Texts of the `text` blocks alone (for recognising structured content echoed as text). */
  textBlocks: string[];
  /** Images and audio as function response parts (media mode `parts` only). */
  parts: FunctionResponsePart[];
}

/** Base64 as FunctionResponseBlob takes it (standard or URL-safe alphabet, padded at most twice). */
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * `data` without whitespace when it is base64 as a Gemini Blob takes it, else `undefined`.
 *
 * @example
 * ```ts
 * inlineBase64('aGVs\nbG8='); // 'aGVsbG8='
 * inlineBase64('not base64!'); // undefined
 * ```
 */
export function inlineBase64(data: string): string | undefined {
  const compact = data.replace(/\s/g, '');
  return BASE64.test(compact) ? compact : undefined;
}

/**
 * The number of bytes a base64 string decodes to (whitespace ignored).
 *
 * @example
 * ```ts
 * decodedSize('aGVsbG8='); // 5
 * ```
 */
export function decodedSize(base64: string): number {
  const compact = base64.replace(/\s/g, '');
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  return Math.floor(((compact.length - padding) * 3) / 4);
}

function resourceLinkText(block: McpResourceLink): string {
  const facts = [
    block.uri,
    `name ${JSON.stringify(block.name)}`,
    block.mimeType ?? 'unknown type',
    ...(typeof block.size === 'number' ? [`${block.size} bytes`] : []),
  ];
  return `[resource link: ${facts.join(', ')}]`;
}

function embeddedResourceText(block: McpEmbeddedResource): string {
  const { resource } = block;
  const type = resource.mimeType ?? 'unknown type';
  if ('text' in resource && typeof resource.text === 'string') {
    return `[resource: ${resource.uri}, ${type}]\n${resource.text}`;
  }
  const size = 'blob' in resource ? decodedSize(String(resource.blob)) : 0;
  return `[resource: ${resource.uri}, ${type}, ${size} bytes]`;
}

/** The longest value of an unknown block's field shown to the model, in characters. */
const MAX_SHOWN_FIELD = 200;

/** The fields of an unknown block whose string values describe it to the model. */
const DESCRIBING_FIELDS = ['mimeType', 'uri', 'name', 'title'] as const;

/**
 * A block of a type newer than the vendored MCP schemas (the read contract lets it through with
 * a notice): described, never dropped: its type, and the describing fields it has.
 */
function unknownBlockText(block: Readonly<Record<string, unknown>>): string {
  const cut = (text: string): string =>
    text.length > MAX_SHOWN_FIELD ? `${text.slice(0, MAX_SHOWN_FIELD)}...` : text;
  const facts = DESCRIBING_FIELDS.flatMap((field) => {
    const value = block[field];
    return typeof value === 'string' ? [`${field} ${JSON.stringify(cut(value))}`] : [];
  });
  const type = JSON.stringify(cut(String(block.type)));
  return `[content block of type ${type}, unknown to this client${facts.length === 0 ? '' : `: ${facts.join(', ')}`}]`;
}

/** One block as text; text blocks are also collected, media parts appended in `parts` mode. */
function renderBlock(
  block: McpContentBlock,
  media: MediaMode,
  parts: FunctionResponsePart[],
  textBlocks: string[],
): string {
  switch (block.type) {
    case 'text':
      textBlocks.push(block.text);
      return block.text;
    case 'image':
    case 'audio': {
      const placeholder = `${block.type}: ${block.mimeType}, ${decodedSize(block.data)} bytes`;
      const data = inlineBase64(block.data);
      if (media === 'parts' && data !== undefined) {
        parts.push({ inlineData: { mimeType: block.mimeType, data } });
        return `[${placeholder}, sent as function response part ${parts.length}]`;
      }
      return `[${placeholder}]`;
    }
    case 'resource_link':
      return resourceLinkText(block);
    case 'resource':
      return embeddedResourceText(block);
  }
  return unknownBlockText(block as unknown as Readonly<Record<string, unknown>>);
}

/**
 * Renders MCP content blocks: text blocks as they are; images and audio as
 * `[image: image/png, 1024 bytes]` (decoded size) or, in media mode `parts`, as
 * `functionResponse.parts[].inlineData` with a placeholder saying which part holds them;
 * resource links as a placeholder with uri, name, type and size; embedded text resources as a
 * header line and their text, embedded blobs as a placeholder with uri, type and size; a block
 * of a type newer than the vendored MCP schemas (which the read contract lets through with a
 * notice) as `[content block of type "video", unknown to this client: mimeType "video/mp4"]`.
 * Blocks are joined by newlines.
 *
 * @example
 * ```ts
 * renderContent([{ type: 'text', text: 'hi' }, { type: 'image', mimeType: 'image/png', data: 'iVBORw==' }], 'placeholder').text;
 * // 'hi\n[image: image/png, 4 bytes]'
 * ```
 */
export function renderContent(
  blocks: readonly McpContentBlock[],
  media: MediaMode,
): RenderedContent {
  const parts: FunctionResponsePart[] = [];
  const textBlocks: string[] = [];
  const lines = blocks.map((block) => renderBlock(block, media, parts, textBlocks));
  return { text: lines.join('\n'), textBlocks, parts };
}
