/**
 * What every part of the conversion shares: the conversion's state ({@link Context}) and the
 * scope of the node being built ({@link NodeScope}), through which a construct converts its
 * children (the recursion itself is node.ts's).
 */

import type { Schema } from '../../generated/types.js';
import type { Conjunct } from '../keywords.js';
import type { ExpansionBudget, ExpansionPlan, Limits } from '../limits.js';
import type { LossReport } from '../losses.js';
import { Scope } from '../losses.js';
import type { RefResolver } from '../refs.js';

/** One conversion's shared state. */
export interface Context {
  readonly refs: RefResolver;
  /** How far `$ref`s are expanded, decided before the conversion. */
  readonly plan: ExpansionPlan;
  readonly limits: Limits;
  readonly budget: ExpansionBudget;
  readonly report: LossReport;
  readonly describeLosses: boolean;
}

/**
 * The losses of the output node being built, and the conversion it belongs to. Without
 * `describeLosses` no node keeps notes of its own, so one scope serves the whole conversion.
 * Unions, arrays and objects convert their children with {@link NodeScope.convertChild}, which
 * node.ts implements: they never import the recursion back.
 */
export abstract class NodeScope extends Scope {
  declare readonly ctx: Context;

  constructor(ctx: Context) {
    super(ctx.report, ctx.describeLosses);
    this.ctx = ctx;
  }

  /** Converts the conjunction `input` one level below this scope's node, at `depth`. */
  abstract convertChild(input: readonly Conjunct[], depth: number): Schema;
}
