/**
 * Fitting a tool set's declarations to a budget (adapter/limits.ts): what breaks a limit on its
 * own is left out, what the selection hook does not pick is not declared, and the rest is taken
 * in order while it fits. Every tool left out is reported; nothing is cut at random.
 */

import { GeminiMcpError, type Warning } from '../../errors.js';
import type { FunctionDeclaration } from '../../generated/types.js';
import {
  type BudgetOptions,
  type DeclarationBudget,
  type DeclarationMeasure,
  declarationProblems,
  limitSource,
  measureDeclaration,
} from '../limits.js';
import type { ToolSet, ToolSetEntry } from './toolset-types.js';

/** What a {@link BudgetWarning} is about. */
export type BudgetWarningCode =
  /** The tool's declaration breaks a limit on its own (too deep, too large, a name the API refuses): never declared under this budget. */
  | 'TOOL_OVER_LIMIT'
  /** The request's budget (declarations, bytes) was spent before the tool's turn: not declared in this request. */
  | 'TOOL_OVER_BUDGET'
  /** The API refused a request for this tool's declaration: left out (for the rest of a conversation). */
  | 'TOOL_REFUSED';

/**
 * A tool left out of a request's declarations, and why (`data.rule`: the limit of
 * schemas/limits.json; `data.bytes` and `data.depth`: the declaration's measure), with `path`
 * into its declaration where the limit names a place.
 */
export interface BudgetWarning extends Warning<BudgetWarningCode> {
  readonly serverId: string;
  /** The tool, as its server names it. */
  readonly toolName: string;
  /** The name the tool is declared under. */
  readonly exposedName: string;
}

/** A tool the budget may declare: its entry, its proven declaration and their measure. */
export interface DeclarationCandidate {
  readonly entry: ToolSetEntry;
  readonly declaration: FunctionDeclaration;
  readonly measure: DeclarationMeasure;
}

/** What the selection hook is told. */
export interface SelectionContext {
  /** The budget the selection is fitted to afterwards. */
  readonly budget: DeclarationBudget;
  /** Declarations of gemini-mcp-kit's own (reserved names), declared first and counted in the budget. */
  readonly reserved: readonly FunctionDeclaration[];
  /** In a conversation: the model turn this request asks for (1 for the first). */
  readonly turn?: number;
}

/**
 * What to declare this turn: given the candidates (every tool whose declaration breaks no limit
 * on its own, in declaration order), returns those to declare, in the order to declare them.
 * The budget is applied to what it returns, so it cannot overspend; a candidate it leaves out
 * is simply not declared (no warning). The default declares every candidate in order.
 */
export type DeclarationSelector = (
  candidates: readonly DeclarationCandidate[],
  context: SelectionContext,
) => readonly DeclarationCandidate[];

/**
 * A selector that brings declarations of its own (a tool discovery, `toolSelection().discovery()`):
 * they are reserved first in every request and counted in the budget, and the request declares at
 * most `maxTools` functions, those included.
 */
export interface DiscoverySelector {
  readonly select: DeclarationSelector;
  /** Declarations per request at most, its own included (under the dialect's). */
  readonly maxTools?: number;
  /** Its own declarations, in a schema mode (their schemas as the other tools' are). */
  reserved(mode: 'json' | 'openapi'): readonly FunctionDeclaration[];
}

/** How a tool set's declarations are fitted to a request: the budget, and what to declare. */
export interface DeclarationBudgetOptions extends BudgetOptions {
  /**
   * Chooses what to declare, before the budget is applied (see {@link DeclarationSelector}).
   * `geminiTools` also takes a tool discovery (`toolSelection().discovery()`): each request then
   * declares `gmk__search_tools` and the tools its searches loaded.
   */
  readonly select?: DeclarationSelector | DiscoverySelector;
}

/**
 * `budget.select` where only a selector function is taken (every caller but `geminiTools`): a
 * tool discovery there is INVALID_INPUT, naming the conversation's own option.
 */
export function selectorOf(
  select: DeclarationSelector | DiscoverySelector | undefined,
): DeclarationSelector | undefined {
  if (select === undefined || typeof select === 'function') return select;
  throw new GeminiMcpError(
    'INVALID_INPUT',
    'budget.select takes a tool discovery in geminiTools only: give runConversation the policy of the discovery as its `selection` option instead',
    { path: '/budget/select', data: { expected: 'a DeclarationSelector function' } },
  );
}

/** A tool left out of the declarations. */
export interface LeftOut {
  readonly candidate: DeclarationCandidate;
  readonly code: BudgetWarningCode;
  readonly message: string;
  /** The limit that left it out (an id of schemas/limits.json). */
  readonly rule?: string;
  /** JSON pointer into the declaration, where the limit names a place. */
  readonly path?: string;
}

