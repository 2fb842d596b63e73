/** P4: `gemini-mcp-kit validate` on JSONL of GenerateContentResponses vs a bare JSON.parse loop. */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childRounds, cpuOfRuns, rssMethod, runChild } from '../lib/child.js';
import type { BenchContext } from '../lib/context.js';
import { loadNow, ratioSpread } from '../lib/cpu.js';
import { writeResponsesJsonl } from '../lib/jsonl.js';
import { type Check, type Figure, type Row, ratioCheck } from '../lib/report.js';
import { formatMB, formatMs, formatSummary, summarize } from '../lib/stats.js';

const BARE = fileURLToPath(new URL('../child/parse-lines.mjs', import.meta.url));
const RSS_LIMIT = 200e6;

interface Size {
  readonly label: string;
  readonly bytes: number;
  readonly rounds: number;
}

export async function p4(ctx: BenchContext): Promise<Figure> {
  const loadStart = loadNow();
  const { cli } = ctx;
  const sizes: Size[] = ctx.quick
    ? [{ label: '2 MB', bytes: 2e6, rounds: 3 }]
    : [
        { label: '10 MB', bytes: 10e6, rounds: 5 },
        { label: '100 MB', bytes: 100e6, rounds: 3 },
        { label: '1 GB', bytes: 1e9, rounds: 2 },
      ];
  const rows: Row[] = [];
  const checks: Check[] = [];
  const rssChecks: string[] = [];
  const peaks: number[] = [];
  for (const size of sizes) {
    const file = join(ctx.tmp, `responses-${size.bytes}.jsonl`);
    ctx.log(`P4: writing ${size.label} of GenerateContentResponse JSONL`);
    const written = await writeResponsesJsonl(
      file,
      size.bytes,
      ctx.lib.checkGenerateContentResponse,
    );
    try {
      const rss = { validate: [] as number[], bare: [] as number[] };
      const names = {
        validate: `gemini-mcp-kit validate --kind generate-content-response, ${size.label}`,
        bare: `bare JSON.parse line loop, ${size.label}`,
      };
      const rounds = ctx.repeat(size.rounds);
      ctx.log(`P4: ${size.label}, ${rounds} interleaved rounds`);
      const runs = await childRounds(
        [
          {
            name: names.validate,
            run: async () => {
              const run = await runChild(
                process.execPath,
                [cli.main, 'validate', '--kind', 'generate-content-response', file],
                { maxRss: true, cpu: true },
              );
              if (!run.stdout.includes(`${written.lines} valid`)) {
                throw new Error(`validate did not report ${written.lines} valid: ${run.stdout}`);
              }
              rss.validate.push(run.maxRssBytes ?? Number.NaN);
              return run;
            },
          },
          {
            name: names.bare,
            run: async () => {
              const run = await runChild(process.execPath, [BARE, file], {
                maxRss: true,
                cpu: true,
              });
              if (run.stdout.trim() !== `${written.lines} lines`) {
                throw new Error(
                  `the bare loop read ${run.stdout.trim()}, not ${written.lines} lines`,
                );
              }
              rss.bare.push(run.maxRssBytes ?? Number.NaN);
              return run;
            },
          },
        ],
        rounds,
        false,
      );
      for (const [key, name] of Object.entries(names) as ['validate' | 'bare', string][]) {
        const taken = runs.get(name) ?? [];
        const cpu = summarize(cpuOfRuns(taken));
        const mbps = (ms: number): string =>
          `${(written.bytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s`;
        const peak = summarize(rss[key]);
        rows.push({
          label: name,
          value: `CPU ${formatSummary(cpu, formatMs)}; ${mbps(cpu.median)} of CPU time; wall ${formatMs(summarize(taken.map((run) => run.ms)).median)}; peak RSS ${formatMB(peak.max)}`,
          samples: `${taken.length} runs (${written.lines} lines, ${formatMB(written.bytes)})`,
        });
        if (key === 'validate') peaks.push(peak.max);
      }
      // The target is about throughput: --quick's 2 MB file is mostly start-up (see P6), so
      // there the ratio is shown for information only.
      checks.push(
        ratioCheck(
          `validate throughput / bare JSON.parse loop, ${size.label}, CPU time`,
          ratioSpread(
            cpuOfRuns(runs.get(names.bare) ?? []),
            cpuOfRuns(runs.get(names.validate) ?? []),
          ),
          ctx.quick ? {} : { min: 0.5 },
          ctx.quick ? '>= 0.5 on 10 MB and up (full run); 2 MB is mostly start-up' : '>= 0.5',
        ),
      );
      rssChecks.push(`${size.label}: ${formatMB(summarize(rss.validate).max)}`);
    } finally {
      await rm(file, { force: true });
    }
  }
  const worst = Math.max(...peaks);
  // Flat: the last tenfold step of input (100 MB to 1 GB) adds at most half again to the peak.
  const last = peaks[peaks.length - 1]!;
  const before = peaks.length > 1 ? peaks[peaks.length - 2]! : last;
  checks.push({
    label: 'validate peak RSS per file size',
    value: rssChecks.join(', '),
    spread: 'largest of the runs at each size',
    target: `< ${formatMB(RSS_LIMIT)}, flat (x10 input: <= 1.5x peak)`,
    met: worst < RSS_LIMIT && last <= 1.5 * before,
  });
  return {
    id: 'P4',
    title: '`gemini-mcp-kit validate` on JSONL vs a bare JSON.parse loop',
    rows,
    checks,
    load: { start: loadStart, end: loadNow() },
    method: [
      `Each file is written to the temp dir (deleted after): GenerateContentResponses as a client logs them (text answers, thoughts, parallel function calls with thought signatures, stream chunks), 2,000 distinct lines each proven valid against the vendored schema, repeated to size. Both sides are child processes (\`node\`), run in turn (interleaved) and measured by their CPU time (user + system since start, printed at exit by the preload bench/child/cpu-time.mjs in both; wall time shown beside it): \`node <cli> validate --kind generate-content-response FILE\` (the built CLI: ${cli.how}) and bench/child/parse-lines.mjs, which streams the file in 64 KiB chunks (as \`validate\` reads), splits lines with \`Buffer.indexOf\` like src/cli/lines.ts and only \`JSON.parse\`s each line. Throughput ratio = bare CPU time / validate CPU time (same bytes), per round. Process start-up is inside both.`,
      `Peak RSS by ${rssMethod()}, for both sides. "Flat" means memory does not follow the input: from 100 MB to 1 GB (ten times the data) the peak grows by at most 1.5x. V8 lets the heap grow with the garbage a long run makes before it collects harder, which is why the bare loop's peak rises with size too; the smallest file's peak is mostly start-up.`,
    ],
  };
}
