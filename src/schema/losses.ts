/**
 * The loss report: one warning per lost source keyword (deduplicated by pointer and keyword, so
 * a `$defs` entry inlined twice is reported once), and the short notes `describeLosses` appends
 * to the description of the node that lost them.
 */

/** One loss of the conversion, located in the SOURCE schema. */
export interface SchemaWarning {
  /** JSON pointer to the schema node in the source that held the keyword (`""` for the root). */
  pointer: string;
  /** The source keyword concerned (`additionalProperties`, `oneOf`, `$ref`, ...). */
  keyword: string;
  /**
   * `dropped`: the constraint is gone; `weakened`: kept in a looser form; `rewritten`: expressed
   * another way Gemini can carry (see `detail` for what differs).
   */
  action: 'dropped' | 'rewritten' | 'weakened';
  /** What was lost, in words. */
  detail: string;
}

/** Collects warnings for one conversion. */
export class LossReport {
  readonly #warnings = new Map<string, SchemaWarning>();

  /** Records `warning` unless the same pointer and keyword were reported already. */
  add(warning: SchemaWarning): void {
    const key = `${warning.pointer}\u0000${warning.keyword}`;
    if (!this.#warnings.has(key)) this.#warnings.set(key, warning);
  }

  /** The warnings, in the order first met. */
  list(): SchemaWarning[] {
    return [...this.#warnings.values()];
  }
}

/** A short human note of a lost constraint (`multipleOf 5`), for `describeLosses`. */
export function lossNote(keyword: string, value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return `${keyword} ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
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
