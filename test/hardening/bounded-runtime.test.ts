/**
 * Issue 13 (runtime half): work a server can make the runtime do is bounded. Storms of
 * `list_changed` are coalesced, Streamable HTTP responses are capped and cut off at a call's
 * end, stdio servers end with their whole process group, and options out of range are refused
 * with a typed error. Every call is answered exactly once.
 */
import { describe, expect, it } from 'vitest';
import { connectReapedAfterEach, FAULT_SERVER } from '../support/runtime-servers.js';

const connectServers = connectReapedAfterEach();

describe('issue 13: list_changed storms are coalesced', () => {
  it('200 list_changed notifications over 10,000 tools cost at most 3 re-lists, not 200', async () => {
    const c = await connectServers(
      {
        mcpServers: {
          fault: { ...FAULT_SERVER, env: { FAULT_TOOL_COUNT: '10000', FAULT_PAGE_SIZE: '1000' } },
        },
      },
      { timeoutMs: 60_000 },
    );
    const client = c.clients.get('fault')!;
    const count = async (): Promise<number> => {
      const result = await client.callTool({ name: 'cancellations', arguments: {} });
      return (result.structuredContent as { lists: number }).lists;
    };
    const pages = await count(); // one full listing: 10,015 tools in pages of 1,000
    expect(pages).toBe(11);
    const changes: unknown[] = [];
    c.onToolsChanged((change) => changes.push(change));
    await client.callTool({ name: 'storm', arguments: { count: 200 } });
    // Queued behind every refresh the storm started: when it is done, so are they.
    await c.refreshTools('fault');
    const relists = Math.ceil((await count()) / pages) - 2; // less the first listing and refreshTools'
    // Bound: one re-list running plus one pending (3 allows a notification split across reads).
    expect(relists).toBeLessThanOrEqual(3);
    expect(changes.length).toBeLessThanOrEqual(3);
    expect(c.toolset.entries.length).toBe(10_015);
  }, 120_000);
});
