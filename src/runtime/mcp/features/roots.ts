/**
 * The roots capability: the `file://` directories and files a client tells a server it may work
 * on, answered to `roots/list`, and `notifications/roots/list_changed` when they change.
 */
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { GeminiMcpError } from '../../../errors.js';
import { isJsonObject } from '../../../json/object.js';
import type { ClientFeature } from './capabilities.js';

/** A directory or file a server may work on (MCP's `Root`): a `file://` URI and a display name. */
export interface ClientRoot {
  /** A `file://` URI. */
  uri: string;
  /** A name to show for it. */
  name?: string;
}

function refuse(option: string, path: string, expected: string): never {
  const at = path === '' ? '' : ` at ${path}`;
  throw new GeminiMcpError('INVALID_INPUT', `option ${option}${at}: expected ${expected}`, {
    path,
    data: { option },
  });
}

/**
 * A checked copy of a roots list (only `uri` and `name` kept): each root an object whose `uri`
 * is a `file://` URL and whose `name`, if any, is a string. Otherwise INVALID_INPUT with the
 * JSON pointer of the first bad value and `option`, the name the caller knows the list by.
 *
 * @example
 * ```ts
 * checkRoots([{ uri: 'file:///home/me/project', name: 'project' }]); // a copy
 * checkRoots([{ uri: '/home/me' }], 'capabilities.roots'); // throws INVALID_INPUT at /0/uri
 * ```
 */
export function checkRoots(roots: unknown, option = 'roots'): ClientRoot[] {
  if (!Array.isArray(roots)) refuse(option, '', 'an array of {uri, name?}');
  return roots.map((root: unknown, i): ClientRoot => {
    if (!isJsonObject(root)) refuse(option, `/${i}`, 'an object {uri, name?}');
    const { uri, name } = root;
    if (typeof uri !== 'string' || !uri.startsWith('file://') || !URL.canParse(uri)) {
      refuse(option, `/${i}/uri`, 'a file:// URI');
    }
    if (name !== undefined && typeof name !== 'string') refuse(option, `/${i}/name`, 'a string');
    return name === undefined ? { uri } : { uri, name };
  });
}

/** What a client needs to tell its server that the roots changed (either SDK's `Client`). */
interface RootsClient {
  sendRootsListChanged(): Promise<void>;
  /** v2's: `'modern'` on 2026-07-28. */
  getProtocolEra?(): string | undefined;
}

/** One server's roots: the feature that declares and lists them, and their replacement. */
export class ServerRoots {
  private roots: readonly ClientRoot[];

  /** Starts with a list checked by {@link checkRoots}. */
  constructor(roots: readonly ClientRoot[]) {
    this.roots = roots;
  }

  /** Declares `roots: {listChanged: true}` and answers `roots/list` with the current list. */
  readonly feature: ClientFeature = {
    capabilities: { roots: { listChanged: true } },
    install: (registry) =>
      registry.handle(ListRootsRequestSchema, () => ({
        roots: this.roots.map((root) => ({ ...root })),
      })),
  };

  /**
   * Replaces the list (checked by {@link checkRoots}) and tells the server it changed: on the
   * 2025 revision with `notifications/roots/list_changed`; 2026-07-28 has no such notification
   * (a server reads the roots it asks for in its next round trip).
   */
  async replace(roots: readonly ClientRoot[], client: RootsClient): Promise<void> {
    this.roots = roots;
    if (client.getProtocolEra?.() === 'modern') return;
    await client.sendRootsListChanged();
  }
}
