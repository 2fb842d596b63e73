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
  const tools: unknown[] = [];
  const seen = new Set<string>();
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
    const { tools: pageTools, nextCursor } = isJsonObject(result) ? result : {};
    if (!Array.isArray(pageTools) || (nextCursor !== undefined && typeof nextCursor !== 'string')) {
      throw new GeminiMcpError('INVALID_PAYLOAD', 'tools/list returned no tool list', {
        path: Array.isArray(pageTools) ? '/nextCursor' : '/tools',
      });
    }
    for (const tool of pageTools) tools.push(tool);
    if (nextCursor === undefined) return tools;
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
