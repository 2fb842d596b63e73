/**
 * What every step of one conversion shares (the surveyed input, limits, budget, loss report),
 * and the per-node scope that records losses and the notes `describeLosses` appends.
 */
import type { Schema } from '../generated/types.js';
import type { ExpansionBudget, Limits, SchemaIndex } from './limits.js';
import type { LossReport, SchemaWarning } from './losses.js';
import { lossNote } from './losses.js';
import type { Part } from './parts.js';

/** One conversion's shared state. */
export interface Context {
  readonly index: SchemaIndex;
  /** The root's `$id`, so `$ref`s spelled with it count as local. */
  readonly rootId: string | undefined;
  readonly limits: Limits;
  readonly budget: ExpansionBudget;
  readonly report: LossReport;
  readonly describeLosses: boolean;
  /** Converts a conjunction of parts one level deeper (the recursion, passed in to keep modules acyclic). */
  readonly convert: (parts: readonly Part[], depth: number) => Schema;
}

/** The losses of the output node being built. */
export class Scope {
  readonly ctx: Context;
  /** Short notes of lost constraints, for `describeLosses`. */
  readonly notes: string[] = [];

  constructor(ctx: Context) {
    this.ctx = ctx;
  }

  /** Reports that `keyword` of `part` was dropped, weakened or rewritten. */
  lose(part: Part, keyword: string, action: SchemaWarning['action'], detail: string): void {
    this.ctx.report.add({ pointer: part.pointer, keyword, action, detail });
    if (action !== 'rewritten') {
      const node = part.node as Record<string, unknown>;
      this.notes.push(lossNote(keyword, Object.hasOwn(node, keyword) ? node[keyword] : undefined));
    }
  }
}
