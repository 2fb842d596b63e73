/**
 * What a conversation declares, turn after turn: the tool set fitted to the budget of its dialect,
 * in a stable, append-only order (a tool declared once keeps its place, new ones come after it,
 * so a cached prefix of the request survives the next turn), without the tools the API refused,
 * within what refusals taught the budget. And the recovery from a refusal: traced to its tools
 * (by the API's own words, or by a bounded bisection), which are left out, and one retry.
 */

import type { Dialect } from '../../adapter/dialect.js';
import { type DeclarationBudget, measureDeclaration, resolveBudget } from '../../adapter/limits.js';
import type { FunctionTool, ResponseInput, SchemaMode } from '../../adapter/shapes.js';
import {
  type FunctionDeclarationsOptions,
  fitToolSet,
  fittedTools,
} from '../../adapter/tools/declarations.js';
import {
  type DeclarationCandidate,
  type DeclarationSelector,
  type FittedDeclarations,
  leftOutWarning,
  selectorOf,
} from '../../adapter/tools/fit.js';
import type { ToolSet } from '../../adapter/tools/toolset-types.js';
import { type Refusal, traceRefusal } from '../../adapter/turn/refusal.js';
import { GeminiMcpError } from '../../errors.js';
import type { FunctionDeclaration } from '../../generated/types.js';

/** The requests a bisection may make by default (it then tells apart one tool among 32). */
const DEFAULT_MAX_BISECT_REQUESTS = 5;

/** How a conversation answers a refusal. */
export interface RefusalOptions {
  /**
   * When the API refuses a request for its declarations (HTTP 400 naming a declaration, too
   * many declarations, a schema error naming none), leave the tools it concerns out, with a
   * `TOOL_REFUSED` warning naming the API's message, and retry the request once (default
   * `true`). `false`: the error propagates.
   */
  readonly retryRefused?: boolean;
  /**
   * Requests at most to trace a refusal that names no declaration ("too many states", the
   * nesting depth without a name, "Request contains an invalid argument."), by bisection over
   * the declarations (default 5; 0: the error propagates, its likely tools named by size).
   */
  readonly maxBisectRequests?: number;
}

/** One planned request: the fitted declarations and the `tools` they make. */
export interface PlannedRequest<M extends SchemaMode> {
  readonly fitted: FittedDeclarations;
  readonly tools: FunctionTool<M>[];
}

/** What gemini-mcp-kit's own functions (a tool selection's search, the resource functions) add to a conversation's plan. */
export interface PlanSelection {
  /** gemini-mcp-kit's own declarations, first in every request, counted in the budget. */
  readonly reserved: readonly FunctionDeclaration[];
  /** What to declare (it wins over `declarations.budget.select`); without it, the budget's. */
  readonly select?: DeclarationSelector;
  /** Declarations per request at most (under the dialect's). */
  readonly maxDeclarations?: number;
}

/** The budget refusals taught a conversation. */
interface Learned {
  maxDeclarations?: number;
  maxRequestBytes?: number;
}

/** A conversation's declarations, turn after turn. */
export class DeclarationPlan<M extends SchemaMode> {
  readonly #options: FunctionDeclarationsOptions<M>;
  readonly #dialect: Dialect | undefined;
  /** Exposed name to why it is left out: the API refused it. */
  readonly #refused = new Map<string, string>();
  readonly #learned: Learned = {};
  /** Exposed names, in the order first declared. */
  readonly #order = new Map<string, number>();
  readonly #selection: PlanSelection | undefined;

  constructor(
    options: FunctionDeclarationsOptions<M> = {},
    dialect?: Dialect,
    selection?: PlanSelection,
  ) {
    this.#options = options;
    this.#dialect = dialect;
    this.#selection = selection;
  }

