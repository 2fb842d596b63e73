/**
 * `npm run bench`: measures every figure side by side with its anchor on the real tool corpus
 * (bench/corpus/tools.json) and writes BENCHMARKS.md. `npm run bench -- --quick`: fewer rounds,
 * smaller inputs where a figure allows, prints only. `--smoke` (`npm run ci`): the quick inputs
 * and one round of everything, to show that every figure still runs; it prints what ran and
 * judges no figure (one round cannot), failing only when a figure fails to run. `--only P1,P3` runs some figures;
 * `--src <commit>` measures src/ as committed there (before/after figures from one harness;
 * with `--out`). `--out FILE` writes the report there (with --quick too), and the figures as
 * JSON to `FILE.json`; `--before FILE.json` (such a file, e.g. of a `--src` run) adds a
 * before/after table of every target to the report.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { l1Limits } from './figures/l1-limits.js';
import { l2Live } from './figures/l2-live.js';
import { memory } from './figures/memory.js';
import { p1 } from './figures/p1-contract.js';
import { p2 } from './figures/p2-genai.js';
import { p3 } from './figures/p3-schema.js';
import { p4 } from './figures/p4-validate.js';
import { p5 } from './figures/p5-execute.js';
import { p6Generate } from './figures/p6-generate.js';
import { p6Startup } from './figures/p6-startup.js';
import { p7 } from './figures/p7-import.js';
import { r1LargeMessages } from './figures/r1-large-messages.js';
import { s1Selection } from './figures/s1-selection.js';
import { FINDINGS } from './findings.js';
import { builtCli } from './lib/build-cli.js';
import { loadBuilt } from './lib/built.js';
import { type BenchContext, createContext } from './lib/context.js';
import { loadCorpus } from './lib/corpus.js';
import { profileFigure } from './lib/profile-figure.js';
import { type Figure, type RunInfo, readRun, renderConsole, renderMarkdown } from './lib/report.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The workloads profiled when a figure misses a target (full runs only). */
const PROFILES: Readonly<Record<string, readonly string[]>> = {
  P1: ['P1'],
  P2: ['P2', 'P2set'],
  P3: ['P3'],
  P4: ['P4'],
  P5: ['P5'],
  P6: ['P6'],
};

/**
 * The figure with its findings: the notes of bench/findings.ts (what the profile filed as issue
 * 14 found, and each pass since), and, when a target was missed, fresh profiles from this run.
 */
