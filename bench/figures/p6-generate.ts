/** P6 (second half): `npm run generate` wall time, into a temp dir. */
import { mkdtemp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runChild } from '../lib/child.js';
import type { BenchContext } from '../lib/context.js';
import type { Figure } from '../lib/report.js';
import { formatMs, formatSummary, summarize } from '../lib/stats.js';

export async function p6Generate(ctx: BenchContext): Promise<Figure> {
  const runs = ctx.quick ? 1 : 3;
  const tsx = join(ctx.root, 'node_modules', '.bin', 'tsx');
  const times: number[] = [];
  ctx.log(`P6: npm run generate (${runs} runs, --out to a temp dir)`);
  for (let run = 0; run < runs; run++) {
    const out = await mkdtemp(join(ctx.tmp, 'generated-'));
    const child = await runChild(tsx, ['scripts/generate.ts', '--out', out], { cwd: ctx.root });
    const written = await readdir(out);
    if (written.length === 0) throw new Error(`generate wrote nothing: ${child.stdout}`);
    times.push(child.ms);
  }
  const summary = summarize(times);
  return {
    id: 'P6b',
    title: '`npm run generate` wall time',
    rows: [
      {
        label: 'tsx scripts/generate.ts --out <temp dir>',
        value: formatSummary(summary, formatMs),
        samples: `${runs} runs`,
      },
    ],
    checks: [
      {
        label: 'npm run generate, wall time',
        value: formatMs(summary.median),
        spread: `min ${formatMs(summary.min)}, max ${formatMs(summary.max)}, ${runs} runs`,
        target: 'none (reported)',
        met: undefined,
      },
    ],
    method: [
      "What `npm run generate` runs (`tsx scripts/generate.ts`), with `--out` to a temp dir so src/generated/ is not touched: json-schema-to-typescript, ajv standalone code, ts-morph formatting, from spawn to exit (npm's own start-up excluded).",
    ],
  };
}
