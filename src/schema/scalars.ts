/**
 * The leaves: STRING, NUMBER/INTEGER and BOOLEAN nodes (lengths, pattern, bounds, the formats
 * Gemini accepts, enums), and the bounds of a conjunction. Counts are written as the int64 strings
 * Gemini expects; numeric bounds keep their exclusivity (draft-4 booleans or draft-6+ numbers),
 * rounded exactly for integers. Gemini's `enum` holds strings only, so numbers in an enum become
 * exact `minimum`/`maximum` ranges (contiguous integers merged), never strings the tool would not
 * take.
 */
import type { Schema } from '../generated/types.js';
import type { Conjunct, GeminiType, Keyword } from './keywords.js';
import { ACCEPTED_FORMATS, KW, read, Unsatisfiable } from './keywords.js';
import type { Scope } from './losses.js';

/**
 * A new node of `type`, made empty and then typed: an empty object holds four properties in
 * itself, where a `{ type }` literal holds one and puts the next in a separate store (most nodes
 * end with two to four: `type`, `description`, `format`, `nullable`, `enum`...).
 */
export function typedNode(type: NonNullable<Schema['type']>): Schema {
  const schema: Schema = {};
  schema.type = type;
  return schema;
}

/** The tightest `min`/`max` count of a conjunction. */
interface CountBounds {
  min?: number;
  max?: number;
}

/** The bounds of a conjunction that states none (never written to). */
const NO_BOUNDS: CountBounds = Object.freeze({});

/** A pair of count keywords, and their mask. */
interface CountKeywords {
  readonly min: Keyword;
  readonly max: Keyword;
  readonly keys: number;
}

function countKeywords(min: Keyword, max: Keyword): CountKeywords {
  return { min, max, keys: KW[min] | KW[max] };
}

/** `minLength`/`maxLength`. */
const LENGTH = countKeywords('minLength', 'maxLength');
/** `minItems`/`maxItems`. */
export const ITEM_COUNT = countKeywords('minItems', 'maxItems');
/** `minProperties`/`maxProperties`. */
export const PROPERTY_COUNT = countKeywords('minProperties', 'maxProperties');

/** Reads the `count` keywords of every conjunct: the largest minimum, the smallest maximum. */
export function countBounds(
  scope: Scope,
  conjuncts: readonly Conjunct[],
  count: CountKeywords,
): CountBounds {
  const { min: minKeyword, max: maxKeyword, keys } = count;
  let present = 0;
  for (const conjunct of conjuncts) present |= conjunct.keys;
  if ((present & keys) === 0) return NO_BOUNDS;
  const out: CountBounds = {};
  for (const conjunct of conjuncts) {
    if ((conjunct.keys & keys) === 0) continue;
    const min = readCount(scope, conjunct, minKeyword);
    if (min !== undefined) out.min = out.min === undefined ? min : Math.max(out.min, min);
    const max = readCount(scope, conjunct, maxKeyword);
    if (max !== undefined) out.max = out.max === undefined ? max : Math.min(out.max, max);
  }
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) {
    throw new Unsatisfiable(conjuncts[0]?.pointer ?? '', `${minKeyword} exceeds ${maxKeyword}`);
  }
  return out;
}

/** The count `keyword` of `conjunct`; one that is not a non-negative integer is reported. */
function readCount(scope: Scope, conjunct: Conjunct, keyword: Keyword): number | undefined {
  const value = read(conjunct, keyword);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    scope.lose(conjunct, keyword, 'dropped', 'not a non-negative integer Gemini can take');
    return undefined;
  }
  return value;
}

/** A count as Gemini's int64 JSON string. */
export function int64(count: number): string {
  return String(count);
}

/** One numeric bound and where it came from. */
interface NumericBound {
  readonly value: number;
  readonly exclusive: boolean;
  readonly conjunct: Conjunct;
  readonly keyword: string;
}

/** The tightest numeric bounds of a conjunction. */
interface NumericBounds {
  lower?: NumericBound;
  upper?: NumericBound;
}

const SIDES = [
  { side: 'lower', inclusive: 'minimum', exclusive: 'exclusiveMinimum' },
  { side: 'upper', inclusive: 'maximum', exclusive: 'exclusiveMaximum' },
] as const;

