/**
 * Bounds across a conjunction: counts (lengths, item and property counts), written as the int64
 * strings Gemini expects, and numeric bounds with their exclusivity (draft-4 booleans or
 * draft-6+ numbers), rounded exactly for integers.
 */
import type { Scope } from './context.js';
import type { Part } from './parts.js';
import { read, Unsatisfiable } from './parts.js';

/** The tightest `min`/`max` count of a conjunction. */
export interface CountBounds {
  min?: number;
  max?: number;
}

/** Reads `minKeyword`/`maxKeyword` of every part: the largest minimum, the smallest maximum. */
export function countBounds(
  scope: Scope,
  parts: readonly Part[],
  minKeyword: string,
  maxKeyword: string,
): CountBounds {
  const out: CountBounds = {};
  for (const part of parts) {
    for (const [keyword, side] of [
      [minKeyword, 'min'],
      [maxKeyword, 'max'],
    ] as const) {
      const value = read(part, keyword);
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
        scope.lose(part, keyword, 'dropped', 'not a non-negative integer Gemini can take');
        continue;
      }
      const current = out[side];
      if (current === undefined) out[side] = value;
      else out[side] = side === 'min' ? Math.max(current, value) : Math.min(current, value);
    }
  }
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) {
    throw new Unsatisfiable(parts[0]?.pointer ?? '', `${minKeyword} exceeds ${maxKeyword}`);
  }
  return out;
}

/** A count as Gemini's int64 JSON string. */
export function int64(count: number): string {
  return String(count);
}

/** One numeric bound and where it came from. */
interface NumericBound {
  readonly value: number;
  readonly exclusive: boolean;
  readonly part: Part;
  readonly keyword: string;
}

/** The tightest numeric bounds of a conjunction. */
export interface NumericBounds {
  lower?: NumericBound;
  upper?: NumericBound;
}

const SIDES = [
  { side: 'lower', inclusive: 'minimum', exclusive: 'exclusiveMinimum' },
  { side: 'upper', inclusive: 'maximum', exclusive: 'exclusiveMaximum' },
] as const;

/** Reads `minimum`, `maximum` and both exclusive forms of every part. */
export function numericBounds(scope: Scope, parts: readonly Part[]): NumericBounds {
  const out: NumericBounds = {};
  for (const part of parts) {
    for (const { side, inclusive, exclusive } of SIDES) {
      const plain = read(part, inclusive);
      const strict = read(part, exclusive);
      const candidates: NumericBound[] = [];
      if (plain !== undefined) {
        if (typeof plain !== 'number') scope.lose(part, inclusive, 'dropped', 'not a number');
        else if (strict === true)
          candidates.push({ value: plain, exclusive: true, part, keyword: exclusive });
        else candidates.push({ value: plain, exclusive: false, part, keyword: inclusive });
      }
      if (typeof strict === 'number') {
        candidates.push({ value: strict, exclusive: true, part, keyword: exclusive });
      } else if (strict !== undefined && typeof strict !== 'boolean') {
        scope.lose(part, exclusive, 'dropped', 'not a number');
      }
      for (const candidate of candidates) out[side] = tighter(side, out[side], candidate);
    }
  }
  return out;
}

function tighter(
  side: 'lower' | 'upper',
  current: NumericBound | undefined,
  candidate: NumericBound,
): NumericBound {
  if (current === undefined) return candidate;
  if (candidate.value === current.value) return candidate.exclusive ? candidate : current;
  const candidateWins =
    side === 'lower' ? candidate.value > current.value : candidate.value < current.value;
  return candidateWins ? candidate : current;
}

/** True when `value` lies within `bounds`. */
export function withinBounds(value: number, bounds: NumericBounds): boolean {
  const { lower, upper } = bounds;
  if (lower !== undefined && (lower.exclusive ? value <= lower.value : value < lower.value))
    return false;
  if (upper !== undefined && (upper.exclusive ? value >= upper.value : value > upper.value))
    return false;
  return true;
}
