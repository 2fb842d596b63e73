/**
 * Checks the labelled query set for tool selection (bench/corpus/queries.json, issue 31) against
 * the corpus (bench/corpus/tools.json): every referenced server and tool exists; each query's
 * source is in its relevant set; no query copies a relevant tool's name or shares a run of three
 * or more consecutive words with a relevant tool's description (case and punctuation ignored);
 * ids are unique; 5 to 25 words a query; at least 200 queries, every server at least 2, none
 * over 12% of the set. Prints the counts per server.
 *
 * `npm run bench:queries` (exits non-zero on any problem). test/adapter/selection-queries.test.ts
 * runs the same checks.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type CorpusFile, readCorpus } from './format.js';

/** A tool of the corpus: its server package and its name. */
export interface ToolRef {
  readonly server: string;
  readonly tool: string;
}

/** One labelled query. */
export interface LabelledQuery {
  readonly id: string;
  /** What a user would ask, paraphrased from the source tool's documented purpose. */
  readonly query: string;
  /** Every tool of the corpus that would serve the query equally well. */
  readonly relevant: readonly ToolRef[];
  /** The tool whose documented purpose the query was written from. */
  readonly source: ToolRef;
}

/** The file. */
export interface QueriesFile {
  readonly description: string;
  readonly queries: readonly LabelledQuery[];
}

/** The committed query set. */
const QUERIES_PATH = fileURLToPath(new URL('./queries.json', import.meta.url));

/** The rules' numbers. */
const RULES = {
  minQueries: 200,
  minPerServer: 2,
  maxServerShare: 0.12,
  minWords: 5,
  maxWords: 25,
  /** A shared run of this many consecutive words with a relevant description is a copy. */
  overlapWords: 3,
} as const;

/** What the check found. */
export interface QueriesReport {
  /** Every problem, one line each; empty when the set passes. */
  readonly errors: readonly string[];
  /** Queries per server (by source), every corpus server listed. */
  readonly perServer: ReadonlyMap<string, number>;
  readonly queryCount: number;
  /** Mean size of the relevant sets. */
  readonly meanRelevant: number;
  /** Queries whose relevant set holds more than one tool. */
  readonly multiRelevant: number;
  /** Queries whose relevant set spans more than one server. */
  readonly crossServer: number;
}

/**
 * Words of a text, lower case: apostrophes dropped, every other character that is not a letter
 * or a digit a separator (`_`, `-`, `/`, `.` included).
 */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** The words of a tool's name, camelCase split too (`createCollection` → create, collection). */
function nameWords(name: string): string[] {
  return words(
    name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2'),
  );
}

/** Whether `needle` occurs as consecutive words in `haystack`. */
function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  outer: for (let at = 0; at + needle.length <= haystack.length; at++) {
    for (let k = 0; k < needle.length; k++) if (haystack[at + k] !== needle[k]) continue outer;
    return true;
  }
  return false;
}

/** The runs of `n` consecutive words of a text, joined by spaces. */
function runs(list: readonly string[], n: number): Set<string> {
  const out = new Set<string>();
  for (let at = 0; at + n <= list.length; at++) out.add(list.slice(at, at + n).join(' '));
  return out;
}

/**
 * The forms of a tool's name a query must not contain: the name's words (`generate_area_chart`
 * → "generate area chart"; `createCollection` → "createcollection" and "create collection"),
 * and, stricter than the rule asks, the name without its vendor prefix when two or more words
 * remain (`TwilioApiV2010--CreateMessage` → "create message", `hubspot-search-objects` →
 * "search objects", `brave_web_search` → "web search").
 */
function nameForms(server: string, tool: string): string[][] {
  const forms: string[][] = [words(tool), nameWords(tool)];
  const tail = tool.includes('--') ? tool.slice(tool.lastIndexOf('--') + 2) : undefined;
  if (tail !== undefined && nameWords(tail).length >= 2) forms.push(nameWords(tail));
  const serverWords = new Set(words(server));
  const [first, ...rest] = nameWords(tool);
  if (first !== undefined && serverWords.has(first) && rest.length >= 2) forms.push(rest);
  const unique = new Map(forms.map((form) => [form.join(' '), form]));
  return [...unique.values()];
}

