/**
 * The contents of an MCP resource (a resources/read result, already past its read contract) as
 * Gemini Parts and as a tool result: text as text; images, audio and PDF as inline data under a
 * size cap (else left out, with a warning); a textual blob (text/*, JSON, XML, ...) decoded as
 * text; any other binary described, never sent as base64 text. Every item is tagged with its URI
 * and server, in a text the model reads.
 */
import type { McpReadResourceResult } from '../../generated/types.js';
import { truncateUtf8, utf8ByteLength } from '../../json/utf8.js';
import { decodedSize, inlineBase64 } from '../turn/render.js';
import type { ToolResult } from '../types.js';

/** How resource contents become Parts. */
export interface ResourceContentsOptions {
  /**
   * The largest image, audio or PDF sent as inline data, in decoded bytes; a larger one is left
   * out with a `RESOURCE_TOO_LARGE` warning (its tag says so).
   *
   * @defaultValue 4194304
   */
  readonly maxInlineBytes?: number;
  /**
   * The longest text of one content item, in UTF-8 bytes; a longer one is cut, ending in a
   * visible marker, with a `RESOURCE_TRUNCATED` warning.
   *
   * @defaultValue 262144
   */
  readonly maxTextBytes?: number;
  /**
   * Content items of one read at most; the rest are left out with a `RESOURCE_TRUNCATED` warning.
   *
   * @defaultValue 64
   */
  readonly maxContents?: number;
}

/** Something left out of, or cut from, a resource's contents. */
export interface ResourceContentWarning {
  readonly code: 'RESOURCE_TOO_LARGE' | 'RESOURCE_TRUNCATED' | 'RESOURCE_UNREADABLE';
  readonly serverId: string;
  /** The URI of the content item (or of the resource read, for the items past `maxContents`). */
  readonly uri: string;
  readonly message: string;
}

/** One content item, ready to become a Part or a content block. */
export type ResourceItem =
  | { readonly kind: 'text'; readonly tag: string; readonly text: string }
  | {
      readonly kind: 'inline';
      readonly tag: string;
      readonly mimeType: string;
      readonly data: string;
      readonly bytes: number;
    }
  | { readonly kind: 'described'; readonly tag: string };

/** The items of a read and what was left out. */
export interface ResourceItems {
  readonly items: readonly ResourceItem[];
  readonly warnings: readonly ResourceContentWarning[];
}

/**
 * A Part of a resource, as gemini-mcp-kit emits it: text, or inline data (an @google/genai
 * `Part` takes either as it is).
 */
export type ResourcePart =
  | { text: string; inlineData?: never }
  | { inlineData: { mimeType: string; data: string }; text?: never };

/** Defaults of {@link ResourceContentsOptions}. */
const DEFAULT_MAX_INLINE_BYTES = 4_194_304;
const DEFAULT_MAX_TEXT_BYTES = 262_144;
const DEFAULT_MAX_CONTENTS = 64;

/** The longest URI shown in a tag, in characters. */
const MAX_SHOWN_URI = 2048;

