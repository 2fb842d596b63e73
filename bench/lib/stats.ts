/** Order statistics and formatting for the benchmark report. */

/** The `q` quantile (0..1) of ascending `sorted`, linearly interpolated. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  const a = sorted[low]!;
  const b = sorted[high]!;
  return a + (b - a) * (at - low);
}

/** Median and inter-quartile range of a sample. */
export interface Summary {
  readonly median: number;
  readonly p25: number;
  readonly p75: number;
  readonly min: number;
  readonly max: number;
  readonly count: number;
}

/** Summarises `values` (any order). */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    count: sorted.length,
  };
}

/**
 * The 95% interval of a median of `values`, distribution-free: the order statistics n/2 ±
 * 0.98·√n (a sign test), clamped to the values (with few values, their whole range).
 */
export function medianInterval(values: readonly number[]): { low: number; high: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const half = 0.98 * Math.sqrt(sorted.length);
  const at = (rank: number): number =>
    sorted[Math.min(sorted.length - 1, Math.max(0, rank))] ?? Number.NaN;
  return {
    low: at(Math.floor(sorted.length / 2 - half) - 1),
    high: at(Math.ceil(sorted.length / 2 + half) - 1),
  };
}

/** A duration in ms, in the unit that reads best (ns, µs, ms, s). */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  // The unit is chosen after rounding, so 0.000999999 ms reads "1.00 µs", not "1.00e+3 ns".
  const ns = Number((ms * 1e6).toPrecision(3));
  const abs = Math.abs(ns);
  if (abs >= 1e9) return `${(ns / 1e9).toPrecision(3)} s`;
  if (abs >= 1e6) return `${(ns / 1e6).toPrecision(3)} ms`;
  if (abs >= 1e3) return `${(ns / 1e3).toPrecision(3)} µs`;
  return `${ns.toPrecision(3)} ns`;
}

/** Bytes as MB (10^6), to 3 significant digits (whole MB from 1000 up: "1000 MB", not "1.00e+3 MB"). */
export function formatMB(bytes: number): string {
  const mb = Number((bytes / 1e6).toPrecision(3));
  return `${Math.abs(mb) >= 1000 ? mb.toFixed(0) : mb.toPrecision(3)} MB`;
}

/** `median [p25–p75]` of a summary, each value formatted by `format`. */
export function formatSummary(summary: Summary, format: (value: number) => string): string {
  return `${format(summary.median)} [${format(summary.p25)}–${format(summary.p75)}]`;
}

/** A ratio to 2 decimals (3 significant digits above 100). */
export function formatRatio(ratio: number): string {
  return ratio >= 100 ? ratio.toPrecision(3) : ratio.toFixed(2);
}