/** Checks the query set against the corpus. */
export function checkQueries(file: QueriesFile, corpus: CorpusFile): QueriesReport {
  const errors: string[] = [];
  const tools = new Map<string, Map<string, string>>();
  for (const server of corpus.servers) {
    const byName = new Map<string, string>();
    for (const tool of server.tools) {
      byName.set(String(tool.name), typeof tool.description === 'string' ? tool.description : '');
    }
    tools.set(server.name, byName);
  }
  const describe = (ref: ToolRef): string | undefined => tools.get(ref.server)?.get(ref.tool);
  const key = (ref: ToolRef): string => `${ref.server} ${ref.tool}`;

  const perServer = new Map<string, number>(corpus.servers.map((server) => [server.name, 0]));
  const ids = new Set<string>();
  const texts = new Set<string>();
  let relevantTotal = 0;
  let multiRelevant = 0;
  let crossServer = 0;

  for (const entry of file.queries) {
    const at = `${entry.id}: `;
    if (!/^q\d{3,}$/.test(entry.id)) errors.push(`${at}id is not q followed by digits`);
    if (ids.has(entry.id)) errors.push(`${at}duplicate id`);
    ids.add(entry.id);
    const query = words(entry.query);
    const normalized = query.join(' ');
    if (texts.has(normalized)) errors.push(`${at}the same query text appears twice`);
    texts.add(normalized);
    if (query.length < RULES.minWords || query.length > RULES.maxWords) {
      errors.push(`${at}${query.length} words (want ${RULES.minWords} to ${RULES.maxWords})`);
    }

    if (describe(entry.source) === undefined) {
      errors.push(`${at}source ${key(entry.source)} is not in the corpus`);
    } else {
      perServer.set(entry.source.server, (perServer.get(entry.source.server) ?? 0) + 1);
    }
    if (!entry.relevant.some((ref) => key(ref) === key(entry.source))) {
      errors.push(`${at}source ${key(entry.source)} is not in its relevant set`);
    }
    const seen = new Set<string>();
    for (const ref of entry.relevant) {
      if (seen.has(key(ref))) errors.push(`${at}${key(ref)} listed twice`);
      seen.add(key(ref));
      const description = describe(ref);
      if (description === undefined) {
        errors.push(`${at}relevant ${key(ref)} is not in the corpus`);
        continue;
      }
      for (const form of nameForms(ref.server, ref.tool)) {
        if (containsRun(query, form)) {
          errors.push(`${at}contains the name of ${key(ref)} ("${form.join(' ')}")`);
        }
      }
      const shared = [...runs(query, RULES.overlapWords)].filter((run) =>
        runs(words(description), RULES.overlapWords).has(run),
      );
      if (shared.length > 0) {
        errors.push(`${at}shares "${shared.join('", "')}" with the description of ${key(ref)}`);
      }
    }
    relevantTotal += entry.relevant.length;
    if (entry.relevant.length > 1) multiRelevant++;
    if (new Set(entry.relevant.map((ref) => ref.server)).size > 1) crossServer++;
  }

  const count = file.queries.length;
  if (count < RULES.minQueries) errors.push(`${count} queries (want at least ${RULES.minQueries})`);
  for (const [server, n] of perServer) {
    if (n < RULES.minPerServer) errors.push(`${server}: ${n} queries (want ${RULES.minPerServer})`);
    if (count > 0 && n / count > RULES.maxServerShare) {
      errors.push(`${server}: ${n} queries, over ${RULES.maxServerShare * 100}% of the set`);
    }
  }
  return {
    errors,
    perServer,
    queryCount: count,
    meanRelevant: count === 0 ? 0 : relevantTotal / count,
    multiRelevant,
    crossServer,
  };
}

/** Reads the committed query set. */
export function readQueries(path = QUERIES_PATH): QueriesFile {
  return JSON.parse(readFileSync(path, 'utf8')) as QueriesFile;
}

function main(): void {
  const corpus = readCorpus();
  const report = checkQueries(readQueries(), corpus);
  const width = Math.max(...[...report.perServer.keys()].map((name) => name.length));
  for (const server of corpus.servers) {
    const n = report.perServer.get(server.name) ?? 0;
    process.stdout.write(
      `${server.name.padEnd(width)}  ${String(n).padStart(3)} queries  ${String(server.toolCount).padStart(4)} tools\n`,
    );
  }
  process.stdout.write(
    `${report.queryCount} queries; relevant set ${report.meanRelevant.toFixed(2)} tools on average; ${report.multiRelevant} with more than one tool, ${report.crossServer} across servers\n`,
  );
  for (const error of report.errors) process.stderr.write(`${error}\n`);
  if (report.errors.length > 0) {
    process.stderr.write(`${report.errors.length} problems\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
