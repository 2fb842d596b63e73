/** The figures of a run and their rendering: console text and BENCHMARKS.md. */
import { readFile } from 'node:fs/promises';
import type { TaskMeasurement } from './compare.js';
import type { CpuMeasurement, LoadWindow } from './cpu.js';
import { formatMs, formatRatio, formatSummary } from './stats.js';

/** One measured row of a figure: a task and its median [p25–p75]. */
export interface Row {
  readonly label: string;
  /** The value as shown, e.g. `1.23 ms [1.20 ms–1.31 ms]`. */
  readonly value: string;
  /** How many samples (and rounds) it rests on. */
  readonly samples: string;
}

/** One target of a figure, and whether this run met it. */
export interface Check {
  readonly label: string;
  /** The figure as shown, e.g. `1.08x`. */
  readonly value: string;
  /** The spread as shown, e.g. `per-round 1.02x–1.15x, 5 rounds`. */
  readonly spread: string;
  readonly target: string;
  /** `undefined`: measured for information, no target. */
  readonly met: boolean | undefined;
  /**
   * The run cannot call the target: the rounds disagree 5x (largest per-round value over 5x the
   * smallest), or the median's 95% interval holds the bound. Shown as noise when the median
   * misses, as "met (noisy rounds)" when it meets.
   */
  readonly noisy?: boolean;
}

/** A figure of the issue (P1 ... P6, M). */
export interface Figure {
  readonly id: string;
  readonly title: string;
  readonly rows: readonly Row[];
  readonly checks: readonly Check[];
  /** How it was measured, what exactly is compared (markdown lines). */
  readonly method: readonly string[];
  /** Findings (markdown), e.g. where the time goes when a target is missed. */
  readonly findings?: readonly string[];
  /** Tables and notes shown after the rows (markdown; the console shows them as they are). */
  readonly details?: readonly string[];
  /** The 1-minute load average while the figure was measured. */
  readonly load?: LoadWindow;
}

/** A row from a task measurement (latency per iteration). */
export function rowOf(task: TaskMeasurement, label = task.name): Row {
  return {
    label,
    value: formatSummary(task.summary, formatMs),
    samples: `${task.summary.count} samples, ${task.roundMedians.length} rounds`,
  };
}

/** A row from a CPU-time measurement (CPU ms per iteration, one value per round). */
export function cpuRowOf(task: CpuMeasurement, label = task.name): Row {
  return {
    label,
    value: formatSummary(task.summary, formatMs),
    samples: `${task.summary.count} rounds of ${task.iterations} iterations, CPU time`,
  };
}

/** A ratio measured round by round (or tool by tool). */
export interface RatioLike {
  readonly value: number;
  readonly min: number;
  readonly max: number;
  readonly rounds: number;
  readonly p25?: number;
  readonly p75?: number;
  /** The 95% interval of the median, when the per-round values are known. */
  readonly low?: number;
  readonly high?: number;
}

/** Per-round ratios whose largest is over this multiple of the smallest are noise. */
const NOISE_SPREAD = 5;

/** The spread of a ratio as shown: IQR and range of the per-round values. */
export function spreadText(ratio: RatioLike, unit = 'rounds'): string {
  const interval =
    ratio.low === undefined || ratio.high === undefined
      ? ''
      : `95% interval of the median ${formatRatio(ratio.low)}x–${formatRatio(ratio.high)}x, `;
  const iqr =
    ratio.p25 === undefined || ratio.p75 === undefined
      ? ''
      : `IQR ${formatRatio(ratio.p25)}x–${formatRatio(ratio.p75)}x, `;
  return `${interval}${iqr}range ${formatRatio(ratio.min)}x–${formatRatio(ratio.max)}x, ${ratio.rounds} ${unit}`;
}

/** Whether the 95% interval of a median holds `bound` (so the run cannot call the target). */
export function intervalHolds(
  interval: { readonly low?: number; readonly high?: number },
  bound: number | undefined,
): boolean {
  if (bound === undefined || interval.low === undefined || interval.high === undefined) {
    return false;
  }
  return interval.low <= bound && bound <= interval.high;
}

/**
 * A check of a ratio against an upper or lower bound; `noisy` when the rounds disagree 5x or
 * the median's 95% interval holds the bound.
 */
export function ratioCheck(
  label: string,
  ratio: RatioLike,
  bound: { max?: number; min?: number },
  target: string,
): Check {
  const met =
    bound.max === undefined && bound.min === undefined
      ? undefined
      : (bound.max === undefined || ratio.value <= bound.max) &&
        (bound.min === undefined || ratio.value >= bound.min);
  const noisy =
    (ratio.rounds > 1 && ratio.max > NOISE_SPREAD * ratio.min) ||
    intervalHolds(ratio, bound.max) ||
    intervalHolds(ratio, bound.min);
  return {
    label,
    value: `${formatRatio(ratio.value)}x`,
    spread: spreadText(ratio),
    target,
    met,
    ...(noisy ? { noisy } : {}),
  };
}

