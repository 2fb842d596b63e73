/**
 * BM25F over a tool set (Robertson, Zaragoza and Taylor, "Simple BM25 extension to multiple
 * weighted fields", 2004): each tool is a document of fields (its name, title, description,
 * parameters and server), each field's term frequency normalised by the field's length and
 * weighted, the weighted sum saturated once per term, times the term's inverse document
 * frequency. Deterministic and offline: the same tool set and query give the same ranking (ties
 * go to the earlier tool). The index is built on a tool set's first search and kept for that
 * (immutable) set; a query then costs only its terms' postings.
 */
import { isJsonObject } from '../../json/object.js';
import type { ToolSetEntry } from '../tools/toolset-types.js';
import { queryTerms } from './query-words.js';
import { words } from './tokens.js';

/** The fields of a tool's document. */
const FIELDS = ['name', 'title', 'description', 'parameters', 'server'] as const;
type Field = (typeof FIELDS)[number];

/** The ranking's parameters: field weights and length normalisation, BM25's k1. */
export interface Bm25fParameters {
  readonly weights: Readonly<Record<Field, number>>;
  /** Length normalisation per field, 0 (none) to 1 (full). */
  readonly b: Readonly<Record<Field, number>>;
  /** Term-frequency saturation. */
  readonly k1: number;
}

/**
 * The default parameters, chosen before measuring and not fitted to any labelled query: field
 * weights by how precisely a field says what a tool does (a word of its name more than one of a
 * parameter's description), light length normalisation for the short fields, BM25's usual k1.
 * A grid search over them on one half of bench/corpus/queries.json gave no gain on the other
 * half (BENCHMARKS.md, figure S1), so they stay.
 */
const DEFAULT_BM25F: Bm25fParameters = {
  weights: { name: 3, title: 2, description: 1, parameters: 0.3, server: 0.5 },
  b: { name: 0.3, title: 0.3, description: 0.75, parameters: 0.75, server: 0 },
  k1: 1.2,
};

/** The parameters' text of a tool taken at most, in characters (schemas may be huge). */
const MAX_PARAMETER_TEXT = 4000;

/** The text of each field of a tool. */
function fieldTexts(entry: ToolSetEntry): Record<Field, string> {
  const { tool } = entry;
  const annotations = isJsonObject(tool.annotations) ? tool.annotations : {};
  const titles = [tool.title, annotations.title].filter(
    (title): title is string => typeof title === 'string',
  );
  return {
    name: tool.name,
    title: [...new Set(titles)].join(' '),
    description: typeof tool.description === 'string' ? tool.description : '',
    parameters: parameterText(tool.inputSchema),
    server: entry.serverId,
  };
}

/** Property names and descriptions of a schema's top level and the level below it. */
function parameterText(schema: unknown): string {
  const parts: string[] = [];
  let length = 0;
  const add = (text: string): void => {
    if (length >= MAX_PARAMETER_TEXT) return;
    const cut = text.slice(0, MAX_PARAMETER_TEXT - length);
    parts.push(cut);
    length += cut.length + 1;
  };
  const visit = (value: unknown, level: number): void => {
    if (!isJsonObject(value) || !isJsonObject(value.properties)) return;
    for (const [name, property] of Object.entries(value.properties)) {
      add(name);
      if (!isJsonObject(property)) continue;
      if (typeof property.description === 'string') add(property.description);
      if (level < 2) visit(isJsonObject(property.items) ? property.items : property, level + 1);
    }
  };
  visit(schema, 1);
  return parts.join(' ');
}

/** A built index: per term, the tools holding it and each one's score for it. */
export interface Bm25fIndex {
  readonly size: number;
  readonly postings: ReadonlyMap<
    string,
    { readonly docs: Int32Array; readonly scores: Float64Array }
  >;
}

/**
 * Builds the index of `entries`: each (term, tool) pair's whole BM25F contribution is computed
 * here, so a query only adds them up. Terms are numbered as first met and counted in typed
 * arrays (no map per tool and field), and each posting list is allocated at its final size.
 */