/** A media type as `type/subtype` (parameters dropped), or undefined for anything else. */
const MEDIA_TYPE = /^([a-z0-9][a-z0-9!#$&^_.+-]{0,126})\/([a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/;

/** The media type of an item, lower case and without parameters, when it is one. */
function mediaTypeOf(mimeType: unknown): string | undefined {
  if (typeof mimeType !== 'string') return undefined;
  const bare = (mimeType.split(';')[0] ?? '').trim().toLowerCase();
  return MEDIA_TYPE.test(bare) ? bare : undefined;
}

/** Whether a media type goes to Gemini as inline data: images, audio, PDF. */
function isInlineMedia(type: string): boolean {
  return type.startsWith('image/') || type.startsWith('audio/') || type === 'application/pdf';
}

/** Subtypes of `application/` that are text. */
const TEXT_APPLICATIONS = new Set([
  'json',
  'xml',
  'javascript',
  'ecmascript',
  'yaml',
  'x-yaml',
  'toml',
  'x-sh',
  'sql',
  'graphql',
]);

/** Whether a blob of this media type is text (decoded as UTF-8 when it is valid). */
function isTextual(type: string): boolean {
  const [major = '', minor = ''] = type.split('/');
  if (major === 'text' || minor.endsWith('+json') || minor.endsWith('+xml')) return true;
  return major === 'application' && TEXT_APPLICATIONS.has(minor);
}

/** The tag of one item: its URI and server, and what it is; one line, quoted. */
function tagOf(serverId: string, uri: string, facts: readonly string[]): string {
  const shown = uri.length > MAX_SHOWN_URI ? `${uri.slice(0, MAX_SHOWN_URI)}...` : uri;
  return `[resource ${JSON.stringify(shown)} from server ${JSON.stringify(serverId)}${facts.map((fact) => `, ${fact}`).join('')}]`;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function decodeText(base64: string): string | undefined {
  try {
    return UTF8.decode(Buffer.from(base64, 'base64'));
  } catch {
    return undefined;
  }
}

/** Limits, with their defaults. */
function limitsOf(options: ResourceContentsOptions): Required<ResourceContentsOptions> {
  return {
    maxInlineBytes: options.maxInlineBytes ?? DEFAULT_MAX_INLINE_BYTES,
    maxTextBytes: options.maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES,
    maxContents: options.maxContents ?? DEFAULT_MAX_CONTENTS,
  };
}

/**
 * The items of a resources/read result: each tagged with its URI and `serverId`, text cut to
 * `maxTextBytes`, media over `maxInlineBytes` and other binaries described. `requested` is the
 * URI read (named in the warning for items past `maxContents`).
 */
export function resourceItems(
  serverId: string,
  requested: string,
  result: McpReadResourceResult,
  options: ResourceContentsOptions = {},
): ResourceItems {
  const limits = limitsOf(options);
  const warnings: ResourceContentWarning[] = [];
  const items: ResourceItem[] = [];
  const warn = (code: ResourceContentWarning['code'], uri: string, message: string): void => {
    warnings.push({ code, serverId, uri, message });
  };
  const text = (uri: string, facts: string[], body: string): ResourceItem => {
    if (utf8ByteLength(body) <= limits.maxTextBytes) {
      return { kind: 'text', tag: tagOf(serverId, uri, facts), text: body };
    }
    warn('RESOURCE_TRUNCATED', uri, `text cut to ${limits.maxTextBytes} bytes (maxTextBytes)`);
    const cut = `${truncateUtf8(body, limits.maxTextBytes)}\n[... cut: the text is longer than ${limits.maxTextBytes} bytes]`;
    return { kind: 'text', tag: tagOf(serverId, uri, facts), text: cut };
  };
  for (const content of result.contents.slice(0, limits.maxContents)) {
    const { uri } = content;
    const type = mediaTypeOf(content.mimeType);
    const facts = [type ?? 'unknown type'];
    if ('text' in content && typeof content.text === 'string') {
      items.push(text(uri, facts, content.text));
      continue;
    }
    const blob = 'blob' in content && typeof content.blob === 'string' ? content.blob : '';
    const data = inlineBase64(blob);
    if (data === undefined) {
      warn('RESOURCE_UNREADABLE', uri, 'its blob is not base64: left out');
      items.push({
        kind: 'described',
        tag: tagOf(serverId, uri, [...facts, 'not base64: left out']),
      });
      continue;
    }
    const bytes = decodedSize(data);
    const sized = [...facts, `${bytes} bytes`];
    if (type !== undefined && isInlineMedia(type)) {
      if (bytes <= limits.maxInlineBytes) {
        items.push({
          kind: 'inline',
          tag: tagOf(serverId, uri, sized),
          mimeType: type,
          data,
          bytes,
        });
      } else {
        warn(
          'RESOURCE_TOO_LARGE',
          uri,
          `${bytes} bytes of ${type}, over maxInlineBytes ${limits.maxInlineBytes}: left out`,
        );
        items.push({
          kind: 'described',
          tag: tagOf(serverId, uri, [
            ...sized,
            `over the ${limits.maxInlineBytes}-byte cap: left out`,
          ]),
        });
      }
      continue;
    }
    const decoded = type !== undefined && isTextual(type) ? decodeText(data) : undefined;
    if (decoded !== undefined) items.push(text(uri, facts, decoded));
    else
      items.push({ kind: 'described', tag: tagOf(serverId, uri, [...sized, 'binary: not shown']) });
  }
  const past = result.contents.length - limits.maxContents;
  if (past > 0) {
    warn(
      'RESOURCE_TRUNCATED',
      requested,
      `${past} content item(s) past maxContents ${limits.maxContents} left out`,
    );
  }
  return { items, warnings };
}

/**
 * The items as Gemini Parts: a text item as one text part (its tag, a newline, its text); an
 * inline item as its tag, then an `inlineData` part; a described item as its tag.
 */
export function itemParts(items: readonly ResourceItem[]): ResourcePart[] {
  return items.flatMap((item): ResourcePart[] => {
    if (item.kind === 'text') return [{ text: `${item.tag}\n${item.text}` }];
    if (item.kind === 'described') return [{ text: item.tag }];
    return [{ text: item.tag }, { inlineData: { mimeType: item.mimeType, data: item.data } }];
  });
}

/**
 * The items as an MCP tool result (for gemini-mcp-kit's own `gmk__read_resource`), so it is
 * rendered like any tool's: text and tags as text blocks, images and audio as their blocks
 * (placeholders, or function response parts with `media: 'parts'`), a PDF as an embedded
 * only by its tag (URI, type and size: a function response carries no PDF).
 */
export function itemsToolResult(items: readonly ResourceItem[]): ToolResult {
  const content = items.flatMap((item): ToolResult['content'] => {
    if (item.kind === 'text') return [{ type: 'text', text: `${item.tag}\n${item.text}` }];
    if (item.kind === 'described') return [{ type: 'text', text: item.tag }];
    const tag = { type: 'text' as const, text: item.tag };
    if (item.mimeType.startsWith('image/')) {
      return [tag, { type: 'image', mimeType: item.mimeType, data: item.data }];
    }
    if (item.mimeType.startsWith('audio/')) {
      return [tag, { type: 'audio', mimeType: item.mimeType, data: item.data }];
    }
    return [tag];
  });
  return {
    content: content.length === 0 ? [{ type: 'text', text: '(the resource is empty)' }] : content,
  };
}
