/**
 * Tool selection for catalogs past a request's budget (issue 31): progressive discovery. The model
 * is given one function of gemini-mcp-kit's own, `gmk__search_tools` (a query in; the names and
 * one-line descriptions of the best tools out), and each tool a search returns is loaded:
 * declared from the very next request, after the tools loaded before it (append-only, so a cached
 * prefix of the request stays valid). The ranking is BM25F over the tools' words (bm25f.ts), or
 * the user's own.
 */
import { GeminiMcpError } from '../../errors.js';
import type { FunctionDeclaration, McpTool, ToolConfig } from '../../generated/types.js';
import type { FunctionTool, SchemaMode } from '../shapes.js';
import type { DeclarationCandidate, DeclarationSelector, DiscoverySelector } from '../tools/fit.js';
import { RESERVED_SERVER_ID } from '../tools/names.js';
import { withOwnFunctions } from '../tools/own-functions.js';
import type { ToolSet, ToolSetEntry } from '../tools/toolset-types.js';
import type { ToolResult } from '../types.js';
import { type Bm25fIndex, buildBm25fIndex, scoreQuery } from './bm25f.js';

/**
 * Your own ranking (an embedding model, say): the tools best for `query`, best first; gemini-mcp-kit
 * takes the first `limit` of those it was given. May be async.
 */
export type ToolRanker = (
  query: string,
  tools: readonly ToolSetEntry[],
  limit: number,
) => readonly ToolSetEntry[] | Promise<readonly ToolSetEntry[]>;

/** The function calling modes a selection may ask for (`functionCallingConfig.mode`). */
export type SelectionMode = 'AUTO' | 'ANY' | 'VALIDATED';

/** Options of {@link toolSelection}. */
export interface ToolSelectionOptions {
  /**
   * Declarations per request at most, `gmk__search_tools` included: a budget of your own, under
   * the dialect's (default: the dialect's, 512 for the Gemini API, 128 for Vertex AI).
   */
  readonly maxTools?: number;
  /**
   * Tools one search returns (and loads) at most.
   *
   * @defaultValue 8
   */
  readonly maxResults?: number;
  /** Your own ranking, in place of the built-in BM25F. */
  readonly rank?: ToolRanker;
  /**
   * The function calling mode of each request. `'AUTO'` (the default): the model may answer in
   * text or call any declared function. `'ANY'` and `'VALIDATED'` (the modes the API reference
   * allows `allowedFunctionNames` with; every dialect and @google/genai from 2.32 have both):
   * each request's `toolConfig` names the declared functions in `allowedFunctionNames`, so the
   * model keeps to the search and the tools loaded. With `'ANY'` the model must call a function
   * every turn, so a conversation ends only at `maxTurns`.
   */
  readonly mode?: SelectionMode;
}

/** A tool selection: the policy `runConversation({ selection })` and the CLI's `chat --max-tools` use. */
export interface ToolSelection {
  readonly maxTools?: number;
  readonly maxResults: number;
  readonly mode: SelectionMode;
  /**
   * The tools of `tools` best for `query`, best first, at most `limit` (default `maxResults`):
   * the built-in BM25F (deterministic, offline; ties go to the earlier tool) or the `rank` hook.
   *
   * @example
   * ```ts
   * const found = await toolSelection().rank('open a pull request', connections.toolset.entries, 5);
   * ```
   */
  rank(query: string, tools: readonly ToolSetEntry[], limit?: number): Promise<ToolSetEntry[]>;
  /**
   * A new discovery with this policy, for a loop of your own: `geminiTools(toolset, { budget:
   * { select: discovery } })` declares `gmk__search_tools` and the tools loaded so far, and
   * `answerCalls(response, toolset, clients, { discovery })` answers the searches. One per
   * conversation (it holds the tools loaded).
   */
  discovery(): ToolDiscovery;
}

