/**
 * Every string of a JSON value cleaned of invisible characters (see `stripInvisible`), in one
 * iterative copy when some string holds any (a scan that copies nothing finds out first, and
 * can freeze what it reads): what a server declares in a schema (descriptions, titles, enum
 * values, defaults, examples) reaches the model, so hidden text is removed from all of it.
 */

import { GeminiMcpError } from '../errors.js';
import { deepFreeze, MAX_JSON_DEPTH } from './copy.js';
import { hasInvisible, stripInvisible } from './invisible.js';
import { setOwn } from './object.js';
import { appendPointer, pointerOfStep } from './pointer.js';

/** Deepest nesting copied (the one depth policy of `cloneJson`); deeper data is refused, typed. */
const MAX_SANITIZE_DEPTH = MAX_JSON_DEPTH;

/** Pointers listed in a {@link SanitizedJson}, at most; `changedStrings` counts them all. */
const MAX_LISTED_POINTERS = 20;

/** The result of {@link sanitizeJsonStrings}. */
export interface SanitizedJson<T> {
  /**
   * Every string value without invisible characters (object keys are kept as they are): a copy,
   * or the input itself when nothing had to change.
   */
  readonly value: T;
  /** JSON pointers of the strings that changed, in document order, at most {@link MAX_LISTED_POINTERS}. */
  readonly pointers: readonly string[];
  /** How many strings changed. */
  readonly changedStrings: number;
  /** How many code points were removed in all. */
  readonly removedCharacters: number;
  /**
   * JSON pointers of the object keys that hold invisible characters, at most
   * {@link MAX_LISTED_POINTERS}: kept as they are (they name the arguments the server reads),
   * so the caller can warn of them.
   */
  readonly hiddenKeyPointers: readonly string[];
  /** How many object keys hold invisible characters. */
  readonly hiddenKeys: number;
}

/** Options of {@link sanitizeJsonStrings}. */
export interface SanitizeOptions {
  /**
   * Return the value deep-frozen, for data the caller owns and shares: `input` itself when it
   * is clean, frozen in the walk that reads it (one walk, not two), otherwise the copy (objects
   * of `input` read before the first invisible character are left frozen). Default `false`.
   */
  readonly freeze?: boolean;
}

interface Frame {
  readonly source: unknown;
  readonly depth: number;
  readonly parent: Frame | undefined;
  readonly token: string | number;
  readonly assign: (value: unknown) => void;
}

/**
 * JSON data with invisible characters removed from every string value, and where they were: a
 * deep copy, or `input` itself when it holds no invisible character (nothing is copied).
 * Iterative (no stack overflow); throws INVALID_INPUT past {@link MAX_SANITIZE_DEPTH} levels.
 * Object keys are not changed (they name the arguments the server reads). With `freeze`, the
 * value returned is deep-frozen (see {@link SanitizeOptions}).
 *
 * @example
 * ```ts
 * const { value, pointers } = sanitizeJsonStrings({ properties: { a: { title: 'x\u200B' } } });
 * // value: { properties: { a: { title: 'x' } } }, pointers: ['/properties/a/title']
 * ```
 */
export function sanitizeJsonStrings<T>(input: T, options: SanitizeOptions = {}): SanitizedJson<T> {
  const freeze = options.freeze === true;
  if (isClean(input, freeze)) {
    return {
      value: input,
      pointers: [],
      changedStrings: 0,
      removedCharacters: 0,
      hiddenKeyPointers: [],
      hiddenKeys: 0,
    };
  }
  let result: unknown;
  const pointers: string[] = [];
  let changedStrings = 0;
  let removedCharacters = 0;
  const hiddenKeyPointers: string[] = [];
  let hiddenKeys = 0;
  const stack: Frame[] = [
    { source: input, depth: 0, parent: undefined, token: '', assign: (v) => (result = v) },
  ];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { source, depth, assign } = frame;
    if (typeof source === 'string') {
      const { text, removed } = stripInvisible(source);
      if (removed > 0) {
        changedStrings += 1;
        removedCharacters += removed;
        if (pointers.length < MAX_LISTED_POINTERS) pointers.push(pointerOfStep(frame));
      }
      assign(text);
    } else if (typeof source !== 'object' || source === null) assign(source);
    else if (depth >= MAX_SANITIZE_DEPTH) {
      throw new GeminiMcpError(
        'INVALID_INPUT',
        `JSON data nests deeper than ${MAX_SANITIZE_DEPTH} levels`,
        { path: pointerOfStep(frame) },
      );
    } else if (Array.isArray(source)) {
      const copy: unknown[] = new Array(source.length).fill(null);
      assign(copy);
      for (let i = source.length - 1; i >= 0; i--) {
        stack.push({
          source: source[i],
          depth: depth + 1,
          parent: frame,
          token: i,
          assign: (v) => (copy[i] = v),
        });
      }
    } else {
      const copy: Record<string, unknown> = {};
      assign(copy);
      const keys = Object.keys(source);
      // Pushed in reverse so the keys are popped, and so defined, in their original order.
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        if (hasInvisible(key)) {
          hiddenKeys += 1;
          if (hiddenKeyPointers.length < MAX_LISTED_POINTERS) {
            hiddenKeyPointers.push(appendPointer(pointerOfStep(frame), key));
          }
        }
        stack.push({
          source: (source as Record<string, unknown>)[key],
          depth: depth + 1,
          parent: frame,
          token: key,
          assign: (v) => setOwn(copy, key, v),
        });
      }
    }
  }
  return {
    value: (freeze ? deepFreeze(result) : result) as T,
    pointers,
    changedStrings,
    removedCharacters,
    hiddenKeyPointers,
    hiddenKeys,
  };
}

/**
 * True when no string or key of `input` holds an invisible character and it nests within
 * {@link MAX_SANITIZE_DEPTH} levels: a walk with no copy and no pointer, read-only unless
 * `freeze` (each object and array is frozen as it is read).
 */
function isClean(input: unknown, freeze: boolean): boolean {
  const values: unknown[] = [input];
  const depths: number[] = [0];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() as number;
    if (typeof value === 'string') {
      if (hasInvisible(value)) return false;
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= MAX_SANITIZE_DEPTH) return false;
      if (freeze) Object.freeze(value);
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          values.push(value[i]);
          depths.push(depth + 1);
        }
      } else {
        for (const key of Object.keys(value)) {
          if (hasInvisible(key)) return false;
          values.push((value as Record<string, unknown>)[key]);
          depths.push(depth + 1);
        }
      }
    }
  }
  return true;
}
