/** P5: executeToolCalls' own cost per call, and what its concurrency buys. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedCall } from '../../src/adapter/types.js';
import type { McpTool } from '../../src/generated/types.js';
import { compare, measured, ratioOf } from '../lib/compare.js';
import type { BenchContext } from '../lib/context.js';
import {
  type CpuComparison,
  compareCpu,
  cpuRatio,
  cpuTask,
  loadNow,
  type RatioSpread,
} from '../lib/cpu.js';
import { everythingOverStdio, linkedServer } from '../lib/mcp-servers.js';
import {
  type Check,
  cpuRowOf,
  type Figure,
  NOISE_SPREAD,
  ratioCheck,
  rowOf,
} from '../lib/report.js';
import { formatMs, formatRatio, summarize } from '../lib/stats.js';

const TOOLS: McpTool[] = [
  {
    name: 'echo',
    description: 'Echoes its text.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'sleep',
    description: 'Answers after a delay.',
    inputSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
  },
];

function call(name: string, args: Record<string, unknown>): ResolvedCall {
  const tool = TOOLS.find((candidate) => candidate.name === name) ?? TOOLS[0]!;
  return { serverId: 'bench', name, exposedName: name, callId: null, arguments: args, tool };
}

export async function p5(ctx: BenchContext): Promise<Figure> {
  const loadStart = loadNow();
  // Calls of tens of µs: longer batches, so a GC cycle of the helper threads (counted in the
  // process's CPU time) is spread over many calls rather than doubling one round.
  const p5Cpu = { ...ctx.cpu, minBatchMs: ctx.cpu.minBatchMs * 4 };
  const { executeToolCalls } = ctx.lib;
  const linked = await linkedServer(TOOLS, async (name, args): Promise<CallToolResult> => {
    if (name === 'sleep') {
      await new Promise((resolve) => setTimeout(resolve, Number(args.ms)));
      return { content: [{ type: 'text', text: 'slept' }] };
    }
    return { content: [{ type: 'text', text: String(args.text) }] };
  });
  const { client } = linked;
  const clients = new Map([['bench', client]]);
  try {
    const echo = call('echo', { text: 'hello' });
    const batch = 20;
    const echoes = Array.from({ length: batch }, (_, index) =>
      call('echo', { text: `hi ${index}` }),
    );
    const bare = () =>
      client.request(
        { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } },
        ResultSchema,
      );
    const names = {
      one: 'executeToolCalls, 1 call',
      bareOne: 'bare MCP round trip (client.request tools/call), 1 call',
      callTool: 'client.callTool, 1 call (the SDK convenience, for reference)',
      many: `executeToolCalls, ${batch} calls, concurrency ${batch}`,
      bareMany: `bare MCP round trips, ${batch} calls in Promise.all`,
    };
    ctx.log('P5: executeToolCalls vs the bare in-memory round trip');
    const overhead = await compareCpu(
      [
        { name: names.one, run: () => executeToolCalls([echo], clients), async: true },
        { name: names.bareOne, run: bare, async: true },
        {
          name: names.callTool,
          run: () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }),
          async: true,
        },
        {
          name: names.many,
          run: () => executeToolCalls(echoes, clients, { concurrency: batch }),
          async: true,
        },
        {
          name: names.bareMany,
          run: () =>
            Promise.all(
              echoes.map((each) =>
                client.request(
                  { method: 'tools/call', params: { name: 'echo', arguments: each.arguments } },
                  ResultSchema,
                ),
              ),
            ),
          async: true,
        },
      ],
      p5Cpu,
    );

    const sleepMs = 100;
    const calls = 50;
    const sleeps = Array.from({ length: calls }, () => call('sleep', { ms: sleepMs }));
    const parallel = `executeToolCalls, ${calls} x sleep ${sleepMs} ms, concurrency ${calls}`;
    const serial = `executeToolCalls, ${calls} x sleep ${sleepMs} ms, concurrency 1`;
    ctx.log(`P5: ${calls} calls of a ${sleepMs} ms tool at concurrency ${calls} vs 1`);
    // Warm the pool and the sleep path up (JIT) before the timed runs, which are too long to repeat much.
    const warmUp = Array.from({ length: calls }, () => call('sleep', { ms: 1 }));
    for (let i = 0; i < 3; i++) {
      await executeToolCalls(warmUp, clients, { concurrency: calls });
      await executeToolCalls(warmUp.slice(0, 10), clients, { concurrency: 1 });
    }
    const pool = await compare(
      [
        {
          name: parallel,
          fn: () => executeToolCalls(sleeps, clients, { concurrency: calls }),
          async: true,
        },
        {
          name: serial,
          fn: () => executeToolCalls(sleeps, clients, { concurrency: 1 }),
          async: true,
        },
      ],
      { rounds: ctx.quick ? 1 : 3, time: 0, iterations: 1, warmup: false },
    );

    ctx.log('P5: the same over stdio, server-everything echo');
    const stdio = await everythingOverStdio();
    const stdioNames = {
      one: 'executeToolCalls, 1 call, server-everything echo over stdio',
      bare: 'bare MCP round trip, 1 call, server-everything echo over stdio',
    };
    let overStdio: CpuComparison;
    try {
      const stdioClients = new Map([['everything', stdio.client]]);
      const stdioCall: ResolvedCall = {
        serverId: 'everything',
        name: 'echo',
        exposedName: 'echo',
        callId: null,
        arguments: { message: 'hello' },
        tool: { name: 'echo', inputSchema: { type: 'object' } },
      };
      overStdio = await compareCpu(
        [
          {
            name: stdioNames.one,
            run: () => executeToolCalls([stdioCall], stdioClients),
            async: true,
          },
          {
            name: stdioNames.bare,
            run: () =>
              stdio.client.request(
                { method: 'tools/call', params: { name: 'echo', arguments: { message: 'hello' } } },
                ResultSchema,
              ),
            async: true,
          },
        ],
        p5Cpu,
      );
    } finally {
      await stdio.close();
    }

    const perCall = cpuRatio(overhead, names.one, names.bareOne);
    const perStdioCall = cpuRatio(overStdio, stdioNames.one, stdioNames.bare);
    const perBatch = cpuRatio(overhead, names.many, names.bareMany);
    const pct = (ratio: number): string => `${((ratio - 1) * 100).toFixed(1)}%`;
    const overheadCheck = (label: string, ratio: RatioSpread): Check => ({
      label,
      value: pct(ratio.value),
      spread: `IQR ${pct(ratio.p25)} to ${pct(ratio.p75)}, range ${pct(ratio.min)} to ${pct(ratio.max)}, ${ratio.rounds} rounds (ratio ${formatRatio(ratio.value)}x)`,
      target: '<= 5%',
      met: ratio.value <= 1.05,
      ...(ratio.rounds > 1 && ratio.max > NOISE_SPREAD * ratio.min ? { noisy: true } : {}),
    });
    const added = summarize(
      cpuTask(overhead, names.one).perRound.map(
        (value, round) => value - cpuTask(overhead, names.bareOne).perRound[round]!,
      ),
    );
    return {
      id: 'P5',
      title: 'executeToolCalls: adapter overhead per call, and concurrency',
      rows: [
        ...Object.values(names).map((name) => cpuRowOf(cpuTask(overhead, name))),
        ...Object.values(stdioNames).map((name) => cpuRowOf(cpuTask(overStdio, name))),
        rowOf(measured(pool, parallel)),
        rowOf(measured(pool, serial)),
      ],
      checks: [
        overheadCheck('executeToolCalls overhead over the bare round trip, 1 call', perCall),
        {
          label: 'CPU time executeToolCalls adds to the bare round trip, 1 call',
          value: formatMs(added.median),
          spread: `IQR ${formatMs(added.p25)} to ${formatMs(added.p75)}, ${added.count} rounds`,
          target: '<= 1 µs',
          met: added.median <= 0.001,
        },
        overheadCheck(`the same, ${batch} calls at once`, perBatch),
        overheadCheck('the same over stdio (server-everything echo), 1 call', perStdioCall),
        ratioCheck(
          `speed-up, ${calls} calls of a ${sleepMs} ms tool, concurrency ${calls} vs 1`,
          ratioOf(pool, serial, parallel),
          { min: 45 },
          '~50x (>= 45x)',
        ),
      ],
      load: { start: loadStart, end: loadNow() },
      method: [
        "One SDK `Client` linked by `InMemoryTransport` to an SDK `Server` whose `echo` tool answers at once: the round trip is all JSON-RPC plumbing, no I/O, so the adapter's share is as large as it can be. The anchor is the request executeToolCalls itself makes, `client.request({method: \"tools/call\", ...}, ResultSchema)`, awaited alone; executeToolCalls adds the pool (not for a single call), a per-call AbortController when the caller passes a signal, the CallToolResult validator and the outcome record. Both are measured in CPU time of this process (`process.cpuUsage`) in interleaved batches; overhead is the per-round ratio minus one, and the CPU time added is the per-round difference. The stdio rows repeat the single call against server-everything spawned over stdio (a real server process, its `echo` tool), the round trip a deployment pays; only the client process's CPU time is counted (the server's own is not), which makes the adapter's share larger, not smaller.",
        `Concurrency: a \`sleep\` tool that answers after ${sleepMs} ms (a timer in the server), ${calls} calls, \`concurrency: ${calls}\` vs \`concurrency: 1\`, interleaved; the ideal speed-up is ${calls}x.`,
      ],
    };
  } finally {
    await linked.close();
  }
}
