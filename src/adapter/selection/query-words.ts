/**
 * The terms of a search query: its own words (stemmed, as a tool's are), and for some of them the
 * words tools are named with that they stand for. People ask "show me every resource group" or
 * "provision a database" where a tool is named `group_list` or `db-cluster-create`: the verbs of
 * an API's standard methods (List, Get, Create, Update, Delete, Search, after Google's API
 * Improvement Proposals 131-135 and 136's custom methods) and a few common file and git words
 * are said in other words. Each such query word adds the tool-side word at a lower weight (a stand-in never
 * counts more than the word itself), and only to the query: the tools' index is unchanged.
 */
import { words } from './tokens.js';

/**
 * Tool-side words and the everyday words that stand for them in a query (one direction: a query
 * saying "fetch" also looks for "get", not the other way round). General English of software
 * and APIs, not drawn from any tool set.
 */
const STAND_INS: Readonly<Record<string, string>> = {
  list: 'show every enumerate exist available browse overview inventory',
  get: 'fetch retrieve read look view show see detail info inspect check',
  create: 'make add new provision setup set spin register generate build open start write',
  update: 'change modify edit rename set adjust bump patch alter switch replace turn',
  delete: 'remove drop destroy erase discard purge wipe tear',
  search: 'find lookup look locate query discover seek',
  send: 'text message notify email mail post deliver dispatch',
  run: 'execute trigger launch invoke kick perform',
  upload: 'copy put push transfer',
  download: 'save pull export',
  sort: 'order arrange rank',
  reply: 'answer respond',
  push: 'commit',
};

/** Words and their short forms, each standing for the other (a phrase's words share the weight). */
const SHORT_FORMS: readonly (readonly [string, ...string[]])[] = [
  ['directory', 'folder', 'dir'],
  ['repository', 'repo'],
  ['pull request', 'pr'],
  ['database', 'db'],
  ['environment', 'env'],
  ['configuration', 'config'],
  ['document', 'doc'],
  ['message', 'msg'],
];

/**
 * The weight of a stand-in, against 1 for a word of the query itself: the best of 0.3 to 1 on the
 * tuning half of the labelled queries (BENCHMARKS.md, figure S1).
 */
const STAND_IN_WEIGHT = 1;

/** Per stem of a query word: the stems it stands for, each with its weight. */
const standIns: ReadonlyMap<string, ReadonlyMap<string, number>> = (() => {
  const found = new Map<string, Map<string, number>>();
  const link = (from: string, to: string): void => {
    const [stem, ...more] = words(from);
    const targets = words(to);
    if (stem === undefined || more.length > 0 || targets.length === 0) return;
    let weights = found.get(stem);
    if (weights === undefined) {
      weights = new Map();
      found.set(stem, weights);
    }
    for (const target of targets) {
      if (target === stem) continue;
      const weight = STAND_IN_WEIGHT / targets.length;
      weights.set(target, Math.max(weights.get(target) ?? 0, weight));
    }
  };
  for (const [toolWord, everyday] of Object.entries(STAND_INS)) {
    for (const word of everyday.split(' ')) link(word, toolWord);
  }
  for (const [long, ...short] of SHORT_FORMS) {
    for (const form of short) {
      link(form, long);
      link(long, form);
    }
  }
  return found;
})();

/**
 * A query's terms and their weights: each stem of its words as often as it occurs, then the
 * stand-ins of those stems that the query does not already hold (at {@link STAND_IN_WEIGHT}, the
 * best weight where several words give the same one).
 *
 * @example
 * ```ts
 * queryTerms('fetch the repo'); // Map { 'fetch' => 1, 'repo' => 1, 'get' => 1, 'repositori' => 1 }
 * ```
 */
export function queryTerms(query: string): Map<string, number> {
  const terms = new Map<string, number>();
  for (const word of words(query)) terms.set(word, (terms.get(word) ?? 0) + 1);
  const added = new Map<string, number>();
  for (const stem of terms.keys()) {
    for (const [target, weight] of standIns.get(stem) ?? []) {
      if (!terms.has(target)) added.set(target, Math.max(added.get(target) ?? 0, weight));
    }
  }
  for (const [target, weight] of added) terms.set(target, weight);
  return terms;
}