  /** The budget: the dialect's limits, the options' figures, then what refusals taught. */
  budget(): DeclarationBudget {
    const budget = this.#budget();
    const most = this.#selection?.maxDeclarations;
    return most === undefined || most >= budget.maxDeclarations
      ? budget
      : { ...budget, maxDeclarations: most };
  }

  #budget(): DeclarationBudget {
    const given = this.#options.budget;
    if (given === false) {
      return resolveBudget({
        ...this.#dialectOption(),
        maxDeclarations: this.#learned.maxDeclarations ?? Number.POSITIVE_INFINITY,
        maxRequestBytes: this.#learned.maxRequestBytes ?? Number.POSITIVE_INFINITY,
        maxDeclarationBytes: Number.POSITIVE_INFINITY,
        maxDepth: Number.POSITIVE_INFINITY,
      });
    }
    const budget = resolveBudget({ ...this.#dialectOption(), ...given });
    return {
      ...budget,
      maxDeclarations: Math.min(budget.maxDeclarations, this.#learned.maxDeclarations ?? Infinity),
      maxRequestBytes: Math.min(budget.maxRequestBytes, this.#learned.maxRequestBytes ?? Infinity),
    };
  }

  #dialectOption(): { dialect?: Dialect } {
    return this.#dialect === undefined ? {} : { dialect: this.#dialect };
  }

  /** Plans the request of `turn` (the left-out tools are in `fitted.leftOut`, not yet reported). */
  next(toolset: ToolSet, turn: number): PlannedRequest<M> {
    const given = this.#options.budget;
    const select =
      this.#selection?.select ?? (given === false ? undefined : selectorOf(given?.select));
    const fitted = fitToolSet(toolset, this.#options, {
      budget: this.budget(),
      ...(this.#selection === undefined ? {} : { reserved: this.#selection.reserved }),
      refused: this.#refused,
      checkLimits: given !== false,
      turn,
      select: this.#stable(select),
    });
    for (const candidate of fitted.chosen) {
      if (!this.#order.has(candidate.entry.exposedName)) {
        this.#order.set(candidate.entry.exposedName, this.#order.size);
      }
    }
    return { fitted, tools: fittedTools<M>(fitted) };
  }

  /** Reports the left-out tools of a planned request to the declarations' `onWarning`. */
  report(planned: PlannedRequest<M>): void {
    const { onWarning } = this.#options;
    if (onWarning === undefined) return;
    for (const left of planned.fitted.leftOut) onWarning(leftOutWarning(left));
  }

  /** Leaves a tool out for the rest of the conversation: the API refused it (`why`). */
  refuse(exposedName: string, why: string): void {
    this.#refused.set(exposedName, why);
  }

  /** Lowers the budget for the rest of the conversation. */
  learn(learned: Learned): void {
    if (learned.maxDeclarations !== undefined) {
      this.#learned.maxDeclarations = Math.min(
        learned.maxDeclarations,
        this.#learned.maxDeclarations ?? Infinity,
      );
    }
    if (learned.maxRequestBytes !== undefined) {
      this.#learned.maxRequestBytes = Math.min(
        learned.maxRequestBytes,
        this.#learned.maxRequestBytes ?? Infinity,
      );
    }
  }

  /**
   * The selection, then the stable order: what was declared before keeps its place (in the order
   * first declared), what is new comes after it, in the selection's order.
   */
  #stable(select: DeclarationSelector | undefined): DeclarationSelector {
    return (candidates, context) => {
      const picked = select === undefined ? candidates : select(candidates, context);
      const rank = (candidate: DeclarationCandidate): number =>
        this.#order.get(candidate.entry.exposedName) ?? Number.POSITIVE_INFINITY;
      return picked
        .map((candidate, index) => ({ candidate, index }))
        .sort((a, b) => rank(a.candidate) - rank(b.candidate) || a.index - b.index)
        .map(({ candidate }) => candidate);
    };
  }
}

/** Asks the model with the given `tools` (the same contents, signal and notices). */
type Ask<R> = (tools: FunctionTool<SchemaMode>[]) => Promise<R>;