/**
 * One conversation's tool discovery (`toolSelection().discovery()`): the tools its searches
 * loaded, in the order loaded. As `budget.select` of `geminiTools` it declares
 * `gmk__search_tools` first, then the loaded tools (append-only); `answerCalls` with
 * `{ discovery }` answers the model's searches, each loading the tools it returns from the next
 * request on.
 */
export interface ToolDiscovery extends DiscoverySelector {
  readonly selection: ToolSelection;
  /** The exposed names loaded, in the order loaded. */
  loaded(): string[];
  /**
   * Answers a call of `gmk__search_tools` (its arguments): ranks the tools the last request
   * could declare, loads those found while the budget has room, and returns them (name,
   * one-line description, whether loaded) as a tool result.
   */
  search(args: Readonly<Record<string, unknown>>): Promise<ToolResult>;
  /**
   * The `toolConfig` for a request's `tools`: with mode ANY or VALIDATED, the declared functions
   * in `allowedFunctionNames`; with AUTO (the default), `undefined`.
   */
  toolConfig(tools: readonly FunctionTool<SchemaMode>[]): ToolConfig | undefined;
}

/** The tools a search returns by default. */
const DEFAULT_MAX_RESULTS = 8;
/** The most a search may return. */
const MAX_RESULTS_CAP = 50;
/** The longest query read, in characters (the rest is ignored). */
const MAX_QUERY_LENGTH = 1000;
/** The longest one-line description a search result carries, in characters. */
const MAX_SUMMARY_LENGTH = 160;

function checkWhole(option: string, value: number | undefined, max: number): void {
  if (value === undefined) return;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `toolSelection option ${option} must be a whole number from 1 to ${max}, got ${String(value)}`,
      { path: `/${option}`, data: { option, expected: `a whole number from 1 to ${max}` } },
    );
  }
}

/** Indexes built, per list of entries (a tool set's entries are frozen: one index per set). */
const indexes = new WeakMap<readonly ToolSetEntry[], Bm25fIndex>();

/**
 * The built-in ranking: BM25F over `tools` (index built on first use and kept for that list).
 * Synchronous.
 */
function rankByBm25f(query: string, tools: readonly ToolSetEntry[], limit: number): ToolSetEntry[] {
  let index = indexes.get(tools);
  if (index === undefined) {
    index = buildBm25fIndex(tools);
    indexes.set(tools, index);
  }
  return scoreQuery(index, query.slice(0, MAX_QUERY_LENGTH), limit).map((doc) => tools[doc]!);
}

/**
 * A tool selection for `runConversation({ selection })`: progressive discovery over a tool set of
 * any size. Each request declares `gmk__search_tools` and the tools loaded so far (mode `AUTO`
 * by default, so the model can still answer in text); the model searches, every tool a search
 * returns is loaded and declared from the next request on, after those loaded before it. The
 * budget is the dialect's, or `maxTools`; a tool that would not fit is reported, not loaded.
 *
 * @example
 * ```ts
 * const result = await runConversation({
 *   generate: genaiGenerate(ai, { model: 'gemini-2.5-flash' }),
 *   toolset: connections,
 *   clients: connections.clients,
 *   contents,
 *   selection: toolSelection({ maxTools: 32 }),
 * });
 * ```
 */
export function toolSelection(options: ToolSelectionOptions = {}): ToolSelection {
  checkWhole('maxTools', options.maxTools, Number.MAX_SAFE_INTEGER);
  if (options.maxTools === 1) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      'toolSelection option maxTools must be at least 2: gmk__search_tools takes one declaration',
      { path: '/maxTools', data: { option: 'maxTools', expected: 'a whole number >= 2' } },
    );
  }
  checkWhole('maxResults', options.maxResults, MAX_RESULTS_CAP);
  const mode = options.mode ?? 'AUTO';
  if (!['AUTO', 'ANY', 'VALIDATED'].includes(mode)) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `toolSelection option mode must be AUTO, ANY or VALIDATED, got ${String(mode)}`,
      { path: '/mode', data: { option: 'mode', expected: 'AUTO, ANY or VALIDATED' } },
    );
  }
  const maxResults = options.maxResults ?? DEFAULT_MAX_RESULTS;
  const { rank } = options;
  return {
    ...(options.maxTools === undefined ? {} : { maxTools: options.maxTools }),
    maxResults,
    mode,
    async rank(query, tools, limit = maxResults) {
      if (rank === undefined) return rankByBm25f(query, tools, limit);
      const given = new Set(tools);
      const ranked = await rank(query, tools, limit);
      if (!Array.isArray(ranked)) {
        throw new GeminiMcpError(
          'INVALID_INPUT',
          'the rank hook of toolSelection must return a list of the tools it was given',
        );
      }
      // Only tools it was given, each once.
      return [...new Set(ranked)].filter((entry) => given.has(entry)).slice(0, limit);
    },
    discovery() {
      return new Discovery(this);
    },
  };
}

