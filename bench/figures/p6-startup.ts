/** P6: CLI start-up (`gemini-mcp --version`) vs `node -e 0`. */
import { runChild } from '../lib/child.js';
import { compare, measured, ratioOf } from '../lib/compare.js';
import type { BenchContext } from '../lib/context.js';
import { type Figure, ratioCheck, rowOf } from '../lib/report.js';

export async function p6Startup(ctx: BenchContext): Promise<Figure> {
  const { cli } = ctx;
  const version = (await runChild(process.execPath, [cli.main, '--version'])).stdout.trim();
  const names = {
    cli: `node <cli> --version (${version})`,
    node: 'node -e 0',
  };
  const rounds = ctx.quick ? 3 : 12;
  ctx.log(`P6: CLI start-up, ${rounds} rounds`);
  const result = await compare(
    [
      {
        name: names.cli,
        fn: () => runChild(process.execPath, [cli.main, '--version']),
        async: true,
      },
      { name: names.node, fn: () => runChild(process.execPath, ['-e', '0']), async: true },
    ],
    { rounds, time: 0, iterations: ctx.quick ? 1 : 2, warmup: true },
  );
  return {
    id: 'P6',
    title: 'CLI start-up: `gemini-mcp --version` vs `node -e 0`',
    rows: Object.values(names).map((name) => rowOf(measured(result, name))),
    checks: [
      ratioCheck(
        'gemini-mcp --version / node -e 0, wall time',
        ratioOf(result, names.cli, names.node),
        { max: 1.5 },
        '<= 1.5',
      ),
    ],
    method: [
      `Both are \`node\` child processes timed from spawn to exit, interleaved. The CLI is ${cli.how}; its entry is run as \`node <dist>/cli/main.js --version\` (what the \`gemini-mcp\` bin does, without npm's or a shell shim's own start-up).`,
    ],
  };
}
