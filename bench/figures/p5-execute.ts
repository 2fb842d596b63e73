/** P5: executeToolCalls' own cost per call, and what its concurrency buys. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedCall } from '../../src/adapter/types.js';
import type { McpTool } from '../../src/generated/types.js';
import { compare, measured, ratioOf } from '../lib/compare.js';
import type { BenchContext } from '../lib/context.js';
import { everythingOverStdio, linkedServer } from '../lib/mcp-servers.js';
import { type Check, type Figure, ratioCheck, rowOf } from '../lib/report.js';
import { formatRatio } from '../lib/stats.js';

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
    const overhead = await compare(
      [
        { name: names.one, fn: () => executeToolCalls([echo], clients), async: true },
        { name: names.bareOne, fn: bare, async: true },
        {
          name: names.callTool,
          fn: () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }),
          async: true,
        },
        {
          name: names.many,
          fn: () => executeToolCalls(echoes, clients, { concurrency: batch }),
          async: true,
        },
        {
          name: names.bareMany,
          fn: () =>
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
      ctx.inProcess,
    );

    const sleepMs = ctx.quick ? 20 : 100;
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
    let overStdio: Awaited<ReturnType<typeof compare>>;
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
      overStdio = await compare(
        [
          {
            name: stdioNames.one,
            fn: () => executeToolCalls([stdioCall], stdioClients),
            async: true,
          },
          {
            name: stdioNames.bare,
            fn: () =>
              stdio.client.request(
                { method: 'tools/call', params: { name: 'echo', arguments: { message: 'hello' } } },
                ResultSchema,
              ),
            async: true,
          },
        ],
        // A server process on a busy 2-core machine: many short rounds, so scheduling noise
        // falls on both sides alike.
        ctx.quick
          ? { rounds: 6, time: 30, iterations: 3 }
          : { rounds: 40, time: 60, iterations: 3 },
      );
    } finally {
      await stdio.close();
    }

    const perCall = ratioOf(overhead, names.one, names.bareOne);
    const perStdioCall = ratioOf(overStdio, stdioNames.one, stdioNames.bare);
    const perBatch = ratioOf(overhead, names.many, names.bareMany);
    const pct = (ratio: number): string => `${((ratio - 1) * 100).toFixed(1)}%`;
    const overheadCheck = (label: string, ratio: typeof perCall): Check => ({
      label,
      value: pct(ratio.value),
      spread: `per-round ${pct(ratio.min)} to ${pct(ratio.max)}, ${ratio.rounds} rounds (ratio ${formatRatio(ratio.value)}x)`,
      target: '< 5%',
      met: ratio.value < 1.05,
    });
    return {
      id: 'P5',
      title: 'executeToolCalls: adapter overhead per call, and concurrency',
      rows: [
        ...Object.values(names).map((name) => rowOf(measured(overhead, name))),
        ...Object.values(stdioNames).map((name) => rowOf(measured(overStdio, name))),
        rowOf(measured(pool, parallel)),
        rowOf(measured(pool, serial)),
      ],
      checks: [
        overheadCheck('executeToolCalls overhead over the bare round trip, 1 call', perCall),
        overheadCheck(`the same, ${batch} calls at once`, perBatch),
        overheadCheck('the same over stdio (server-everything echo), 1 call', perStdioCall),
        ratioCheck(
          `speed-up, ${calls} calls of a ${sleepMs} ms tool, concurrency ${calls} vs 1`,
          ratioOf(pool, serial, parallel),
          { min: 45 },
          '~50x (>= 45x)',
        ),
      ],
      method: [
        'One SDK `Client` linked by `InMemoryTransport` to an SDK `Server` whose `echo` tool answers at once: the round trip is all JSON-RPC plumbing, no I/O, so the adapter\'s share is as large as it can be. The anchor is the request executeToolCalls itself makes, `client.request({method: "tools/call", ...}, ResultSchema)`, awaited alone; executeToolCalls adds the pool (not for a single call), a per-call AbortController when the caller passes a signal, the CallToolResult validator and the outcome record. Overhead is the per-round ratio minus one. The stdio rows repeat the single call against server-everything spawned over stdio (a real server process, its `echo` tool), the round trip a deployment pays; the server is a separate process competing for this machine\'s two cores, so its rows carry the most noise (many short rounds, see the spread).',
        `Concurrency: a \`sleep\` tool that answers after ${sleepMs} ms (a timer in the server), ${calls} calls, \`concurrency: ${calls}\` vs \`concurrency: 1\`, interleaved; the ideal speed-up is ${calls}x.${ctx.quick ? ' (--quick sleeps 20 ms instead of 100 ms.)' : ''}`,
      ],
    };
  } finally {
    await linked.close();
  }
}
