/**
 * The loss report: one warning per lost source keyword (deduplicated by path and keyword, so
 * a `$defs` entry inlined twice is reported once), the per-node scope that records losses, and
 * the short notes `describeLosses` appends to the description of the node that lost them.
 */
import type { Warning } from '../errors.js';
import type { Conjunct } from './keywords.js';

/** What a {@link SchemaWarning} says of its keyword: the `action`, as a warning code. */
export type SchemaWarningCode =
  /** The constraint is gone. */
  | 'SCHEMA_DROPPED'
  /** The constraint is kept in a looser form. */
  | 'SCHEMA_WEAKENED'
  /** The constraint is expressed another way Gemini can carry (see `detail` for what differs). */
  | 'SCHEMA_REWRITTEN';

/** One loss of the conversion, located in the SOURCE schema. */
export interface SchemaWarning extends Warning<SchemaWarningCode> {
  /** JSON pointer to the schema node in the source that held the keyword (`""` for the root). */
  readonly path: string;
  /** The source keyword concerned (`additionalProperties`, `oneOf`, `$ref`, ...). */
  readonly keyword: string;
  /**
   * `dropped`: the constraint is gone; `weakened`: kept in a looser form; `rewritten`: expressed
   * another way Gemini can carry (see `detail` for what differs).
   */
  readonly action: 'dropped' | 'rewritten' | 'weakened';
  /** What was lost, in words. */
  readonly detail: string;
}

const CODES: Readonly<Record<SchemaWarning['action'], SchemaWarningCode>> = {
  dropped: 'SCHEMA_DROPPED',
  weakened: 'SCHEMA_WEAKENED',
  rewritten: 'SCHEMA_REWRITTEN',
};

/** The warning that `keyword` of the source node at `path` was dropped, weakened or rewritten. */
export function schemaWarning(
  path: string,
  keyword: string,
  action: SchemaWarning['action'],
  detail: string,
): SchemaWarning {
  return {
    code: CODES[action],
    message: `${keyword} ${action} (${detail})`,
    path,
    keyword,
    action,
    detail,
  };
}

/** Collects warnings for one conversion. */
export class LossReport {
  /** By path and keyword; made on the first loss (most conversions have none). */
  #warnings: Map<string, SchemaWarning> | undefined;

  /** Records `warning` unless the same path and keyword were reported already. */
  add(warning: SchemaWarning): void {
    const key = `${warning.path}\u0000${warning.keyword}`;
    this.#warnings ??= new Map();
    if (!this.#warnings.has(key)) this.#warnings.set(key, warning);
  }

  /** The warnings, in the order first met. */
  list(): SchemaWarning[] {
    return this.#warnings === undefined ? [] : [...this.#warnings.values()];
  }
}

const NO_NOTES: readonly string[] = [];

/** The losses of one output node: reported, and noted for `describeLosses`. */
export class Scope {
  // A scope is made for every output node: its fields are set by the constructor alone
  // (`declare`d, not class fields, which would cost an initializer call each time).
  declare private readonly report: LossReport;
  declare private readonly noted: boolean;
  declare private lost: string[] | undefined;

  /** `noted`: keep the notes (for `describeLosses`); the report alone otherwise. */
  constructor(report: LossReport, noted: boolean) {
    this.report = report;
    this.noted = noted;
    this.lost = undefined;
  }

  /** Short notes of lost constraints, for `describeLosses` (most nodes lose none: no array then). */
  get notes(): readonly string[] {
    return this.lost ?? NO_NOTES;
  }

  /** Reports that `keyword` of `conjunct` was dropped, weakened or rewritten. */
  lose(conjunct: Conjunct, keyword: string, action: SchemaWarning['action'], detail: string): void {
    this.report.add(schemaWarning(conjunct.pointer, keyword, action, detail));
    if (this.noted && action !== 'rewritten') {
      const node = conjunct.node as Record<string, unknown>;
      this.lost ??= [];
      this.lost.push(lossNote(keyword, Object.hasOwn(node, keyword) ? node[keyword] : undefined));
    }
  }
}

/** A short human note of a lost constraint (`multipleOf 5`), for `describeLosses`. */
function lossNote(keyword: string, value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  if (text.length <= 60) return `${keyword} ${text}`;
  // 57 UTF-16 units, one fewer when the 57th is the first half of a surrogate pair.
  const first = text.charCodeAt(56);
  return `${keyword} ${text.slice(0, first >= 0xd800 && first <= 0xdbff ? 56 : 57)}...`;
}

/** `description` with the notes of its node's lost constraints appended. */
export function describeLosses(
  description: string | undefined,
  notes: readonly string[],
): string | undefined {
  if (notes.length === 0) return description;
  const line = `Constraints not enforced: ${[...new Set(notes)].join('; ')}.`;
  return description === undefined || description === '' ? line : `${description}\n\n${line}`;
}