/** The name of the search function. */
export const SEARCH_TOOLS_NAME = `${RESERVED_SERVER_ID}__search_tools`;

/** The search function's input schema (JSON Schema, as an MCP tool's). */
const SEARCH_INPUT_SCHEMA = Object.freeze({
  type: 'object',
  properties: Object.freeze({
    query: Object.freeze({
      type: 'string',
      description:
        'What you want to do, in a few words (for example "create a pull request" or "forecast for a city").',
    }),
  }),
  required: Object.freeze(['query']),
});

const SEARCH_DESCRIPTION =
  'Finds tools for a task among many more than are declared. Returns the best matches (name and a one-line description); they can be called from your next turn. Search again with other words if none fits.';

/** The search function as a tool of the reserved server, for resolving and answering its calls. */
const SEARCH_TOOL_ENTRY: ToolSetEntry = Object.freeze({
  exposedName: SEARCH_TOOLS_NAME,
  serverId: RESERVED_SERVER_ID,
  tool: Object.freeze({
    name: 'search_tools',
    description: SEARCH_DESCRIPTION,
    inputSchema: SEARCH_INPUT_SCHEMA,
  }) as McpTool,
});

const SEARCH_DECLARATIONS = {
  json: Object.freeze({
    name: SEARCH_TOOLS_NAME,
    description: SEARCH_DESCRIPTION,
    parametersJsonSchema: SEARCH_INPUT_SCHEMA,
  }),
  openapi: Object.freeze({
    name: SEARCH_TOOLS_NAME,
    description: SEARCH_DESCRIPTION,
    parameters: Object.freeze({
      type: 'OBJECT',
      properties: Object.freeze({
        query: Object.freeze({
          type: 'STRING',
          description: SEARCH_INPUT_SCHEMA.properties.query.description,
        }),
      }),
      required: Object.freeze(['query']),
    }),
  }),
} as const;

/** The search function's declaration in a schema mode (its schema as the other tools' are). */
function searchDeclaration(mode: 'json' | 'openapi'): FunctionDeclaration {
  return SEARCH_DECLARATIONS[mode] as FunctionDeclaration;
}

/**
 * A tool's first sentence of description, as declared (invisible characters removed), cut on a
 * code point to fit a search result.
 */
function summary(description: string | undefined): string {
  const text = (description ?? '').replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
  const points = [...sentence];
  return points.length > MAX_SUMMARY_LENGTH
    ? `${points.slice(0, MAX_SUMMARY_LENGTH - 1).join('')}…`
    : sentence;
}

/** Per list of candidates (the same list turn after turn): by exposed name, and their entries. */
const byNames = new WeakMap<
  readonly DeclarationCandidate[],
  ReadonlyMap<string, DeclarationCandidate>
>();
const entryLists = new WeakMap<readonly DeclarationCandidate[], readonly ToolSetEntry[]>();

function candidatesByName(
  candidates: readonly DeclarationCandidate[],
): ReadonlyMap<string, DeclarationCandidate> {
  let found = byNames.get(candidates);
  if (found === undefined) {
    found = new Map(candidates.map((candidate) => [candidate.entry.exposedName, candidate]));
    byNames.set(candidates, found);
  }
  return found;
}

