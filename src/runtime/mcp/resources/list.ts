/**
 * A server's resources and resource templates, every page (`resources/list`,
 * `resources/templates/list`), bounded: pages, items and URI lengths are capped, and each item is
 * read with the generated MCP read contract; a malformed one is left out with a warning (so one
 * bad entry does not cost the whole server), every tolerance used is reported.
 */

import { GeminiMcpError } from '../../../errors.js';
import type { ReadNotice } from '../../../generated/guards-common.js';
import { readMcpResource, readMcpResourceTemplate } from '../../../generated/guards-mcp.js';
import type { McpResource, McpResourceTemplate } from '../../../generated/types.js';
import { isJsonObject } from '../../../json/object.js';
import { AS_RECEIVED, type ResourceClient } from './resource-client.js';

/** Something listing a server's resources left out or could not do. */
export interface ResourceListWarning {
  readonly code:
    | 'RESOURCE_INVALID'
    | 'RESOURCES_CAPPED'
    | 'RESOURCES_UNAVAILABLE'
    | 'SKILL_INVALID'
    | 'SKILLS_CAPPED'
    | 'SKILLS_UNAVAILABLE';
  readonly serverId: string;
  readonly message: string;
  /** The JSON pointer of the item in its page (`/resources/3`), when the warning is about one. */
  readonly path?: string;
}

/** One server's lists. */
export interface ServerResourceLists {
  readonly resources: readonly McpResource[];
  readonly templates: readonly McpResourceTemplate[];
  readonly warnings: readonly ResourceListWarning[];
}

/** Options of {@link listServerResources}. */
export interface ListResourcesOptions {
  /** Per-page request timeout, in ms. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Hears each tolerance the read contract used (a field or value newer than the schemas). */
  readonly onNotice?: (notice: ReadNotice) => void;
}

/** Pages read per list at most, against a server that hands out cursors forever. */
const MAX_PAGES = 100;
/** Items kept per list and server at most. */
const MAX_ITEMS = 10_000;
/** The longest URI or URI template kept, in characters. */
const MAX_URI_LENGTH = 8192;
/** Warnings kept per list and server at most (the rest are counted in one more). */
const MAX_WARNINGS = 50;
/** JSON-RPC "method not found": the server has no such list. */
const METHOD_NOT_FOUND = -32601;

/**
 * What one list reads: its method, the key of its items, the item's read contract, and the
 * codes of the warnings about its items.
 */
export interface ListKind<T> {
  readonly method: string;
  readonly key: string;
  readonly read: (value: unknown) => {
    violations: { path: string; message: string }[];
    notices: ReadNotice[];
  };
  readonly uriOf: (item: T) => string;
  readonly codes: {
    readonly invalid: ResourceListWarning['code'];
    readonly capped: ResourceListWarning['code'];
  };
}

const RESOURCE_CODES = { invalid: 'RESOURCE_INVALID', capped: 'RESOURCES_CAPPED' } as const;

const RESOURCES: ListKind<McpResource> = {
  method: 'resources/list',
  key: 'resources',
  read: readMcpResource,
  uriOf: (item) => item.uri,
  codes: RESOURCE_CODES,
};

const TEMPLATES: ListKind<McpResourceTemplate> = {
  method: 'resources/templates/list',
  key: 'resourceTemplates',
  read: readMcpResourceTemplate,
  uriOf: (item) => item.uriTemplate,
  codes: RESOURCE_CODES,
};

/** Whether an error is the server's "method not found". */
export function isMethodNotFound(error: unknown): boolean {
  return isJsonObject(error) || error instanceof Error
    ? (error as { code?: unknown }).code === METHOD_NOT_FOUND
    : false;
}

/**
 * Every page of one list, its items read one by one: at most 100 pages and 10 000 items, a
 * repeated cursor refused, an item that fails its read contract (or has a URI longer than 8192
 * characters) left out with a warning.
 */
export async function listAll<T>(
  client: ResourceClient,
  serverId: string,
  kind: ListKind<T>,
  options: ListResourcesOptions,
  warnings: ResourceListWarning[],
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  const warn = (warning: ResourceListWarning): void => {
    if (warnings.length < MAX_WARNINGS) warnings.push(warning);
    else dropped++;
  };
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await client.request(
        { method: kind.method, params: cursor === undefined ? {} : { cursor } },
        AS_RECEIVED,
        {
          ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        },
      );
      const list = isJsonObject(result) ? result[kind.key] : undefined;
      const next = isJsonObject(result) ? result.nextCursor : undefined;
      if (!Array.isArray(list) || (next !== undefined && typeof next !== 'string')) {
        throw new GeminiMcpError('INVALID_PAYLOAD', `${kind.method} returned no ${kind.key} list`, {
          path: Array.isArray(list) ? '/nextCursor' : `/${kind.key}`,
        });
      }
      for (const [index, item] of list.entries()) {
        const path = `/${kind.key}/${index}`;
        const { violations, notices } = kind.read(item);
        for (const notice of notices) {
          options.onNotice?.({
            ...notice,
            message: `server "${serverId}" ${kind.method}${path}: ${notice.message}`,
          });
        }
        const first = violations[0];
        if (first !== undefined) {
          warn({
            code: kind.codes.invalid,
            serverId,
            path: `${path}${first.path}`,
            message: `left out: ${first.message}`,
          });
          continue;
        }
        if (kind.uriOf(item as T).length > MAX_URI_LENGTH) {
          warn({
            code: kind.codes.invalid,
            serverId,
            path,
            message: `left out: its URI is longer than ${MAX_URI_LENGTH} characters`,
          });
          continue;
        }
        if (items.length >= MAX_ITEMS) {
          warn({
            code: kind.codes.capped,
            serverId,
            message: `${kind.method}: only the first ${MAX_ITEMS} are kept`,
          });
          return items;
        }
        items.push(item as T);
      }
      if (next === undefined) return items;
      if (seen.has(next)) {
        throw new GeminiMcpError(
          'INVALID_PAYLOAD',
          `${kind.method} repeated cursor ${JSON.stringify(next.slice(0, 100))}`,
          {
            path: '/nextCursor',
          },
        );
      }
      seen.add(next);
      cursor = next;
    }
    warn({
      code: kind.codes.capped,
      serverId,
      message: `${kind.method}: only the first ${MAX_PAGES} pages are read`,
    });
    return items;
  } finally {
    if (dropped > 0) {
      warnings.push({
        code: kind.codes.invalid,
        serverId,
        message: `${dropped} more warning(s) of ${kind.method} not shown`,
      });
    }
  }
}

/**
 * A server's resources and templates, every page of each. A list the server does not have
 * (`-32601`) is empty; any other failure of one list leaves it empty with a
 * `RESOURCES_UNAVAILABLE` warning naming why, so a server's resources never cost its tools.
 */
export async function listServerResources(
  client: ResourceClient,
  serverId: string,
  options: ListResourcesOptions = {},
): Promise<ServerResourceLists> {
  const warnings: ResourceListWarning[] = [];
  const settle = async <T>(kind: ListKind<T>): Promise<T[]> => {
    try {
      return await listAll(client, serverId, kind, options, warnings);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (!isMethodNotFound(error)) {
        const why = error instanceof Error ? error.message : String(error);
        warnings.push({
          code: 'RESOURCES_UNAVAILABLE',
          serverId,
          message: `${kind.method} failed: ${why.slice(0, 500)}`,
        });
      }
      return [];
    }
  };
  const resources = await settle(RESOURCES);
  const templates = await settle(TEMPLATES);
  return { resources, templates, warnings };
}