/** What {@link recoverRefusal} needs. */
export interface Recovery<R extends ResponseInput, M extends SchemaMode> {
  readonly plan: DeclarationPlan<M>;
  readonly toolset: ToolSet;
  readonly planned: PlannedRequest<M>;
  readonly turn: number;
  readonly ask: Ask<R>;
  readonly options: RefusalOptions;
  readonly signal?: AbortSignal | undefined;
}

/** The API's message, in a warning: cut to 500 characters. */
function said(refusal: Refusal): string {
  const message = refusal.message.replace(/\s+/g, ' ').trim();
  const cut = message.length > 500 ? `${message.slice(0, 500)}...` : message;
  return `the API refused the request (HTTP ${refusal.status ?? 400}: "${cut}")`;
}

/** `name (12.3 KB)`, the largest first: the tools a refusal likely concerns. */
function bySize(candidates: readonly DeclarationCandidate[]): string {
  return [...candidates]
    .sort((a, b) => b.measure.bytes - a.measure.bytes)
    .map((c) => `${c.entry.exposedName} (${(c.measure.bytes / 1000).toFixed(1)} KB)`)
    .join(', ');
}

/** The tool set's own tools among the declarations a refusal names (never a reserved function). */
function ownRefused(refusal: Refusal, toolset: ToolSet): { name: string; reason: string }[] {
  return refusal.declarations.flatMap((declaration) =>
    declaration.name !== undefined && toolset.resolve(declaration.name) !== undefined
      ? [{ name: declaration.name, reason: declaration.reasons[0] ?? '' }]
      : [],
  );
}

/** The refusal, kept as the cause of an error that names what it likely concerns. */
function untraced(error: unknown, refusal: Refusal, likely: readonly DeclarationCandidate[]) {
  return new GeminiMcpError(
    'INVALID_PAYLOAD',
    `${said(refusal)}, and no declaration was traced; the tools it likely concerns, largest first: ${bySize(likely)}`,
    { data: { refusal }, cause: error },
  );
}

/** The number of declarations of a planned request that are the tool set's (not reserved). */
const chosenOf = <M extends SchemaMode>(planned: PlannedRequest<M>) => planned.fitted.chosen;

/**
 * Answers an error of a model call: when it is the API refusing the request for its
 * declarations, traces it to the tools concerned, leaves them out (or lowers the budget) for the
 * rest of the conversation, and asks once more; anything else, or a second refusal, throws.
 *
 * - Declarations named (by index or name): those tools are refused.
 * - Too many declarations: the count the API gives becomes the budget.
 * - A refusal naming none: up to `maxBisectRequests` requests with the first half, quarter, ...
 *   of the declarations find the shortest refused prefix. For "too many states" the longest
 *   accepted prefix's size becomes the byte budget (its answer is used when the retry would ask
 *   the same); otherwise the declaration that tips it (or the few still suspected, named by
 *   size) is refused.
 */
export async function recoverRefusal<R extends ResponseInput, M extends SchemaMode>(
  error: unknown,
  recovery: Recovery<R, M>,
): Promise<{ response: R; planned: PlannedRequest<M> }> {
  const { plan, toolset, planned, options } = recovery;
  if (options.retryRefused === false || chosenOf(planned).length === 0) throw error;
  const refusal = traceRefusal(error, { tools: planned.tools }, toolset);
  if (refusal === undefined || refusal.kind === 'other') throw error;
  let reuse: { response: R; prefix: number } | undefined;
  if (refusal.kind === 'declarations') {
    const ours = ownRefused(refusal, toolset);
    if (ours.length === 0) throw error;
    for (const { name, reason } of ours) {
      plan.refuse(name, `${said(refusal)}${reason === '' ? '' : `; about it: ${reason}`}`);
    }
  } else if (refusal.kind === 'declaration-count') {
    const count = planned.fitted.declarations.length;
    const cap = Math.min(refusal.limit ?? count - 1, count - 1);
    if (cap < 1) throw error;
    plan.learn({ maxDeclarations: cap });
  } else {
    reuse = await bisect(error, refusal, recovery);
  }
  const retry = plan.next(toolset, recovery.turn);
  const sameAs = (count: number): boolean =>
    chosenOf(retry).length === count &&
    chosenOf(retry).every((candidate, i) => candidate === chosenOf(planned)[i]);
  if (reuse !== undefined && sameAs(reuse.prefix))
    return { response: reuse.response, planned: retry };
  if (sameAs(chosenOf(planned).length)) throw error;
  return { response: await recovery.ask(retry.tools), planned: retry };
}

