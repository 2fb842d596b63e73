/**
 * Side-by-side measurement on a noisy machine: the compared tasks run in interleaved rounds
 * (A B, B A, A B, ...), each round a short tinybench run of every task, so a burst of noise
 * hits all of them alike. Ratios are taken per round, between tasks measured seconds apart.
 */
import { Bench } from 'tinybench';
import type { Summary } from './stats.js';
import { summarize } from './stats.js';

/** One task to measure: a function run many times. */
export interface BenchTask {
  readonly name: string;
  readonly fn: () => unknown;
  /**
   * `fn` returns a promise to await (default false). Said explicitly: tinybench would otherwise
   * call `fn` once more to find out, which costs seconds for the slow child-process tasks.
   */
  readonly async?: boolean;
}

/** How long and how often to measure. */
export interface CompareOptions {
  /** Rounds of interleaving (each round runs every task once more). */
  readonly rounds: number;
  /** tinybench time budget per task per round, ms. */
  readonly time: number;
  /** tinybench minimum iterations per task per round. */
  readonly iterations: number;
  /** Warm each task up before its first round (default true). */
  readonly warmup?: boolean;
}

/** What was measured of one task. */
export interface TaskMeasurement {
  readonly name: string;
  /** Every latency sample of every round, ms. */
  readonly samples: readonly number[];
  /** Median, quartiles, extremes of `samples`. */
  readonly summary: Summary;
  /** The median of each round, ms. */
  readonly roundMedians: readonly number[];
}

/** The tasks of one comparison, by name. */
export type Comparison = ReadonlyMap<string, TaskMeasurement>;

function median(values: readonly number[]): number {
  return summarize(values).median;
}

/**
 * Runs `tasks` in `options.rounds` interleaved rounds (task order reversed every other round)
 * and returns every task's samples. Throws if a task throws.
 */
export async function compare(
  tasks: readonly BenchTask[],
  options: CompareOptions,
): Promise<Comparison> {
  const samples = new Map<string, number[]>(tasks.map((task) => [task.name, []]));
  const medians = new Map<string, number[]>(tasks.map((task) => [task.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const warm = round === 0 && options.warmup !== false;
    const bench = new Bench({
      time: options.time,
      iterations: options.iterations,
      warmup: warm,
      warmupTime: Math.min(options.time, 250),
      warmupIterations: Math.min(options.iterations, 16),
      retainSamples: true,
      throws: true,
    });
    const ordered = round % 2 === 0 ? tasks : [...tasks].reverse();
    for (const task of ordered) bench.add(task.name, task.fn, { async: task.async === true });
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== 'completed') {
        throw new Error(`benchmark task "${task.name}" ended ${result.state}`);
      }
      const taken = result.latency.samples ?? [];
      samples.get(task.name)!.push(...taken);
      medians.get(task.name)!.push(median(taken));
    }
  }
  return new Map(
    tasks.map((task) => {
      const taken = samples.get(task.name)!;
      return [
        task.name,
        {
          name: task.name,
          samples: taken,
          summary: summarize(taken),
          roundMedians: medians.get(task.name)!,
        },
      ];
    }),
  );
}

/** A ratio between two tasks, round by round. */
export interface RatioMeasurement {
  /** Median of the per-round ratios. */
  readonly value: number;
  /** Smallest and largest per-round ratio. */
  readonly min: number;
  readonly max: number;
  readonly p25: number;
  readonly p75: number;
  readonly rounds: number;
}

/**
 * `numerator`'s round median divided by `denominator`'s, per round; `invert` divides the
 * other way (a throughput ratio from latencies).
 */
export function ratioOf(
  comparison: Comparison,
  numerator: string,
  denominator: string,
  invert = false,
): RatioMeasurement {
  const top = comparison.get(numerator)?.roundMedians;
  const bottom = comparison.get(denominator)?.roundMedians;
  if (top === undefined || bottom === undefined) {
    throw new Error(`no measurement for "${numerator}" or "${denominator}"`);
  }
  const ratios = top.map((value, index) => {
    const ratio = value / bottom[index]!;
    return invert ? 1 / ratio : ratio;
  });
  const summary = summarize(ratios);
  return {
    value: summary.median,
    min: summary.min,
    max: summary.max,
    p25: summary.p25,
    p75: summary.p75,
    rounds: ratios.length,
  };
}

/** The measurement of `name` (throws when missing). */
export function measured(comparison: Comparison, name: string): TaskMeasurement {
  const found = comparison.get(name);
  if (found === undefined) throw new Error(`no measurement for "${name}"`);
  return found;
}
