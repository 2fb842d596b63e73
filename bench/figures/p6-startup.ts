/** P6: CLI start-up (`gemini-mcp-kit --version`) vs `node -e 0`, in CPU time of the child. */
import { childRounds, cpuOfRuns, runChild } from '../lib/child.js';
import type { BenchContext } from '../lib/context.js';
import { loadNow, ratioSpread } from '../lib/cpu.js';
import { type Figure, type Row, ratioCheck } from '../lib/report.js';
import { formatMs, formatSummary, summarize } from '../lib/stats.js';

export async function p6Startup(ctx: BenchContext): Promise<Figure> {
  const loadStart = loadNow();
  const { cli } = ctx;
  const version = (await runChild(process.execPath, [cli.main, '--version'])).stdout.trim();
  const names = {
    cli: `node <cli> --version (${version})`,
    node: 'node -e 0',
  };
  const rounds = ctx.repeat(ctx.quick ? 5 : 20);
  ctx.log(`P6: CLI start-up, ${rounds} rounds`);
  const runs = await childRounds(
    [
      {
        name: names.cli,
        run: () => runChild(process.execPath, [cli.main, '--version'], { cpu: true }),
      },
      { name: names.node, run: () => runChild(process.execPath, ['-e', '0'], { cpu: true }) },
    ],
    rounds,
  );
  const cpu = (name: string): number[] => cpuOfRuns(runs.get(name) ?? []);
  const rows: Row[] = Object.values(names).map((name) => {
    const taken = runs.get(name) ?? [];
    return {
      label: name,
      value: `CPU ${formatSummary(summarize(cpu(name)), formatMs)}; wall ${formatSummary(
        summarize(taken.map((run) => run.ms)),
        formatMs,
      )}`,
      samples: `${taken.length} runs, interleaved`,
    };
  });
  return {
    id: 'P6',
    title: 'CLI start-up: `gemini-mcp-kit --version` vs `node -e 0`',
    rows,
    checks: [
      ratioCheck(
        'gemini-mcp-kit --version / node -e 0, CPU time of the child',
        ratioSpread(cpu(names.cli), cpu(names.node)),
        { max: 1.5 },
        '<= 1.5',
      ),
    ],
    load: { start: loadStart, end: loadNow() },
    method: [
      `Both are \`node\` child processes, run in turn (interleaved, one untimed run of each first). Each child's CPU time (user + system of every thread since it started) is printed at its exit by a preload, bench/child/cpu-time.mjs (\`node --import\`, in both, so both pay it); wall time from spawn to exit is shown beside it but, on a loaded machine, is mostly waiting. The CLI is ${cli.how}; its entry is run as \`node <dist>/cli/main.js --version\` (what the \`gemini-mcp-kit\` bin does, without npm's or a shell shim's own start-up).`,
    ],
  };
}
