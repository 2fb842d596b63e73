/** What every figure gets: the run's mode, a temp dir, the corpus, a logger. */
import type { RealServerTools } from '../../test/support/real-servers.js';
import type { BuiltCli } from './build-cli.js';
import type { Built } from './built.js';
import type { CompareOptions } from './compare.js';
import { type CorpusServer, replicate, writeCorpus } from './corpus.js';

/** The run's settings and shared inputs. */
export interface BenchContext {
  /** `--quick`: small sizes, few rounds (CI). */
  readonly quick: boolean;
  /** A temp dir of this run, removed at the end. */
  readonly tmp: string;
  /** The repository root. */
  readonly root: string;
  /** The real servers' tool lists. */
  readonly real: readonly RealServerTools[];
  /** The built package: its CLI entry. */
  readonly cli: BuiltCli;
  /** The built package: the modules measured in process. */
  readonly lib: Built;
  /** Rounds and time per round for in-process comparisons. */
  readonly inProcess: CompareOptions;
  /** Progress on stderr. */
  log(message: string): void;
  /** A replicated corpus of `count` tools (memoised). */
  corpus(count: number): CorpusServer[];
  /** The same corpus written to a JSON file in `tmp` (memoised). */
  corpusFile(count: number): Promise<string>;
}

/** Builds the context. */
export function createContext(options: {
  quick: boolean;
  tmp: string;
  root: string;
  real: readonly RealServerTools[];
  cli: BuiltCli;
  lib: Built;
}): BenchContext {
  const corpora = new Map<number, CorpusServer[]>();
  const files = new Map<number, Promise<string>>();
  const serversFor = (count: number): number => Math.max(3, Math.min(20, Math.round(count / 100)));
  const corpus = (count: number): CorpusServer[] => {
    let found = corpora.get(count);
    if (found === undefined) {
      found = replicate(options.real, count, serversFor(count));
      corpora.set(count, found);
    }
    return found;
  };
  return {
    ...options,
    inProcess: options.quick
      ? { rounds: 2, time: 100, iterations: 5 }
      : { rounds: 16, time: 200, iterations: 3 },
    log: (message) => process.stderr.write(`[bench] ${message}\n`),
    corpus,
    corpusFile: (count) => {
      let found = files.get(count);
      if (found === undefined) {
        found = writeCorpus(options.tmp, corpus(count));
        files.set(count, found);
      }
      return found;
    },
  };
}
