/** The figures of a run and their rendering: console text and BENCHMARKS.md. */
import type { RatioMeasurement, TaskMeasurement } from './compare.js';
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
}

/** A row from a task measurement (latency per iteration). */
export function rowOf(task: TaskMeasurement, label = task.name): Row {
  return {
    label,
    value: formatSummary(task.summary, formatMs),
    samples: `${task.summary.count} samples, ${task.roundMedians.length} rounds`,
  };
}

/** A check of a ratio against an upper or lower bound. */
export function ratioCheck(
  label: string,
  ratio: RatioMeasurement,
  bound: { max?: number; min?: number },
  target: string,
): Check {
  const met =
    bound.max === undefined && bound.min === undefined
      ? undefined
      : (bound.max === undefined || ratio.value <= bound.max) &&
        (bound.min === undefined || ratio.value >= bound.min);
  return {
    label,
    value: `${formatRatio(ratio.value)}x`,
    spread: `per-round ${formatRatio(ratio.min)}x–${formatRatio(ratio.max)}x, ${ratio.rounds} rounds`,
    target,
    met,
  };
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
  readonly sizes: string;
}

function metText(met: boolean | undefined): string {
  if (met === undefined) return 'info';
  return met ? 'met' : '**missed**';
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** The whole report as markdown. */
export function renderMarkdown(info: RunInfo, figures: readonly Figure[]): string {
  const out: string[] = [];
  out.push('# Benchmarks');
  out.push('');
  out.push(
    'Written by `npm run bench` (bench/run.ts); do not edit by hand. `npm run bench -- --quick` runs the same harness on small inputs and prints without writing this file (CI).',
  );
  out.push('');
  out.push(`- Date: ${info.date}`);
  out.push(`- Node: ${info.node}`);
  out.push(`- CPU: ${info.cpu} (${info.cores} cores), memory ${info.memory}, ${info.os}`);
  out.push(`- Commit: ${info.commit}`);
  out.push(
    `- Mode: ${info.mode}; inputs: ${info.sizes}; wall time ${info.wallSeconds.toFixed(0)} s`,
  );
  out.push('');
  out.push('## How to read this');
  out.push('');
  out.push(
    'This machine is shared and noisy, so absolute times are indicative only. Every figure with a target is a ratio between two tasks measured side by side in the same process run: the tasks run in interleaved rounds (A B, then B A, ...), each round a short [tinybench](https://github.com/tinylibs/tinybench) run of each task, and the ratio is taken round by round between medians measured seconds apart. A figure is shown as **median [p25–p75]** of all samples; a ratio as the **median of the per-round ratios**, with the smallest and largest per-round ratio as its spread.',
  );
  out.push('');
  out.push('## Summary');
  out.push('');
  out.push('| Figure | Measure | Value | Spread | Target | Result |');
  out.push('| --- | --- | --- | --- | --- | --- |');
  for (const figure of figures) {
    for (const check of figure.checks) {
      out.push(
        `| ${figure.id} | ${escapeCell(check.label)} | ${escapeCell(check.value)} | ${escapeCell(check.spread)} | ${escapeCell(check.target)} | ${metText(check.met)} |`,
      );
    }
  }
  out.push('');
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
        `  => ${check.label}: ${check.value} (${check.spread}); target ${check.target}: ${metText(check.met).replaceAll('*', '')}`,
      );
    }
  }
  return out.join('\n');
}
