/** M: the heap a 10,000-tool tool set takes, measured in a child process with --expose-gc. */
import { fileURLToPath } from 'node:url';
import { runChild } from '../lib/child.js';
import type { BenchContext } from '../lib/context.js';
import type { Figure, Row } from '../lib/report.js';
import { formatMB, summarize } from '../lib/stats.js';

interface MemoryReport {
  tools: number;
  declarations: number;
  toolLists: number;
  setOverLists: number;
  declarationsBytes: number;
  setRetained: number;
  jsonBytes: number;
}

const CHILD = fileURLToPath(new URL('../child/memory.mjs', import.meta.url));

export async function memory(ctx: BenchContext): Promise<Figure> {
  const count = ctx.quick ? 2000 : 10_000;
  const runs = ctx.quick ? 1 : 3;
  const file = await ctx.corpusFile(count);
  ctx.log(`M: heap of a ${count}-tool tool set (${runs} child runs)`);
  const reports: MemoryReport[] = [];
  for (let run = 0; run < runs; run++) {
    const child = await runChild(process.execPath, ['--expose-gc', CHILD, ctx.cli.dist, file], {
      cwd: ctx.root,
    });
    reports.push(JSON.parse(child.stdout.trim()) as MemoryReport);
  }
  const row = (label: string, pick: (report: MemoryReport) => number): Row => {
    const summary = summarize(reports.map(pick));
    return {
      label,
      value: `${formatMB(summary.median)} (${(summary.median / count / 1024).toFixed(2)} KiB per tool) [${formatMB(summary.min)}–${formatMB(summary.max)}]`,
      samples: `${runs} child processes`,
    };
  };
  const retained = summarize(reports.map((report) => report.setRetained)).median;
  const over = summarize(reports.map((report) => report.setOverLists)).median;
  return {
    id: 'M',
    title: `memory of a ${count.toLocaleString('en-US')}-tool tool set`,
    rows: [
      row(`the parsed tool lists (${formatMB(reports[0]!.jsonBytes)} of JSON)`, (r) => r.toolLists),
      row('buildToolSet on top of the tool lists it references', (r) => r.setOverLists),
      row(
        'the tool set alone, tool lists dropped (retains the tool objects)',
        (r) => r.setRetained,
      ),
      row('functionDeclarations of the set (json mode)', (r) => r.declarationsBytes),
    ],
    checks: [
      {
        label: `heap of a ${count}-tool tool set: own structures / with the tools it keeps`,
        value: `${formatMB(over)} / ${formatMB(retained)}`,
        spread: `${runs} child runs (rows below: median [min–max])`,
        target: 'none (reported)',
        met: undefined,
      },
    ],
    method: [
      `A child process (\`node --expose-gc bench/child/memory.mjs\`, on the built package) parses the ${count}-tool corpus, then takes \`process.memoryUsage().heapUsed\` after two forced GCs at each step: before and after parsing, after \`buildToolSet\`, after dropping the tool lists, after \`functionDeclarations\`. The tool set keeps references to the tool objects it was given (no copy), so "on top of" is the set's own structures (entries, name maps) and "alone" adds the tools it keeps alive.`,
    ],
  };
}