/** The declarations of one request, fitted. */
export interface FittedDeclarations {
  /** The reserved declarations, then the chosen ones in order. */
  readonly declarations: readonly FunctionDeclaration[];
  readonly chosen: readonly DeclarationCandidate[];
  /** Every tool left out, with why (tools the selection did not pick are not listed). */
  readonly leftOut: readonly LeftOut[];
  /** UTF-8 bytes of the declarations as JSON, together (the reserved ones included). */
  readonly bytes: number;
}

/** Options of {@link fitDeclarations}. */
export interface FitOptions {
  readonly budget: DeclarationBudget;
  readonly reserved?: readonly FunctionDeclaration[];
  readonly select?: DeclarationSelector;
  readonly turn?: number;
  /** Exposed names refused by the API earlier (left out as TOOL_REFUSED, with these messages). */
  readonly refused?: ReadonlyMap<string, string>;
  /** Whether a declaration that breaks a limit on its own is left out (default `true`). */
  readonly checkLimits?: boolean;
}

/** The candidates of a set's declarations, in order (each measured once per declaration). */
export function declarationCandidates(
  pairs: readonly { entry: ToolSetEntry; declaration: FunctionDeclaration }[],
): DeclarationCandidate[] {
  return pairs.map(({ entry, declaration }) => ({
    entry,
    declaration,
    measure: measureDeclaration(declaration),
  }));
}

/**
 * Fits declarations to a budget, deterministically:
 *
 * 1. a declaration that breaks a limit on its own (an error of `declarationProblems`: too deep,
 *    too large, a name or parameter name the API refuses, an empty OBJECT) is left out
 *    (TOOL_OVER_LIMIT), and so is one the API refused before (`refused`: TOOL_REFUSED);
 * 2. the selection hook picks and orders the rest (default: all, in order);
 * 3. the reserved declarations are counted first, then each chosen declaration in order is
 *    taken while the request stays within `maxDeclarations` and `maxRequestBytes`; one that
 *    would not fit is left out (TOOL_OVER_BUDGET) and smaller ones after it may still be taken.
 *
 * The declarations are never split over several Tool entries to pass a cap: the count is per
 * request. Same input, same output: the order of the tool set (or the selection) decides.
 *
 * @example
 * ```ts
 * const fitted = fitDeclarations(candidates, { budget: resolveBudget({ dialect: 'vertex' }) });
 * fitted.declarations.length <= 128; // true
 * ```
 */
export function fitDeclarations(
  candidates: readonly DeclarationCandidate[],
  options: FitOptions,
): FittedDeclarations {
  const { budget } = options;
  const reserved = options.reserved ?? [];
  const { eligible, leftOut: ownLeftOut } = eligibleOf(candidates, options);
  const leftOut = [...ownLeftOut];
  const selected =
    options.select === undefined
      ? eligible
      : pickedFrom(
          eligible,
          options.select(eligible, {
            budget,
            reserved,
            ...(options.turn === undefined ? {} : { turn: options.turn }),
          }),
        );
  let count = reserved.length;
  let bytes = reserved.reduce((sum, declaration) => sum + measureDeclaration(declaration).bytes, 0);
  const chosen: DeclarationCandidate[] = [];
  for (const candidate of selected) {
    const { bytes: size } = candidate.measure;
    if (count + 1 > budget.maxDeclarations) {
      leftOut.push({
        candidate,
        code: 'TOOL_OVER_BUDGET',
        rule: 'declarations-per-request',
        message: `the request already declares ${count} functions, the ${budget.maxDeclarations} of the budget for ${budget.dialect} (${limitSource('declarations-per-request', budget.dialect)})`,
      });
    } else if (bytes + size > budget.maxRequestBytes) {
      leftOut.push({
        candidate,
        code: 'TOOL_OVER_BUDGET',
        rule: 'request-declaration-bytes',
        message: `its ${size} bytes would take the request's declarations to ${bytes + size}, over the ${budget.maxRequestBytes} of the budget (a stand-in for "too many states"; ${limitSource('request-declaration-bytes', budget.dialect)})`,
      });
    } else {
      count++;
      bytes += size;
      chosen.push(candidate);
    }
  }
  return {
    declarations: [...reserved, ...chosen.map((candidate) => candidate.declaration)],
    chosen,
    leftOut,
    bytes,
  };
}

/** The candidates that break no limit on their own, and those left out, sorted once. */
interface Eligibility {
  readonly eligible: readonly DeclarationCandidate[];
  readonly leftOut: readonly LeftOut[];
}

/**
 * Per list of candidates (a tool set's, made once), per budget and refusals: the eligibility, so
 * that a conversation's later turns do not check every declaration of a large set again.
 */
const eligibility = new WeakMap<readonly DeclarationCandidate[], Map<string, Eligibility>>();

/** Budgets and refusals remembered per list of candidates, at most (a bound, not a tuning). */
const MAX_ELIGIBILITIES = 16;