/** The entries of a list of candidates, one list per list (so the ranker's index is kept). */
function entriesOf(candidates: readonly DeclarationCandidate[]): readonly ToolSetEntry[] {
  let found = entryLists.get(candidates);
  if (found === undefined) {
    found = Object.freeze(candidates.map((candidate) => candidate.entry));
    entryLists.set(candidates, found);
  }
  return found;
}

/**
 * One conversation's discovery: the tools loaded so far, in the order loaded, the select hook
 * that declares them, and the answers to `gmk__search_tools`.
 */
export class Discovery implements ToolDiscovery {
  readonly selection: ToolSelection;
  readonly maxTools?: number;
  /** Exposed names loaded, in the order loaded. */
  readonly #loaded = new Map<string, number>();
  /** The candidates and room of the last request planned (what a search may load). */
  #candidates: readonly DeclarationCandidate[] = [];
  #room = Number.POSITIVE_INFINITY;

  constructor(selection: ToolSelection) {
    this.selection = selection;
    if (selection.maxTools !== undefined) this.maxTools = selection.maxTools;
  }

  /** `gmk__search_tools`, the one declaration of its own, in a schema mode. */
  reserved(mode: 'json' | 'openapi'): readonly FunctionDeclaration[] {
    return [searchDeclaration(mode)];
  }

  toolConfig(tools: readonly FunctionTool<SchemaMode>[]): ToolConfig | undefined {
    const { mode } = this.selection;
    if (mode === 'AUTO') return undefined;
    const names = tools.flatMap((tool) => tool.functionDeclarations.map((d) => d.name));
    return { functionCallingConfig: { mode, allowedFunctionNames: names } };
  }

  /** The select hook: the loaded tools among the candidates, in the order loaded. */
  readonly select: DeclarationSelector = (candidates, context) => {
    this.#candidates = candidates;
    this.#room = context.budget.maxDeclarations - context.reserved.length;
    const byName = candidatesByName(candidates);
    return [...this.#loaded.keys()].flatMap((name) => {
      const candidate = byName.get(name);
      return candidate === undefined ? [] : [candidate];
    });
  };

  /** The exposed names loaded, in order. */
  loaded(): string[] {
    return [...this.#loaded.keys()];
  }

  /**
   * Answers a call of `gmk__search_tools`: ranks the tools the last request could declare, loads
   * those found while the budget has room, and returns them (name, one-line description, and
   * whether they are loaded) as a tool result.
   */
  async search(args: Readonly<Record<string, unknown>>): Promise<ToolResult> {
    const { query } = args;
    if (typeof query !== 'string' || query.trim() === '') {
      return {
        isError: true,
        content: [{ type: 'text', text: 'Give "query": a few words saying what you want to do.' }],
      };
    }
    const tools = entriesOf(this.#candidates);
    const found = await this.selection.rank(query, tools);
    const byName = candidatesByName(this.#candidates);
    const results = found.map((entry) => {
      const name = entry.exposedName;
      if (!this.#loaded.has(name) && this.#loaded.size < this.#room) {
        this.#loaded.set(name, this.#loaded.size);
      }
      const description = summary(byName.get(name)?.declaration.description);
      return { name, description, loaded: this.#loaded.has(name) };
    });
    const full = results.some((result) => !result.loaded);
    const text =
      results.length === 0
        ? 'No tool matches; try other words.'
        : `${results.map((r) => `${r.name}: ${r.description}${r.loaded ? '' : ' (not loaded: the request is full)'}`).join('\n')}\nThese tools can be called from your next turn.${full ? ' Some could not be loaded: the request holds as many tools as it may.' : ''}`;
    return { content: [{ type: 'text', text }], structuredContent: { tools: results } };
  }
}

/** The tools a request offers the model: the declared tool set and the search function. */
export function withSearch(offered: ToolSet): ToolSet {
  return withOwnFunctions(offered, [SEARCH_TOOL_ENTRY]);
}
