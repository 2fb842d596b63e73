/**
 * CPU-time measurement for a shared, loaded machine. Wall time counts every moment the process
 * waits for a core (on a 2-core machine with a load of 10 that is most of it, and it varies 5x
 * from one second to the next); CPU time (`process.cpuUsage`, user + system, every thread of the
 * process, so the GC helper threads a task keeps busy count too) counts only the work done.
 * `process.cpuUsage` costs a few µs and is exact to about a µs, so each sample is a batch of
 * iterations long enough (`minBatchMs`) that both vanish.
 *
 * Compared tasks run in interleaved rounds (A B, B A, A B, ...); each round measures one batch
 * of each, and ratios are taken per round between batches measured milliseconds apart. A minor
 * garbage collection runs (untimed) before every batch, so no batch pays for the young garbage
 * an earlier task left (a full one would also age and flush the other tasks' bytecode).
 */
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { medianInterval, type Summary, summarize } from './stats.js';

setFlagsFromString('--expose-gc');
/** V8's `gc()`, exposed at run time (the benchmark runs under tsx, without node flags). */
const collectGarbage = runInNewContext('gc') as (options: { type: 'minor' | 'major' }) => void;

/** A minor garbage collection now (untimed), so the next batch starts from an empty nursery. */
export function collect(): void {
  collectGarbage({ type: 'minor' });
}

/**
 * A full garbage collection now (untimed), so a comparison does not pay for marking the old
 * garbage an earlier one left (V8 marks it concurrently, on threads counted in CPU time).
 */
export function collectAll(): void {
  collectGarbage({ type: 'major' });
}

/** CPU time used by this process so far, ms. */
export function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** One task: `run` is measured, `prepare` (optional, run before each iteration) is not. */
export interface CpuTask {
  readonly name: string;
  readonly run: (prepared: unknown) => unknown;
  /** Builds the input of one iteration, outside the measured time (e.g. a fresh tool set). */
  readonly prepare?: () => unknown;
  /** `run` returns a promise to await. */
  readonly async?: boolean;
}

/** How long and how often to measure. */
export interface CpuOptions {
  /** Interleaved rounds. */
  readonly rounds: number;
  /** Smallest CPU time of one sample (a batch of iterations), ms. */
  readonly minBatchMs: number;
  /** Untimed iterations of each task before the first round (default 2, and at least 100 ms). */
  readonly warmup?: number;
  /**
   * Every task runs as many iterations per batch (the most any task needs for `minBatchMs`), so
   * a batch's fixed costs (the GC before it, caches refilled after the other task) weigh the
   * same per iteration on each: what short batches comparing tasks of similar cost need.
   */
  readonly sameIterations?: boolean;
  /**
   * CPU ms used so far by the other processes the tasks drive (a server spawned over stdio),
   * read before and after each batch, outside the batch's own CPU time: their share of each
   * batch is kept apart, in {@link CpuMeasurement.otherPerRound}.
   */
  readonly otherCpuMs?: () => number;
}

/** What was measured of one task: its CPU time per iteration, one value per round. */
export interface CpuMeasurement {
  readonly name: string;
  /** CPU ms per iteration, per round. */
  readonly perRound: readonly number[];
  readonly summary: Summary;
  /** Iterations per batch. */
  readonly iterations: number;
  /** With {@link CpuOptions.otherCpuMs}: the other processes' CPU ms per iteration, per round. */
  readonly otherPerRound?: readonly number[];
}

/** The tasks of one comparison by name, and the machine load while they ran. */
export interface CpuComparison {
  readonly tasks: ReadonlyMap<string, CpuMeasurement>;
  readonly load: LoadWindow;
}

/** The 1-minute load average at the start and the end of a measurement. */
export interface LoadWindow {
  readonly start: number;
  readonly end: number;
}

/** The 1-minute load average now. */
export function loadNow(): number {
  return loadavg()[0] ?? Number.NaN;
}

/** Runs `task` `count` times after a full GC; returns the CPU ms of the runs alone. */
async function timed(task: CpuTask, count: number): Promise<number> {
  if (task.prepare !== undefined) {
    const inputs = Array.from({ length: count }, () => task.prepare!());
    collect();
    let total = 0;
    for (const input of inputs) {
      const start = cpuMs();
      if (task.async === true) await task.run(input);
      else task.run(input);
      total += cpuMs() - start;
    }
    return total;
  }
  collect();
  const start = cpuMs();
  if (task.async === true) {
    for (let i = 0; i < count; i++) await task.run(undefined);
  } else {
    for (let i = 0; i < count; i++) task.run(undefined);
  }
  return cpuMs() - start;
}