function eligibleOf(candidates: readonly DeclarationCandidate[], options: FitOptions): Eligibility {
  const { budget } = options;
  const refused = options.refused === undefined ? [] : [...options.refused];
  const key = JSON.stringify([
    budget.dialect,
    budget.maxDepth,
    budget.maxDeclarationBytes,
    options.checkLimits !== false,
    refused,
  ]);
  let known = eligibility.get(candidates);
  const found = known?.get(key);
  if (found !== undefined) return found;
  const leftOut: LeftOut[] = [];
  const eligible: DeclarationCandidate[] = [];
  for (const candidate of candidates) {
    const refusal = options.refused?.get(candidate.entry.exposedName);
    if (refusal !== undefined) {
      leftOut.push({ candidate, code: 'TOOL_REFUSED', message: refusal });
      continue;
    }
    const error =
      options.checkLimits === false
        ? undefined
        : declarationProblems(candidate.declaration, budget).find(
            (problem) => problem.severity === 'error',
          );
    if (error === undefined) eligible.push(candidate);
    else {
      leftOut.push({
        candidate,
        code: 'TOOL_OVER_LIMIT',
        rule: error.rule,
        path: error.path,
        message: error.message,
      });
    }
  }
  const result: Eligibility = {
    eligible: Object.freeze(eligible),
    leftOut: Object.freeze(leftOut),
  };
  if (known === undefined) {
    known = new Map();
    eligibility.set(candidates, known);
  }
  if (known.size >= MAX_ELIGIBILITIES) known.clear();
  known.set(key, result);
  return result;
}

/** The eligible candidates as a set, per list (made once). */
const eligibleSets = new WeakMap<
  readonly DeclarationCandidate[],
  ReadonlySet<DeclarationCandidate>
>();

/** What the selection returned, kept to the eligible candidates, each once. */
function pickedFrom(
  eligible: readonly DeclarationCandidate[],
  picked: readonly DeclarationCandidate[],
): DeclarationCandidate[] {
  let allowed = eligibleSets.get(eligible);
  if (allowed === undefined) {
    allowed = new Set(eligible);
    eligibleSets.set(eligible, allowed);
  }
  const seen = new Set<DeclarationCandidate>();
  return picked.filter((candidate) => {
    if (!allowed.has(candidate) || seen.has(candidate)) return false;
    seen.add(candidate);
    return true;
  });
}

/** The warning for one tool left out, naming it, its server and the limit (or the API's message). */
export function leftOutWarning(left: LeftOut): BudgetWarning {
  const { entry } = left.candidate;
  const what =
    left.code === 'TOOL_REFUSED'
      ? 'left out: the API refused a request for it'
      : left.code === 'TOOL_OVER_LIMIT'
        ? 'left out: its declaration breaks a limit'
        : 'not declared in this request: over the budget';
  return {
    code: left.code,
    serverId: entry.serverId,
    toolName: entry.tool.name,
    exposedName: entry.exposedName,
    ...(left.path === undefined ? {} : { path: left.path }),
    message: `Tool "${entry.exposedName}" (server "${entry.serverId}", tool "${entry.tool.name}") ${what}: ${left.message}`,
    data: {
      ...(left.rule === undefined ? {} : { rule: left.rule }),
      bytes: left.candidate.measure.bytes,
      depth: left.candidate.measure.depth,
    },
  };
}

/**
 * The tools a fitted request declares, as a tool set of their own: the model's calls resolve
 * against it, so a tool left out of the request (over the budget, refused by the API) is never
 * called, whatever name the model sends.
 */
export function declaredToolSet(toolset: ToolSet, fitted: FittedDeclarations): ToolSet {
  if (fitted.chosen.length === toolset.entries.length) return toolset;
  const entries = Object.freeze(fitted.chosen.map((candidate) => candidate.entry));
  const byName = new Map(entries.map((entry) => [entry.exposedName, entry]));
  return {
    entries,
    resolve: (exposedName) => byName.get(exposedName),
    exposedName: (serverId, toolName) => {
      const name = toolset.exposedName(serverId, toolName);
      return name !== undefined && byName.has(name) ? name : undefined;
    },
  };
}

const BUDGET_CODES: ReadonlySet<string> = new Set<BudgetWarningCode>([
  'TOOL_OVER_LIMIT',
  'TOOL_OVER_BUDGET',
  'TOOL_REFUSED',
]);

/**
 * Whether a declaration warning is a {@link BudgetWarning}: a tool left out of a request.
 *
 * @example
 * ```ts
 * geminiTools(toolset, { onWarning: (w) => isBudgetWarning(w) && console.warn(w.toolName, w.message) });
 * ```
 */
export function isBudgetWarning<W extends { readonly code: string }>(
  warning: W,
): warning is W & BudgetWarning {
  return BUDGET_CODES.has(warning.code);
}
