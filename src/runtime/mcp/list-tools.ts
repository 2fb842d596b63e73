/**
 * Fetches a server's whole tool list, page by page. Tools come back as sent (unchecked):
 * `buildToolSet` checks each one and leaves out the bad ones with a warning, so one malformed
 * tool does not cost the whole server.
 */
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { GeminiMcpError } from '../../errors.js';
import { isJsonObject } from '../../json/object.js';
import type { McpClient } from './mcp-client.js';

/** Upper bound on pages, against a server that hands out cursors forever. */
const MAX_PAGES = 1000;

/** Options of {@link listAllTools}. */
export interface ListToolsOptions {
  /** Per-page request timeout; default the SDK's 60 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The longest a listed set is kept fresh, whatever a server asks: a day (as the SDK caps it). */
const MAX_TTL_MS = 24 * 60 * 60 * 1000;

/** A server's whole tool list, and how long it may be kept (MCP 2026-07-28 `CacheableResult`). */
export interface ListedTools {
  readonly tools: unknown[];
  /**
   * How long the list is fresh, in ms: the smallest `ttlMs` of its pages, capped at a day; 0
   * (re-read whenever asked) when a page gives none, as on the 2025 revision.
   */
  readonly ttlMs: number;
}

/** A page's `ttlMs` as a freshness: a finite number >= 0, capped; anything else 0. */
function pageTtl(result: Record<string, unknown>): number {
  const { ttlMs } = result;
  return typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0
    ? Math.min(ttlMs, MAX_TTL_MS)
    : 0;
}

/**
 * Every tool of a connected server, as {@link listAllTools} reads them, with the time the
 * server says the list stays fresh (`ttlMs`, the smallest of its pages').
 *
 * @example
 * ```ts
 * const { tools, ttlMs } = await listToolsFresh(client); // ttlMs 0: re-read whenever asked
 * ```
 */
export async function listToolsFresh(
  client: McpClient,
  options: ListToolsOptions = {},
): Promise<ListedTools> {
  const tools: unknown[] = [];
  const seen = new Set<string>();
  let ttlMs = MAX_TTL_MS;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      ResultSchema,
      {
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
    );
    const page = isJsonObject(result) ? result : {};
    const { tools: pageTools, nextCursor } = page;
    if (!Array.isArray(pageTools) || (nextCursor !== undefined && typeof nextCursor !== 'string')) {
      throw new GeminiMcpError('INVALID_PAYLOAD', 'tools/list returned no tool list', {
        path: Array.isArray(pageTools) ? '/nextCursor' : '/tools',
      });
    }
    for (const tool of pageTools) tools.push(tool);
    ttlMs = Math.min(ttlMs, pageTtl(page));
    if (nextCursor === undefined) return { tools, ttlMs };
    if (seen.has(nextCursor)) {
      throw new GeminiMcpError('INVALID_PAYLOAD', `tools/list repeated cursor ${nextCursor}`, {
        path: '/nextCursor',
      });
    }
    seen.add(nextCursor);
    cursor = nextCursor;
  }
  throw new GeminiMcpError('INVALID_PAYLOAD', `tools/list gave more than ${MAX_PAGES} pages`);
}

/**
 * Every tool of a connected server (the `Client` of either MCP SDK, see {@link McpClient}),
 * following `nextCursor` until the last page. Throws a
 * `GeminiMcpError` (`INVALID_PAYLOAD`) when a page is not a tool list or a cursor repeats.
 *
 * @example
 * ```ts
 * const tools = await listAllTools(client); // unknown[]: checked later by buildToolSet
 * ```
 */
export async function listAllTools(
  client: McpClient,
  options: ListToolsOptions = {},
): Promise<unknown[]> {
  return (await listToolsFresh(client, options)).tools;
}