/** Traces a refusal that names no declaration by bisection; returns an accepted answer to reuse. */
async function bisect<R extends ResponseInput, M extends SchemaMode>(
  error: unknown,
  refusal: Refusal,
  recovery: Recovery<R, M>,
): Promise<{ response: R; prefix: number } | undefined> {
  const { plan, toolset, planned, options } = recovery;
  const chosen = chosenOf(planned);
  const reserved = planned.fitted.declarations.slice(
    0,
    planned.fitted.declarations.length - chosen.length,
  );
  const max = options.maxBisectRequests ?? DEFAULT_MAX_BISECT_REQUESTS;
  if (!Number.isSafeInteger(max) || max < 0) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `option maxBisectRequests must be a whole number >= 0, got ${String(max)}`,
      { data: { option: 'maxBisectRequests', expected: 'a whole number >= 0' } },
    );
  }
  if (max === 0) throw untraced(error, refusal, chosen);
  let lo = 0;
  let hi = chosen.length;
  let accepted: R | undefined;
  for (let probes = 0; hi - lo > 1 && probes < max; probes++) {
    const mid = Math.floor((lo + hi) / 2);
    const declarations = [...reserved, ...chosen.slice(0, mid).map((c) => c.declaration)];
    const tools = [{ functionDeclarations: declarations }] as FunctionTool<SchemaMode>[];
    try {
      accepted = await recovery.ask(tools);
      lo = mid;
    } catch (probeError) {
      if (recovery.signal?.aborted) throw probeError;
      const probe = traceRefusal(probeError, { tools }, toolset);
      if (probe?.kind === 'unlocated') {
        hi = mid;
        continue;
      }
      const ours = probe?.kind === 'declarations' ? ownRefused(probe, toolset) : [];
      if (probe === undefined || ours.length === 0) throw probeError;
      for (const { name, reason } of ours) {
        plan.refuse(name, `${said(probe)}${reason === '' ? '' : `; about it: ${reason}`}`);
      }
      return undefined;
    }
  }
  const suspects = chosen.slice(lo, hi);
  const traced = `traced by bisection over ${chosen.length} declarations`;
  if (refusal.rule === 'request-declaration-bytes') {
    if (lo === 0) {
      for (const suspect of suspects) {
        plan.refuse(
          suspect.entry.exposedName,
          `${said(refusal)}; ${traced}: refused with it alone among the first declarations`,
        );
      }
      return undefined;
    }
    const bytes = planned.fitted.declarations
      .slice(0, reserved.length + lo)
      .reduce((sum, declaration) => sum + measureDeclaration(declaration).bytes, 0);
    plan.learn({ maxRequestBytes: bytes });
    return accepted === undefined ? undefined : { response: accepted, prefix: lo };
  }
  const which =
    suspects.length === 1
      ? 'the request is refused from this declaration on'
      : `one of these ${suspects.length} declarations, largest first: ${bySize(suspects)}`;
  for (const suspect of suspects) {
    plan.refuse(suspect.entry.exposedName, `${said(refusal)}; ${traced}: ${which}`);
  }
  return accepted === undefined ? undefined : { response: accepted, prefix: lo };
}