export function buildBm25fIndex(
  entries: readonly ToolSetEntry[],
  parameters: Bm25fParameters = DEFAULT_BM25F,
): Bm25fIndex {
  const size = entries.length;
  const fieldCount = FIELDS.length;
  const ids = new Map<string, number>();
  const terms: string[] = [];
  // Each tool's fields as term ids, and their lengths.
  const tokens: Int32Array[] = [];
  const lengths = new Float64Array(size * fieldCount);
  const totals = new Float64Array(fieldCount);
  entries.forEach((entry, doc) => {
    const texts = fieldTexts(entry);
    FIELDS.forEach((field, f) => {
      const found = words(texts[field]);
      const row = new Int32Array(found.length);
      found.forEach((word, i) => {
        let id = ids.get(word);
        if (id === undefined) {
          id = terms.length;
          ids.set(word, id);
          terms.push(word);
        }
        row[i] = id;
      });
      tokens.push(row);
      lengths[doc * fieldCount + f] = found.length;
      totals[f]! += found.length;
    });
  });
  const average = Array.from(totals, (total) => total / Math.max(size, 1) || 1);
  // Per tool: its terms and their weighted, normalised frequency; per term: how many tools.
  const counts = new Int32Array(terms.length);
  const tf = new Float64Array(terms.length);
  const df = new Int32Array(terms.length);
  const docTerms: Int32Array[] = [];
  const docTf: Float64Array[] = [];
  const inDoc: number[] = [];
  const inField: number[] = [];
  for (let doc = 0; doc < size; doc++) {
    inDoc.length = 0;
    for (let f = 0; f < fieldCount; f++) {
      const field = FIELDS[f]!;
      const row = tokens[doc * fieldCount + f]!;
      inField.length = 0;
      for (const id of row) {
        if (counts[id] === 0) inField.push(id);
        counts[id]!++;
      }
      const norm =
        1 -
        parameters.b[field] +
        (parameters.b[field] * lengths[doc * fieldCount + f]!) / average[f]!;
      const weight = parameters.weights[field] / norm;
      for (const id of inField) {
        if (tf[id] === 0) inDoc.push(id);
        tf[id]! += weight * counts[id]!;
        counts[id] = 0;
      }
    }
    const ordered = Int32Array.from(inDoc);
    docTerms.push(ordered);
    docTf.push(Float64Array.from(ordered, (id) => tf[id]!));
    for (const id of ordered) {
      df[id]!++;
      tf[id] = 0;
    }
  }
  const { k1 } = parameters;
  const docsOf = Array.from(df, (n) => new Int32Array(n));
  const scoresOf = Array.from(df, (n) => new Float64Array(n));
  const idf = Float64Array.from(df, (n) => Math.log(1 + (size - n + 0.5) / (n + 0.5)));
  const filled = new Int32Array(terms.length);
  for (let doc = 0; doc < size; doc++) {
    const ordered = docTerms[doc]!;
    const values = docTf[doc]!;
    for (let i = 0; i < ordered.length; i++) {
      const id = ordered[i]!;
      const at = filled[id]!++;
      docsOf[id]![at] = doc;
      scoresOf[id]![at] = (idf[id]! * values[i]!) / (k1 + values[i]!);
    }
  }
  const postings = new Map<string, { docs: Int32Array; scores: Float64Array }>();
  terms.forEach((term, id) => {
    postings.set(term, { docs: docsOf[id]!, scores: scoresOf[id]! });
  });
  return { size, postings };
}

/** Tools scored for a query (its words and their stand-ins, query-words.ts), best first: indexes into the indexed entries. */
export function scoreQuery(index: Bm25fIndex, query: string, limit: number): number[] {
  return topDocs(index, queryTerms(query), limit);
}

/** The `limit` best tools for weighted query terms (a score above 0), ties to the earlier tool. */
function topDocs(index: Bm25fIndex, terms: ReadonlyMap<string, number>, limit: number): number[] {
  const scores = new Float64Array(index.size);
  const touched: number[] = [];
  for (const [term, weight] of terms) {
    const posting = index.postings.get(term);
    if (posting === undefined) continue;
    const { docs, scores: contribution } = posting;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      if (scores[doc] === 0) touched.push(doc);
      scores[doc]! += weight * contribution[i]!;
    }
  }
  // The best `limit`, kept sorted while scanning (a full sort would cost more than the scoring).
  const best: number[] = [];
  const better = (a: number, b: number): boolean =>
    scores[a]! > scores[b]! || (scores[a] === scores[b] && a < b);
  for (const doc of touched) {
    if (best.length === limit && !better(doc, best[limit - 1]!)) continue;
    let at = best.length === limit ? limit - 1 : best.length;
    while (at > 0 && better(doc, best[at - 1]!)) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = doc;
  }
  return best;
}
