/**
 * STRING, NUMBER/INTEGER and BOOLEAN nodes: lengths, pattern, bounds, the formats Gemini
 * accepts, and enums. Gemini's `enum` holds strings only, so numbers in an enum become exact
 * `minimum`/`maximum` ranges (contiguous integers merged), never strings the tool would not take.
 */
import type { Schema } from '../generated/types.js';
import type { NumericBounds } from './bounds.js';
import { countBounds, int64, numericBounds, withinBounds } from './bounds.js';
import type { Scope } from './context.js';
import { ACCEPTED_FORMATS } from './keywords.js';
import type { GeminiType } from './kinds.js';
import type { Part } from './parts.js';
import { read, Unsatisfiable } from './parts.js';

/** How an enum (or `const`) had to change, reported once for the keyword after all types are built. */
export interface EnumIssues {
  weakened: string[];
  rewritten: string[];
}

/** The `format` of a conjunction, reported as dropped when none of `types` accepts it. */
export function readFormat(
  scope: Scope,
  parts: readonly Part[],
  types: readonly GeminiType[],
): string | undefined {
  let chosen: { value: string; part: Part } | undefined;
  for (const part of parts) {
    const value = read(part, 'format');
    if (value === undefined) continue;
    if (typeof value !== 'string') scope.lose(part, 'format', 'dropped', 'not a string');
    else if (chosen === undefined) chosen = { value, part };
    else if (value !== chosen.value) {
      scope.lose(part, 'format', 'dropped', `another format ("${chosen.value}") applies here`);
    }
  }
  if (chosen === undefined) return undefined;
  const { value, part } = chosen;
  if (!types.some((type) => acceptsFormat(type, value))) {
    const accepted = types.flatMap((type) => ACCEPTED_FORMATS[type] ?? []);
    scope.lose(
      part,
      'format',
      'dropped',
      `Gemini takes ${accepted.length === 0 ? 'no format' : accepted.map((f) => `"${f}"`).join(', ')} here, not "${value}"`,
    );
  }
  return value;
}

function acceptsFormat(type: GeminiType, format: string): boolean {
  return (ACCEPTED_FORMATS[type] ?? []).includes(format);
}

function withFormat(schema: Schema, type: GeminiType, format: string | undefined): Schema {
  if (format !== undefined && acceptsFormat(type, format)) schema.format = format;
  return schema;
}

/** A STRING node. */
export function buildString(
  scope: Scope,
  parts: readonly Part[],
  values: readonly unknown[] | undefined,
  format: string | undefined,
): Schema {
  const schema = withFormat({ type: 'STRING' }, 'STRING', format);
  const { min, max } = countBounds(scope, parts, 'minLength', 'maxLength');
  if (min !== undefined) schema.minLength = int64(min);
  if (max !== undefined) schema.maxLength = int64(max);
  for (const part of parts) {
    const pattern = read(part, 'pattern');
    if (pattern === undefined) continue;
    if (typeof pattern !== 'string') scope.lose(part, 'pattern', 'dropped', 'not a string');
    else if (schema.pattern === undefined) schema.pattern = pattern;
    else if (schema.pattern !== pattern) {
      scope.lose(part, 'pattern', 'dropped', 'Gemini takes one pattern; another applies here');
    }
  }
  if (values !== undefined) {
    schema.enum = values.filter((value): value is string => typeof value === 'string');
  }
  return schema;
}

/** NUMBER or INTEGER nodes: one, or one per range of the enum's numbers. */
export function buildNumber(
  scope: Scope,
  parts: readonly Part[],
  type: 'NUMBER' | 'INTEGER',
  values: readonly unknown[] | undefined,
  format: string | undefined,
  issues: EnumIssues,
): Schema[] {
  const bounds = numericBounds(scope, parts);
  if (values !== undefined) {
    const numbers = values.filter(
      (value): value is number =>
        typeof value === 'number' &&
        (type === 'NUMBER' || Number.isInteger(value)) &&
        withinBounds(value, bounds),
    );
    if (numbers.length === 0) {
      throw new Unsatisfiable(
        parts[0]?.pointer ?? '',
        'no number of the enum lies within the bounds',
      );
    }
    issues.rewritten.push(
      'numbers written as minimum/maximum ranges, Gemini enums hold strings only',
    );
    return numberRanges(numbers).map(([low, high]) =>
      Number.isInteger(low)
        ? withFormat({ type: 'INTEGER', minimum: low, maximum: high }, 'INTEGER', format)
        : withFormat({ type: 'NUMBER', minimum: low, maximum: high }, 'NUMBER', format),
    );
  }
  const schema = withFormat({ type }, type, format);
  const { minimum, maximum } =
    type === 'INTEGER' ? integerRange(bounds) : numberRange(scope, bounds);
  if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
    throw new Unsatisfiable(parts[0]?.pointer ?? '', 'the minimum exceeds the maximum');
  }
  if (minimum !== undefined) schema.minimum = minimum;
  if (maximum !== undefined) schema.maximum = maximum;
  return [schema];
}

/** Integer bounds, exclusive ones moved to the next integer: exact. */
function integerRange(bounds: NumericBounds): { minimum?: number; maximum?: number } {
  const { lower, upper } = bounds;
  const out: { minimum?: number; maximum?: number } = {};
  if (lower !== undefined)
    out.minimum = lower.exclusive ? Math.floor(lower.value) + 1 : Math.ceil(lower.value);
  if (upper !== undefined)
    out.maximum = upper.exclusive ? Math.ceil(upper.value) - 1 : Math.floor(upper.value);
  return out;
}

/** Number bounds; an exclusive one is sent inclusive (weakened). */
function numberRange(scope: Scope, bounds: NumericBounds): { minimum?: number; maximum?: number } {
  const { lower, upper } = bounds;
  const out: { minimum?: number; maximum?: number } = {};
  if (
    lower !== undefined &&
    upper !== undefined &&
    lower.value === upper.value &&
    (lower.exclusive || upper.exclusive)
  ) {
    throw new Unsatisfiable(lower.part.pointer, 'the exclusive bounds leave no number');
  }
  for (const bound of [lower, upper]) {
    if (bound?.exclusive) {
      scope.lose(
        bound.part,
        bound.keyword,
        'weakened',
        `sent as the inclusive ${bound === lower ? 'minimum' : 'maximum'} ${bound.value}`,
      );
    }
  }
  if (lower !== undefined) out.minimum = lower.value;
  if (upper !== undefined) out.maximum = upper.value;
  return out;
}

/** Sorted, distinct numbers as `[low, high]` ranges: runs of consecutive integers merged. */
function numberRanges(numbers: readonly number[]): [number, number][] {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const value of sorted) {
    const last = ranges.at(-1);
    if (
      last !== undefined &&
      Number.isInteger(value) &&
      Number.isInteger(last[1]) &&
      value === last[1] + 1
    ) {
      last[1] = value;
    } else {
      ranges.push([value, value]);
    }
  }
  return ranges;
}

/** A BOOLEAN node; an enum of one boolean cannot be pinned. */
export function buildBoolean(values: readonly unknown[] | undefined, issues: EnumIssues): Schema {
  if (
    values !== undefined &&
    new Set(values.filter((value) => typeof value === 'boolean')).size === 1
  ) {
    issues.weakened.push('a single boolean cannot be pinned: both are accepted');
  }
  return { type: 'BOOLEAN' };
}
