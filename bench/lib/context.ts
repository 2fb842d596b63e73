/** What every figure gets: the run's mode, a temp dir, the corpus, a logger. */
import type { BuiltCli } from './build-cli.js';
import type { Built } from './built.js';
import type { CompareOptions } from './compare.js';
import { type Corpus, type CorpusServer, replicate, writeServers } from './corpus.js';
import type { CpuOptions } from './cpu.js';

/** The run's settings and shared inputs. */
export interface BenchContext {
  /** `--quick`: small sizes, few rounds (true in a smoke run too). */
  readonly quick: boolean;
  /**
   * `--smoke`: the quick sizes, one round of every measurement: shows the harness and every
   * figure still run (`npm run ci`); too few rounds to judge a figure, so none is.
   */
  readonly smoke: boolean;
  /** How often to repeat what a figure repeats `times` times (rounds, untimed calls): once in a smoke run. */
  repeat(times: number): number;
  /** A temp dir of this run, removed at the end. */
  readonly tmp: string;
  /** The repository root. */
  readonly root: string;
  /** The real servers' tool lists (bench/corpus/tools.json). */
  readonly corpus: Corpus;
  /** The built package: its CLI entry. */
  readonly cli: BuiltCli;
  /** The built package: the modules measured in process. */
  readonly lib: Built;
  /** Rounds and time per round for wall-clock comparisons (tinybench; P5). */
  readonly inProcess: CompareOptions;
  /** Rounds and batch size for CPU-time comparisons whose targets are far from their figures (P2; P5's reference row). */
  readonly cpu: CpuOptions;
  /** The full run's {@link cpu}, for a comparison `--quick` must not shorten (a target near its figure). */
  readonly fullCpu: CpuOptions;
  /** Progress on stderr. */
  log(message: string): void;
  /** The corpus tools replicated into `count` tools (memoised; the memory figure). */
  replicated(count: number): CorpusServer[];
  /** The real corpus (`count` undefined) or a replicated one, as a JSON file in `tmp` (memoised). */
  corpusFile(count?: number): Promise<string>;
}

/** Builds the context. */
export function createContext(options: {
  quick: boolean;
  smoke?: boolean;
  tmp: string;
  root: string;
  corpus: Corpus;
  cli: BuiltCli;
  lib: Built;
}): BenchContext {
  const corpora = new Map<number, CorpusServer[]>();
  const files = new Map<number, Promise<string>>();
  const serversFor = (count: number): number => Math.max(3, Math.min(20, Math.round(count / 100)));
  const replicated = (count: number): CorpusServer[] => {
    let found = corpora.get(count);
    if (found === undefined) {
      found = replicate(options.corpus, count, serversFor(count));
      corpora.set(count, found);
    }
    return found;
  };
  const smoke = options.smoke === true;
  const once = { rounds: 1, minBatchMs: 1 };
  const fullCpu = smoke ? once : { rounds: 21, minBatchMs: 10 };
  return {
    ...options,
    quick: options.quick || smoke,
    smoke,
    repeat: (times) => (smoke ? 1 : times),
    inProcess: smoke
      ? { rounds: 1, time: 10, iterations: 1 }
      : options.quick
        ? { rounds: 2, time: 100, iterations: 5 }
        : { rounds: 16, time: 200, iterations: 3 },
    // Quick: 11 rounds of 10 ms batches. With 5 rounds of 5 ms (two or three 2.5 ms calls per
    // batch) P1's median moved between 0.8x and 1.3x from run to run; 11 x 10 ms read
    // 0.94-1.16x, still short of a figure near its target on a loaded host (P1 and P3's whole
    // corpus take fullCpu).
    cpu: smoke ? once : options.quick ? { rounds: 11, minBatchMs: 10 } : fullCpu,
    fullCpu,
    log: (message) => process.stderr.write(`[bench] ${message}\n`),
    replicated,
    corpusFile: (count) => {
      const key = count ?? 0;
      let found = files.get(key);
      if (found === undefined) {
        found =
          count === undefined
            ? writeServers(options.tmp, 'corpus-real', options.corpus.servers)
            : writeServers(options.tmp, `corpus-${count}`, replicated(count));
        files.set(key, found);
      }
      return found;
    },
  };
}