/** `minimum`, `maximum` and both exclusive forms. */
const BOUND_KEYS = KW.minimum | KW.maximum | KW.exclusiveMinimum | KW.exclusiveMaximum;

/** Reads `minimum`, `maximum` and both exclusive forms of every conjunct. */
function numericBounds(scope: Scope, conjuncts: readonly Conjunct[]): NumericBounds {
  const out: NumericBounds = {};
  for (const conjunct of conjuncts) {
    if ((conjunct.keys & BOUND_KEYS) === 0) continue;
    for (const { side, inclusive, exclusive } of SIDES) {
      const plain = read(conjunct, inclusive);
      const strict = read(conjunct, exclusive);
      if (plain !== undefined) {
        if (typeof plain !== 'number') scope.lose(conjunct, inclusive, 'dropped', 'not a number');
        else
          out[side] = tighter(
            side,
            out[side],
            strict === true
              ? { value: plain, exclusive: true, conjunct, keyword: exclusive }
              : { value: plain, exclusive: false, conjunct, keyword: inclusive },
          );
      }
      if (typeof strict === 'number') {
        out[side] = tighter(side, out[side], {
          value: strict,
          exclusive: true,
          conjunct,
          keyword: exclusive,
        });
      } else if (strict !== undefined && typeof strict !== 'boolean') {
        scope.lose(conjunct, exclusive, 'dropped', 'not a number');
      }
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
function withinBounds(value: number, bounds: NumericBounds): boolean {
  const { lower, upper } = bounds;
  if (lower !== undefined && (lower.exclusive ? value <= lower.value : value < lower.value))
    return false;
  if (upper !== undefined && (upper.exclusive ? value >= upper.value : value > upper.value))
    return false;
  return true;
}

/**
 * The values an enum (or `const`) allows at a node, and how the nodes built for it had to change
 * it (reported once for the keyword after all types are built).
 */
export interface EnumValues {
  readonly values: readonly unknown[];
  /** What the nodes weakened, in the order met; made on the first (most enums lose nothing). */
  weakened: string[] | undefined;
  /** What the nodes rewrote, likewise. */
  rewritten: string[] | undefined;
}

/** Notes that a node built for the enum `allowed` accepts more than it lists. */
export function weakenEnum(allowed: EnumValues, detail: string): void {
  if (allowed.weakened === undefined) allowed.weakened = [detail];
  else allowed.weakened.push(detail);
}

/** The `format` of a conjunction, reported as dropped when none of `types` accepts it. */
export function readFormat(
  scope: Scope,
  conjuncts: readonly Conjunct[],
  types: readonly GeminiType[],
): string | undefined {
  let chosen: string | undefined;
  let owner: Conjunct | undefined;
  for (let i = 0; i < conjuncts.length; i++) {
    const conjunct = conjuncts[i] as Conjunct;
    if ((conjunct.keys & KW.format) === 0) continue;
    const value = read(conjunct, 'format');
    if (value === undefined) continue;
    if (typeof value !== 'string') scope.lose(conjunct, 'format', 'dropped', 'not a string');
    else if (chosen === undefined) {
      chosen = value;
      owner = conjunct;
    } else if (value !== chosen) {
      scope.lose(conjunct, 'format', 'dropped', `another format ("${chosen}") applies here`);
    }
  }
  if (chosen === undefined || owner === undefined) return undefined;
  for (let i = 0; i < types.length; i++) {
    if (acceptsFormat(types[i] as GeminiType, chosen)) return chosen;
  }
  const accepted = types.flatMap((type) => ACCEPTED_FORMATS[type] ?? []);
  scope.lose(
    owner,
    'format',
    'dropped',
    `Gemini takes ${accepted.length === 0 ? 'no format' : accepted.map((f) => `"${f}"`).join(', ')} here, not "${chosen}"`,
  );
  return chosen;
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
  conjuncts: readonly Conjunct[],
  allowed: EnumValues | undefined,
  format: string | undefined,
): Schema {
  const schema = withFormat(typedNode('STRING'), 'STRING', format);
  const { min, max } = countBounds(scope, conjuncts, LENGTH);
  if (min !== undefined) schema.minLength = int64(min);
  if (max !== undefined) schema.maxLength = int64(max);
  for (const conjunct of conjuncts) {
    if ((conjunct.keys & KW.pattern) === 0) continue;
    const pattern = read(conjunct, 'pattern');
    if (pattern === undefined) continue;
    if (typeof pattern !== 'string') scope.lose(conjunct, 'pattern', 'dropped', 'not a string');
    else if (schema.pattern === undefined) schema.pattern = pattern;
    else if (schema.pattern !== pattern) {
      scope.lose(conjunct, 'pattern', 'dropped', 'Gemini takes one pattern; another applies here');
    }
  }
  if (allowed !== undefined) schema.enum = strings(allowed.values);
  return schema;
}

/**
 * The strings of `values`, in order, as a new list. By hand: the values may be the source's
 * own list, frozen, where the array builtins take their slow path.
 */
function strings(values: readonly unknown[]): string[] {
  let all = true;
  for (let i = 0; i < values.length && all; i++) all = typeof values[i] === 'string';
  if (all) return [...(values as readonly string[])];
  const out: string[] = [];
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value === 'string') out.push(value);
  }
  return out;
}

/** A NUMBER or INTEGER node, or with an enum one per range of its numbers. */
export function buildNumber(
  scope: Scope,
  conjuncts: readonly Conjunct[],
  type: 'NUMBER' | 'INTEGER',
  allowed: EnumValues | undefined,
  format: string | undefined,
): Schema | Schema[] {
  const bounds = numericBounds(scope, conjuncts);
  if (allowed !== undefined) {
    const numbers = allowed.values.filter(
      (value): value is number =>
        typeof value === 'number' &&
        (type === 'NUMBER' || Number.isInteger(value)) &&
        withinBounds(value, bounds),
    );
    if (numbers.length === 0) {
      throw new Unsatisfiable(
        conjuncts[0]?.pointer ?? '',
        'no number of the enum lies within the bounds',
      );
    }
    // Only the one NUMBER or INTEGER node of a conjunction writes this.
    allowed.rewritten = [
      'numbers written as minimum/maximum ranges, Gemini enums hold strings only',
    ];
    return numberRanges(numbers).map(([low, high]) =>
      Number.isInteger(low)
        ? withFormat({ type: 'INTEGER', minimum: low, maximum: high }, 'INTEGER', format)
        : withFormat({ type: 'NUMBER', minimum: low, maximum: high }, 'NUMBER', format),
    );
  }
  const schema = withFormat(typedNode(type), type, format);
  const { minimum, maximum } =
    type === 'INTEGER' ? integerRange(bounds) : numberRange(scope, bounds);
  if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
    throw new Unsatisfiable(conjuncts[0]?.pointer ?? '', 'the minimum exceeds the maximum');
  }
  if (minimum !== undefined) schema.minimum = minimum;
  if (maximum !== undefined) schema.maximum = maximum;
  return schema;
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
    throw new Unsatisfiable(lower.conjunct.pointer, 'the exclusive bounds leave no number');
  }
  if (lower?.exclusive) weakenBound(scope, lower, 'minimum');
  if (upper?.exclusive) weakenBound(scope, upper, 'maximum');
  if (lower !== undefined) out.minimum = lower.value;
  if (upper !== undefined) out.maximum = upper.value;
  return out;
}

/** Reports the exclusive `bound` sent as the inclusive `side`. */
function weakenBound(scope: Scope, bound: NumericBound, side: 'minimum' | 'maximum'): void {
  scope.lose(
    bound.conjunct,
    bound.keyword,
    'weakened',
    `sent as the inclusive ${side} ${bound.value}`,
  );
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
export function buildBoolean(allowed: EnumValues | undefined): Schema {
  if (
    allowed !== undefined &&
    new Set(allowed.values.filter((value) => typeof value === 'boolean')).size === 1
  ) {
    weakenEnum(allowed, 'a single boolean cannot be pinned: both are accepted');
  }
  return typedNode('BOOLEAN');
}