async function withFindings(ctx: BenchContext, figure: Figure): Promise<Figure> {
  const profiled = !ctx.quick && figure.checks.some((check) => check.met === false);
  const notes = FINDINGS[figure.id] ?? [];
  const findings =
    notes.length === 0
      ? []
      : [
          `_Notes (bench/findings.ts): what the profile filed as issue 14 found in src/ before its fixes, and what each pass since measured${profiled ? '; the profile tables after them are from this run' : ''}._`,
          '',
          ...notes,
        ];
  if (profiled) {
    for (const which of PROFILES[figure.id] ?? []) {
      try {
        findings.push('', ...(await profileFigure(ctx, which)));
      } catch (error) {
        findings.push(
          '',
          `Profile of ${which} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
  return findings.length === 0 ? figure : { ...figure, findings };
}

type FigureRun = (ctx: BenchContext) => Promise<Figure | undefined>;

const FIGURES: ReadonlyArray<readonly [string, FigureRun]> = [
  ['P1', p1],
  ['P2', p2],
  ['P3', p3],
  ['P4', p4],
  ['P5', p5],
  ['P6', p6Startup],
  // Over 25 s on this machine: not in --quick (CI checks generation with check:generated).
  ['P6b', async (ctx) => (ctx.quick ? undefined : p6Generate(ctx))],
  ['M', memory],
  ['P7', p7],
  ['L1', l1Limits],
  ['R1', r1LargeMessages],
  ['S1', s1Selection],
  ['L2', l2Live],
];

function commit(rev = 'HEAD'): string {
  try {
    const head = execFileSync('git', ['log', '-1', '--format=%h %s', rev], { cwd: ROOT })
      .toString()
      .trim();
    return `${head} (src/ measured as committed there; see the build note under P4 and P6)`;
  } catch {
    return 'unknown';
  }
}

/** What a smoke run prints for a figure that ran: that it ran, never a verdict. */
function smokeLine(figure: Figure): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const targets = figure.checks.filter((check) => check.met !== undefined).length;
  return `${figure.id}: ${figure.title}: ran (${count(figure.rows.length, 'row')}, ${count(targets, 'target')} not judged: one round each)`;
}

function failed(id: string, error: unknown): Figure {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return {
    id,
    title: 'failed to run',
    rows: [],
    checks: [
      { label: 'the figure did not run', value: 'error', spread: '-', target: '-', met: false },
    ],
    method: [['```', ...message.split('\n').slice(0, 12), '```'].join('\n')],
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      smoke: { type: 'boolean', default: false },
      only: { type: 'string' },
      out: { type: 'string' },
      src: { type: 'string' },
      before: { type: 'string' },
    },
  });
  const smoke = values.smoke === true;
  const quick = values.quick === true || smoke;
  const only = values.only?.split(',').map((id) => id.trim());
  const started = performance.now();
  const loadAtStart = loadavg();
  const tmp = await mkdtemp(join(tmpdir(), 'gemini-mcp-bench-'));
  let exitCode = 0;
  try {
    const corpus = loadCorpus();
    process.stderr.write(
      `[bench] corpus: ${corpus.tools.length} tools of ${corpus.servers.length} servers; load average ${loadAtStart.map((value) => value.toFixed(1)).join(' ')}\n`,
    );
    process.stderr.write('[bench] building src/ into the temp dir\n');
    const cli = await builtCli(ROOT, tmp, values.src);
    const lib = await loadBuilt(cli);
    const ctx = createContext({ quick, smoke, tmp, root: ROOT, corpus, cli, lib });
    const figures: Figure[] = [];
    for (const [id, run] of FIGURES) {
      if (only !== undefined && !only.includes(id)) continue;
      let figure: Figure | undefined;
      try {
        figure = await run(ctx);
        if (figure === undefined) continue;
        if (smoke) {
          process.stdout.write(`${smokeLine(figure)}\n`);
          continue;
        }
        figure = await withFindings(ctx, figure);
      } catch (error) {
        figure = failed(id, error);
        process.stderr.write(
          `[bench] ${id} failed: ${error instanceof Error ? error.stack : String(error)}\n`,
        );
        exitCode = 1;
        if (smoke) {
          process.stdout.write(`${id}: FAILED to run (the error is above)\n`);
          continue;
        }
      }
      figures.push(figure);
      process.stdout.write(`${renderConsole([figure])}\n`);
    }
    const wallSeconds = (performance.now() - started) / 1000;
    const loadAtEnd = loadavg();
    process.stderr.write(
      `[bench] done in ${wallSeconds.toFixed(1)} s; load average ${loadAtEnd.map((value) => value.toFixed(1)).join(' ')}\n`,
    );
    // A full run writes BENCHMARKS.md; --quick writes only where --out says; --smoke never.
    const out = smoke
      ? undefined
      : (values.out ?? (quick ? undefined : join(ROOT, 'BENCHMARKS.md')));
    if (out !== undefined) {
      const info: RunInfo = {
        date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        node: process.version,
        cpu: cpus()[0]?.model.trim() ?? 'unknown',
        cores: cpus().length,
        memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
        os: `${platform()} ${release()}`,
        commit: commit(values.src),
        mode: quick ? 'quick' : 'full',
        wallSeconds,
        load: `${loadAtStart.map((value) => value.toFixed(1)).join(' / ')} at the start, ${loadAtEnd.map((value) => value.toFixed(1)).join(' / ')} at the end (1 / 5 / 15 min)`,
        sizes: `the real corpus of ${corpus.tools.length} tools from ${corpus.servers.length} MCP server packages (P1-P3, bench/corpus/tools.json), ${quick ? '2,000' : '10,000'} tools replicated from it (memory), JSONL of ${quick ? '2 MB' : '10 MB, 100 MB, 1 GB'} (P4)`,
        corpus: corpus.file.servers.map((server) => ({
          name: server.name,
          version: server.version,
          license: server.license,
          tools: server.toolCount,
        })),
        skipped: corpus.file.skipped,
      };
      const before = values.before === undefined ? undefined : await readRun(values.before);
      await writeFile(out, renderMarkdown(info, figures, before));
      process.stderr.write(`[bench] wrote ${out}\n`);
      if (values.out !== undefined) {
        // The figures as data, for a later run's --before.
        await writeFile(`${out}.json`, `${JSON.stringify({ info, figures }, null, 1)}\n`);
        process.stderr.write(`[bench] wrote ${out}.json\n`);
      }
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return exitCode;
}

process.exitCode = await main();
