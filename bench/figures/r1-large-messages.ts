/**
 * R1 (issue 38 item 6): reading one large message costs CPU time linear in its size. A stdio
 * line of 4 MB and of 32 MB (through the stdio transport `connectServers` uses on POSIX, from a
 * server process that writes it in 64 KB pieces), and a Streamable HTTP event of 1 MB and of
 * 8 MB (through the bounded download of the HTTP transports, from a scripted in-process body in
 * 64 KB pieces): the client's CPU time, the sizes measured in interleaved rounds, and the ratio
 * of the large to the small taken round by round. Linear: about the ratio of the sizes (8x).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchContext } from '../lib/context.js';
import { type CpuOptions, compareCpu, cpuRatio, cpuTask } from '../lib/cpu.js';
import { cpuRowOf, type Figure, ratioCheck } from '../lib/report.js';

type StdioModule = typeof import('../../src/runtime/mcp/transports/stdio.js');
type HttpModule = typeof import('../../src/runtime/mcp/transports/http.js');

const MB = 1024 * 1024;
const PIECE = 64 * 1024;
/** Linear reading: the large message costs at most this many times the small one (sizes 8x apart). */
const MAX_RATIO = 12;

const mb = (bytes: number): string => `${bytes / MB} MB`;

export async function r1LargeMessages(ctx: BenchContext): Promise<Figure> {
  const load = async <T>(path: string): Promise<T> =>
    (await import(pathToFileURL(join(ctx.lib.dist, path)).href)) as T;
  const { ProcessGroupStdioTransport } = await load<StdioModule>('runtime/mcp/transports/stdio.js');
  const { BoundedFetch } = await load<HttpModule>('runtime/mcp/transports/http.js');
  const stdioSizes = ctx.quick ? [MB, 8 * MB] : [4 * MB, 32 * MB];
  const httpSizes = ctx.quick ? [MB / 4, 2 * MB] : [MB, 8 * MB];
  const options: CpuOptions = ctx.smoke
    ? { rounds: 1, minBatchMs: 1, warmup: 1 }
    : { rounds: ctx.quick ? 3 : 7, minBatchMs: 1, warmup: 1 };

  const transport = new ProcessGroupStdioTransport({
    command: process.execPath,
    args: [join(ctx.root, 'bench', 'child', 'large-lines.mjs')],
    stderr: 'inherit',
    maxBufferSize: 64 * MB,
  });
  let answer: ((message: unknown) => void) | undefined;
  transport.onmessage = (message) => answer?.(message);
  transport.onerror = (error) => ctx.log(`R1 stdio: ${error.message}`);
  await transport.start();
  let id = 0;
  const line = (bytes: number) => () =>
    new Promise((resolve) => {
      answer = resolve;
      void transport.send({ jsonrpc: '2.0', id: ++id, method: 'large', params: { bytes } });
    });

  const event = (bytes: number) => {
    const data = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(bytes) } });
    const body = new TextEncoder().encode(`event: message\ndata: ${data}\n\n`);
    const bounded = new BoundedFetch(64 * MB, async () => {
      let at = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= body.length) return controller.close();
          controller.enqueue(body.subarray(at, at + PIECE));
          at += PIECE;
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    });
    return async () => {
      const response = await bounded.fetch('http://127.0.0.1:1/mcp', { method: 'POST' });
      await response.arrayBuffer();
    };
  };

  const names = {
    stdioSmall: `stdio line of ${mb(stdioSizes[0]!)}`,
    stdioLarge: `stdio line of ${mb(stdioSizes[1]!)}`,
    httpSmall: `Streamable HTTP event of ${mb(httpSizes[0]!)}`,
    httpLarge: `Streamable HTTP event of ${mb(httpSizes[1]!)}`,
  };
  let stdio: Awaited<ReturnType<typeof compareCpu>>;
  try {
    ctx.log(`R1: stdio lines of ${stdioSizes.map(mb).join(' and ')}`);
    stdio = await compareCpu(
      [
        { name: names.stdioSmall, run: line(stdioSizes[0]!), async: true },
        { name: names.stdioLarge, run: line(stdioSizes[1]!), async: true },
      ],
      options,
    );
  } finally {
    await transport.close();
  }
  ctx.log(`R1: Streamable HTTP events of ${httpSizes.map(mb).join(' and ')}`);
  const http = await compareCpu(
    [
      { name: names.httpSmall, run: event(httpSizes[0]!), async: true },
      { name: names.httpLarge, run: event(httpSizes[1]!), async: true },
    ],
    options,
  );
  return {
    id: 'R1',
    title: 'Large messages are read in CPU time linear in their size (issue 38)',
    rows: [
      cpuRowOf(cpuTask(stdio, names.stdioSmall)),
      cpuRowOf(cpuTask(stdio, names.stdioLarge)),
      cpuRowOf(cpuTask(http, names.httpSmall)),
      cpuRowOf(cpuTask(http, names.httpLarge)),
    ],
    checks: [
      ratioCheck(
        `stdio: the ${mb(stdioSizes[1]!)} line over the ${mb(stdioSizes[0]!)} one (8x the bytes)`,
        cpuRatio(stdio, names.stdioLarge, names.stdioSmall),
        { max: MAX_RATIO },
        `<= ${MAX_RATIO}x`,
      ),
      ratioCheck(
        `Streamable HTTP: the ${mb(httpSizes[1]!)} event over the ${mb(httpSizes[0]!)} one (8x the bytes)`,
        cpuRatio(http, names.httpLarge, names.httpSmall),
        { max: MAX_RATIO },
        `<= ${MAX_RATIO}x`,
      ),
    ],
    method: [
      `The client's CPU time (\`process.cpuUsage\`) to read one message, the two sizes of each transport in interleaved rounds (one message per batch). stdio: the build's \`ProcessGroupStdioTransport\` (the transport \`connectServers\` uses on POSIX) reading from one server process (bench/child/large-lines.mjs) that answers each request with a JSON-RPC response of the asked size, written in 64 KB pieces; the server's own CPU time is not counted. Streamable HTTP: the build's \`BoundedFetch\` (the bounded download under both HTTP transports) over a scripted in-process body, one SSE event in 64 KB pieces, read to its end. The target is linear reading: the large message, 8 times the bytes, at most ${MAX_RATIO}x the small one's CPU time (a per-chunk copy of everything before, as the SDK's line buffer makes, gives about 64x).`,
    ],
    load: { start: stdio.load.start, end: http.load.end },
  };
}
