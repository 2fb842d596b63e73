/**
 * L2 (issue 36): a Live tool call's response leaves within 1 ms of CPU after the MCP result
 * arrives. Measured as the CPU time of a whole toolCall through `liveTools` (the message read,
 * the call resolved, the MCP round trip, the result checked, the response rendered, proven and
 * handed to `sendToolResponse`) against the bare in-memory MCP round trip of the same call,
 * side by side in interleaved batches: their difference is all the adapter adds, before the
 * request and after its result, so it bounds the part after the result from above.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { BenchContext } from '../lib/context.js';
import { collectAll, compareCpu, cpuTask, loadNow } from '../lib/cpu.js';
import { linkedServer } from '../lib/mcp-servers.js';
import { cpuRowOf, type Figure, valueCheck } from '../lib/report.js';
import { formatMs, medianInterval } from '../lib/stats.js';

const TOOL = {
  name: 'lookup',
  description: 'Looks a key up.',
  inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
};

/** The target: what the adapter adds per call, in CPU ms. */
const TARGET_MS = 1;

export async function l2Live(ctx: BenchContext): Promise<Figure | undefined> {
  const { liveTools } = ctx.lib;
  if (liveTools === undefined) return undefined; // a build from before gemini-mcp-kit/live
  const loadStart = loadNow();
  const linked = await linkedServer(
    [TOOL],
    async (_name, args): Promise<CallToolResult> => ({
      content: [{ type: 'text', text: `value of ${String(args.key)}` }],
    }),
  );
  const { client } = linked;
  try {
    const toolset = ctx.lib.buildToolSet([{ serverId: 'bench', tools: [TOOL] }]).toolset;
    const clients = new Map([['bench', client]]);
    // A Live session as genai's looks to liveTools: connect hands back the wrapped parameters'
    // onmessage; sendToolResponse settles the call being measured.
    let deliver: ((message: unknown) => void) | undefined;
    let answered: (() => void) | undefined;
    const session = {
      sendToolResponse: () => answered?.(),
      close: () => {},
    };
    const live = {
      connect: async (params: { callbacks: { onmessage: (message: unknown) => void } }) => {
        deliver = params.callbacks.onmessage;
        return session;
      },
    };
    await liveTools({ toolset, clients }).connect(live, { callbacks: { onmessage: () => {} } });
    let id = 0;
    const viaLive = (): Promise<void> =>
      new Promise<void>((resolve) => {
        answered = resolve;
        id += 1;
        deliver!({
          toolCall: { functionCalls: [{ id: `c${id}`, name: 'lookup', args: { key: 'k' } }] },
        });
      });
    const args = { key: 'k' };
    const bare = () =>
      client.request(
        { method: 'tools/call', params: { name: 'lookup', arguments: args } },
        ResultSchema,
      );
    const names = {
      live: 'liveTools: toolCall message to sendToolResponse, 1 call (in-memory MCP server)',
      bare: 'bare MCP round trip (client.request tools/call), 1 call',
    };
    collectAll();
    for (let i = 0; i < ctx.repeat(2000); i++) {
      await viaLive();
      await bare();
    }
    const comparison = await compareCpu(
      [
        { name: names.live, run: viaLive, async: true },
        { name: names.bare, run: bare, async: true },
      ],
      { rounds: ctx.repeat(301), minBatchMs: 2, sameIterations: true },
    );
    const viaLiveMs = cpuTask(comparison, names.live);
    const bareMs = cpuTask(comparison, names.bare);
    const added = viaLiveMs.perRound.map((value, round) => value - bareMs.perRound[round]!);
    const sorted = [...added].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const interval = medianInterval(added);
    return {
      id: 'L2',
      title: 'A Live tool call: CPU from the MCP result to the response sent',
      rows: [cpuRowOf(viaLiveMs), cpuRowOf(bareMs)],
      checks: [
        valueCheck(
          'CPU liveTools adds to a call (its round minus the bare round trip, per round)',
          formatMs(median),
          ctx.quick ? undefined : median < TARGET_MS,
          `< ${TARGET_MS} ms`,
          `95% interval of the median ${formatMs(interval.low)}–${formatMs(interval.high)}, ${added.length} rounds`,
        ),
      ],
      method: [
        "One toolCall of one function call delivered to the session as genai delivers it (the `onmessage` `liveTools` chained), answered by an in-memory MCP server (the SDK's InMemoryTransport), until `sendToolResponse` is called; beside it, the bare `client.request` of the same tools/call. Interleaved batches of CPU time (`process.cpuUsage`), the same iterations in each; the difference per round is everything `liveTools` adds: reading the message, resolving the call, the bounded request, checking the result, rendering and proving the response. What follows the result is a part of it, so the figure bounds it from above.",
      ],
      load: { start: loadStart, end: loadNow() },
    };
  } finally {
    await linked.close();
  }
}