/** Iterations of `task` that take about `minBatchMs` of CPU time, after warming it up. */
async function calibrate(task: CpuTask, options: CpuOptions): Promise<number> {
  let count = options.warmup ?? 2;
  let total = await timed(task, count);
  let spent = await timed(task, count);
  total += spent;
  // A task that alone fills a batch once warm needs no estimate: one iteration per batch.
  if (spent / count >= options.minBatchMs) return 1;
  while (total < 100 || spent < options.minBatchMs) {
    count *= 2;
    spent = await timed(task, count);
    total += spent;
  }
  let perIteration = spent / count;
  // Measure the estimate once more, so one disturbed warm-up batch does not set it.
  const again = await timed(task, count);
  perIteration = Math.min(perIteration, again / count);
  if (!(perIteration > 0)) perIteration = 0.001;
  return Math.max(1, Math.ceil(options.minBatchMs / perIteration));
}

/** Measures `tasks` in `options.rounds` interleaved rounds of CPU-time batches. */
export async function compareCpu(
  tasks: readonly CpuTask[],
  options: CpuOptions,
): Promise<CpuComparison> {
  const start = loadNow();
  const iterations = new Map<string, number>();
  for (const task of tasks) iterations.set(task.name, await calibrate(task, options));
  if (options.sameIterations === true) {
    const most = Math.max(...iterations.values());
    for (const task of tasks) iterations.set(task.name, most);
  }
  const perRound = new Map<string, number[]>(tasks.map((task) => [task.name, []]));
  const otherPerRound = new Map<string, number[]>(tasks.map((task) => [task.name, []]));
  const { otherCpuMs } = options;
  for (let round = 0; round < options.rounds; round++) {
    const ordered = round % 2 === 0 ? tasks : [...tasks].reverse();
    for (const task of ordered) {
      const count = iterations.get(task.name)!;
      const otherBefore = otherCpuMs?.();
      perRound.get(task.name)!.push((await timed(task, count)) / count);
      if (otherCpuMs !== undefined && otherBefore !== undefined) {
        otherPerRound.get(task.name)!.push((otherCpuMs() - otherBefore) / count);
      }
    }
  }
  return {
    tasks: new Map(
      tasks.map((task) => {
        const values = perRound.get(task.name)!;
        return [
          task.name,
          {
            name: task.name,
            perRound: values,
            summary: summarize(values),
            iterations: iterations.get(task.name)!,
            ...(otherCpuMs === undefined ? {} : { otherPerRound: otherPerRound.get(task.name)! }),
          },
        ];
      }),
    ),
    load: { start, end: loadNow() },
  };
}

/** The measurement of `name` (throws when missing). */
export function cpuTask(comparison: CpuComparison, name: string): CpuMeasurement {
  const found = comparison.tasks.get(name);
  if (found === undefined) throw new Error(`no measurement for "${name}"`);
  return found;
}

/** A ratio of two quantities measured round by round. */
export interface RatioSpread {
  /** Median of the per-round ratios. */
  readonly value: number;
  readonly min: number;
  readonly max: number;
  readonly p25: number;
  readonly p75: number;
  readonly rounds: number;
  /** The 95% interval of the median (see {@link medianInterval}). */
  readonly low: number;
  readonly high: number;
}

/** The ratio of two per-round series (same length). */
export function ratioSpread(top: readonly number[], bottom: readonly number[]): RatioSpread {
  const ratios = top.map((value, index) => value / bottom[index]!);
  const summary = summarize(ratios);
  const { low, high } = medianInterval(ratios);
  return {
    value: summary.median,
    min: summary.min,
    max: summary.max,
    p25: summary.p25,
    p75: summary.p75,
    rounds: summary.count,
    low,
    high,
  };
}

/** `numerator`'s CPU time per iteration over `denominator`'s, round by round. */
export function cpuRatio(
  comparison: CpuComparison,
  numerator: string,
  denominator: string,
): RatioSpread {
  return ratioSpread(
    cpuTask(comparison, numerator).perRound,
    cpuTask(comparison, denominator).perRound,
  );
}