/** A check of a count or a time against a bound, with no spread. */
export function valueCheck(
  label: string,
  value: string,
  met: boolean | undefined,
  target: string,
  spread = '-',
): Check {
  return { label, value, spread, target, met };
}

/** The load average as shown beside a figure. */
function loadText(load: LoadWindow): string {
  return `load average (1 min) ${load.start.toFixed(1)} at the start, ${load.end.toFixed(1)} at the end`;
}

/** Where and how a run happened. */
export interface RunInfo {
  readonly date: string;
  readonly node: string;
  readonly cpu: string;
  readonly cores: number;
  readonly memory: string;
  readonly os: string;
  readonly commit: string;
  readonly mode: 'full' | 'quick';
  readonly wallSeconds: number;
  /** The load averages at the start and end of the run. */
  readonly load: string;
  readonly sizes: string;
  /** The corpus's packages. */
  readonly corpus: readonly { name: string; version: string; license: string; tools: number }[];
  /** Packages that could not be started offline. */
  readonly skipped: readonly { name: string; version: string; reason: string }[];
}

function metText(met: boolean | undefined, noisy = false): string {
  if (met === undefined) return 'info';
  if (noisy) return met ? 'met (noisy rounds)' : 'noise: the run cannot call it, rerun';
  return met ? 'met' : '**missed**';
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** A run as `--out FILE` records it in `FILE.json`. */
export interface RecordedRun {
  readonly info: RunInfo;
  readonly figures: readonly Figure[];
}

/** Reads a run recorded by `--out` (`FILE.json`). */
export async function readRun(file: string): Promise<RecordedRun> {
  return JSON.parse(await readFile(file, 'utf8')) as RecordedRun;
}

/**
 * A check's label with its counts and parenthesized details taken out, to match runs. A size
 * (`10 MB`, `1 GB`) stays: it tells P4's checks apart (masked, `10 MB` and `100 MB` were one key,
 * and the 100 MB figure stood in the before column of the 10 MB row).
 */
function checkKey(figure: string, label: string): string {
  return `${figure}|${label
    .replace(/\([^)]*\)/g, '')
    .replace(/(?<![\d,.])[\d,.]+(?![\d,.]| ?[KMG]i?B\b)/g, '#')
    .replace(/\s+/g, ' ')
    .trim()}`;
}

/** Every target of this run beside the same target of `before` (matched by figure and label). */
function beforeAfter(before: RecordedRun, figures: readonly Figure[]): string[] {
  const earlier = new Map<string, Check>();
  for (const figure of before.figures) {
    for (const check of figure.checks) earlier.set(checkKey(figure.id, check.label), check);
  }
  const out = [
    '## Before and after',
    '',
    `The same harness, measuring src/ as committed at ${before.info.commit.replace(/ \(src\/ measured.*$/, '')} ("before", run ${before.info.date}, ${before.info.mode}, load average ${before.info.load}) and at this report's commit ("after"). Each figure is a ratio of its own run, so the two are comparable although the runs were minutes apart.`,
    '',
    '| Figure | Measure | Before | Before spread | After | After spread | Target | Before → after |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const figure of figures) {
    for (const check of figure.checks) {
      const old = earlier.get(checkKey(figure.id, check.label));
      out.push(
        `| ${figure.id} | ${escapeCell(check.label)} | ${escapeCell(old?.value ?? '-')} | ${escapeCell(old?.spread ?? '-')} | ${escapeCell(check.value)} | ${escapeCell(check.spread)} | ${escapeCell(check.target)} | ${old === undefined ? 'not measured before' : `${metText(old.met, old.noisy)} → ${metText(check.met, check.noisy)}`} |`,
      );
    }
  }
  out.push('');
  return out;
}

/** The whole report as markdown; with `before`, a before/after table of every target. */
export function renderMarkdown(
  info: RunInfo,
  figures: readonly Figure[],
  before?: RecordedRun,
): string {
  const out: string[] = [];
  out.push('# Benchmarks');
  out.push('');
  out.push(
    'Written by `npm run bench` (bench/run.ts); do not edit by hand. `npm run bench -- --quick` runs the same harness with fewer rounds and smaller inputs and prints without writing this file; `--smoke` (in `npm run ci`) runs each figure once and judges none.',
  );
  out.push('');
  out.push(`- Date: ${info.date}`);
  out.push(`- Node: ${info.node}`);
  out.push(`- CPU: ${info.cpu} (${info.cores} cores), memory ${info.memory}, ${info.os}`);
  out.push(`- Commit: ${info.commit}`);
  out.push(
    `- Mode: ${info.mode}; inputs: ${info.sizes}; wall time ${info.wallSeconds.toFixed(0)} s`,
  );
  out.push(`- Machine load average: ${info.load}`);
  out.push('');
  out.push('## How to read this');
  out.push('');
  out.push(
    'This machine is shared and loaded (see the load averages, on 2 cores), so wall time is mostly waiting for a core. P1, P2, P3 and P5 therefore measure **CPU time** (`process.cpuUsage`, user + system of this process, in batches of iterations long enough to read it exactly), and every target is a ratio between tasks measured side by side: interleaved rounds (A B, then B A, ...), one batch of each task per round, the ratio taken round by round. A task is shown as **median [p25–p75]** of its per-round CPU time per iteration; a ratio as the **median of the per-round ratios** with their IQR and range. P3 measures tool by tool: each tool of the corpus converted and cloned in interleaved rounds, the figure the median over tools. A ratio the run cannot call is reported as noise, neither met nor missed (shown as "met (noisy rounds)" when its median meets the target): one whose rounds disagree over 5x, or whose median has a 95% interval (distribution-free, the order statistics n/2 ± 0.98√n of the per-round values) holding the target. P4 and P6 time child processes (wall time, interleaved runs).',
  );
  out.push('');
  out.push('## Corpus');
  out.push('');
  out.push(
    'Tool lists of public MCP server packages on npm, pinned, gathered by `npm run bench:corpus` (bench/corpus/gather.ts; each package installed into a temp dir, started over stdio with dummy credentials, `tools/list` read page by page) into bench/corpus/tools.json.',
  );
  out.push('');
  out.push('| Package | Version | License | Tools |');
  out.push('| --- | --- | --- | --- |');
  for (const server of info.corpus) {
    out.push(
      `| ${server.name} | ${server.version} | ${escapeCell(server.license)} | ${server.tools} |`,
    );
  }
  out.push('');
  if (info.skipped.length > 0) {
    out.push('Could not be started offline (not in the corpus):');
    out.push('');
    for (const server of info.skipped) {
      out.push(`- ${server.name}@${server.version}: ${escapeCell(server.reason)}`);
    }
    out.push('');
  }
  out.push('## Summary');
  out.push('');
  out.push('| Figure | Measure | Value | Spread | Target | Result |');
  out.push('| --- | --- | --- | --- | --- | --- |');
  for (const figure of figures) {
    for (const check of figure.checks) {
      out.push(
        `| ${figure.id} | ${escapeCell(check.label)} | ${escapeCell(check.value)} | ${escapeCell(check.spread)} | ${escapeCell(check.target)} | ${metText(check.met, check.noisy)} |`,
      );
    }
  }
  out.push('');
  if (before !== undefined) out.push(...beforeAfter(before, figures));
  for (const figure of figures) {
    out.push(`## ${figure.id}: ${figure.title}`);
    out.push('');
    if (figure.rows.length > 0) {
      out.push('| Task | Median [p25–p75] | Samples |');
      out.push('| --- | --- | --- |');
      for (const row of figure.rows) {
        out.push(
          `| ${escapeCell(row.label)} | ${escapeCell(row.value)} | ${escapeCell(row.samples)} |`,
        );
      }
      out.push('');
    }
    if (figure.load !== undefined) out.push(`_Measured at ${loadText(figure.load)}._`, '');
    for (const line of figure.details ?? []) out.push(line);
    if ((figure.details ?? []).length > 0) out.push('');
    for (const paragraph of figure.method) out.push(paragraph, '');
    if (figure.findings !== undefined && figure.findings.length > 0) {
      out.push('**Findings.**');
      out.push('');
      for (const line of figure.findings) out.push(line);
      out.push('');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** The figures as console text. */
export function renderConsole(figures: readonly Figure[]): string {
  const out: string[] = [];
  for (const figure of figures) {
    out.push(`${figure.id}: ${figure.title}`);
    for (const row of figure.rows) out.push(`  ${row.label}: ${row.value} (${row.samples})`);
    for (const check of figure.checks) {
      out.push(
        `  => ${check.label}: ${check.value} (${check.spread}); target ${check.target}: ${metText(check.met, check.noisy).replaceAll('*', '')}`,
      );
    }
    if (figure.load !== undefined) out.push(`  (${loadText(figure.load)})`);
    for (const line of figure.details ?? []) out.push(`  ${line}`);
  }
  return out.join('\n');
}
