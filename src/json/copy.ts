/**
 * Copies of JSON values received from servers and the model, under one depth policy: at most
 * {@link MAX_JSON_DEPTH} levels. {@link cloneJson} keeps data whole or refuses it (schemas: a
 * cut schema would mean something else); {@link toPlainJson} makes data safe to send and marks
 * what it cut (results: the model should see the rest). Neither recursion nor spread can
 * overflow on a sender's input.
 */

import { GeminiMcpError } from '../errors.js';
import { hasInvisible } from './invisible.js';
import { setOwn } from './object.js';

/** Deepest nesting copied: deeper data is refused by `cloneJson` and cut by `toPlainJson`. */
export const MAX_JSON_DEPTH = 512;

/** Most values kept; the rest are replaced by a marker. */
export const MAX_JSON_VALUES = 1_000_000;

interface Frame {
  source: unknown;
  depth: number;
  assign: (value: unknown) => void;
}

/**
 * A plain-JSON copy of `value`, as `JSON.parse(JSON.stringify(value))` would give but without
 * its failures: `NaN`/`Infinity` become `"NaN"`/`"Infinity"` (not a silent `null`), bigints
 * their decimal text, lone surrogates U+FFFD, and values past {@link MAX_JSON_DEPTH} levels or
 * {@link MAX_JSON_VALUES} values a `"[cut: ...]"` marker. `undefined`, functions and symbols
 * are left out, as JSON leaves them out. The input is not modified.
 *
 * @example
 * ```ts
 * toPlainJson({ ratio: Number.NaN, name: 'a\ud800' }); // { ratio: 'NaN', name: 'a\ufffd' }
 * ```
 */
export function toPlainJson(value: unknown): unknown {
  let result: unknown;
  let budget = MAX_JSON_VALUES;
  const stack: Frame[] = [{ source: value, depth: 0, assign: (v) => (result = v) }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { source, depth, assign } = frame;
    if (budget-- <= 0) {
      assign(`[cut: more than ${MAX_JSON_VALUES} values]`);
      continue;
    }
    if (typeof source === 'string') assign(source.toWellFormed());
    else if (typeof source === 'number') assign(Number.isFinite(source) ? source : String(source));
    else if (typeof source === 'bigint') assign(source.toString());
    else if (typeof source === 'boolean' || source === null) assign(source);
    else if (typeof source !== 'object') assign(undefined);
    else if (depth >= MAX_JSON_DEPTH) assign(`[cut: nested deeper than ${MAX_JSON_DEPTH} levels]`);
    else if (typeof (source as { toJSON?: unknown }).toJSON === 'function') {
      stack.push({ source: (source as { toJSON: () => unknown }).toJSON(), depth, assign });
    } else if (Array.isArray(source)) {
      const copy: unknown[] = new Array(source.length).fill(null);
      assign(copy);
      for (let i = source.length - 1; i >= 0; i--) {
        stack.push({ source: source[i], depth: depth + 1, assign: (v) => (copy[i] = v ?? null) });
      }
    } else {
      const copy: Record<string, unknown> = {};
      assign(copy);
      const keys = Object.keys(source);
      // Pushed in reverse so the keys are popped, and so defined, in their original order.
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const child = (source as Record<string, unknown>)[key];
        stack.push({
          source: child,
          depth: depth + 1,
          assign: (v) => {
            if (v !== undefined) setOwn(copy, key.toWellFormed(), v);
          },
        });
      }
    }
  }
  return result;
}

/**
 * A deep copy of a JSON value. Plain recursion, several times faster than `structuredClone` on
 * tool schemas; a `__proto__` key is copied as an ordinary key. Throws INVALID_INPUT for data
 * nested deeper than {@link MAX_JSON_DEPTH} (hostile: no real schema nests so deep).
 *
 * @example
 * ```ts
 * const copy = cloneJson(tool.inputSchema); // deep-equal, shares nothing
 * ```
 */
export function cloneJson<T>(value: T): T {
  return new JsonCopy(false).copy(value, 0) as T;
}

/** A JSON scalar whose JSON text is itself alone: no `-0`, `NaN`, `Infinity` or `undefined`. */
function isExactScalar(value: unknown): boolean {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    value === null ||
    (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0))
  );
}

/** Longest text (keys and strings) of a leaf that is shared: longer ones are mostly unique. */
const MAX_SHARED_TEXT = 64;

/**
 * Frozen leaves (objects and arrays holding scalars only: `{"type": "string"}`,
 * `["string", "null"]`) that several {@link frozenSnapshot}s share, one object per JSON text:
 * about two in five of the objects and arrays in real tool schemas are such repeats. Sharing is
 * safe because a snapshot is frozen and JSON has no identity; a leaf holding a scalar whose
 * JSON text is not itself (`-0`, `NaN`, `undefined`) is never shared.
 */
export class SharedLeaves {
  readonly #byText = new Map<string, object>();

  /** The leaf already kept with `leaf`'s JSON text, else `leaf` (kept); other values as they are. */
  share<T extends object>(leaf: T): T {
    let length = 0;
    if (Array.isArray(leaf)) {
      // By index: a hole (which JSON would write as null) is no scalar.
      for (let i = 0; i < leaf.length; i++) {
        const item: unknown = leaf[i];
        if (!(i in leaf && isExactScalar(item))) return leaf;
        if (typeof item === 'string') length += item.length;
      }
    } else {
      for (const key in leaf) {
        const item: unknown = (leaf as Record<string, unknown>)[key];
        if (!isExactScalar(item)) return leaf;
        length += key.length + (typeof item === 'string' ? item.length : 0);
      }
    }
    if (length > MAX_SHARED_TEXT) return leaf;
    const text = JSON.stringify(leaf);
    const kept = this.#byText.get(text);
    if (kept !== undefined) return kept as T;
    this.#byText.set(text, leaf);
    return leaf;
  }
}

/** One deep copy: plain, or frozen and read for hidden text as it is made (a snapshot). */
class JsonCopy {
  /** Whether a string or key copied since this was last reset holds an invisible character. */
  hidden = false;

  constructor(
    private readonly snapshot: boolean,
    private readonly leaves?: SharedLeaves,
  ) {}

  copy(value: unknown, depth: number): unknown {
    if (typeof value !== 'object' || value === null) {
      if (this.snapshot && !this.hidden && typeof value === 'string' && hasInvisible(value)) {
        this.hidden = true;
      }
      return value;
    }
    if (depth >= MAX_JSON_DEPTH) {
      throw new GeminiMcpError(
        'INVALID_INPUT',
        `JSON data nests deeper than ${MAX_JSON_DEPTH} levels`,
      );
    }
    const result = Array.isArray(value) ? this.array(value, depth) : this.object(value, depth);
    if (!this.snapshot) return result;
    Object.freeze(result);
    return this.leaves === undefined ? result : this.leaves.share(result);
  }

  private array(value: readonly unknown[], depth: number): unknown[] {
    return value.map((item) => this.copy(item, depth + 1));
  }

  private object(value: object, depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (this.snapshot && !this.hidden && hasInvisible(key)) this.hidden = true;
      setOwn(result, key, this.copy((value as Record<string, unknown>)[key], depth + 1));
    }
    return result;
  }
}

/**
 * Freezes `value` and every object and array inside it, iteratively (no recursion over a
 * sender's depth); returns `value`.
 *
 * @example
 * ```ts
 * const schema = deepFreeze({ properties: { a: { type: 'string' } } });
 * Object.isFrozen(schema.properties.a); // true
 * ```
 */
export function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (typeof current !== 'object' || current === null || Object.isFrozen(current)) continue;
    // Read by index or key (no array of values per object), frozen once read (reading a frozen
    // object is slower).
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const child: unknown = current[i];
        if (typeof child === 'object' && child !== null) pending.push(child);
      }
    } else {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        const child: unknown = (current as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) pending.push(child);
      }
    }
    Object.freeze(current);
  }
  return value;
}

/** The result of {@link frozenSnapshot}. */
export interface FrozenSnapshot<T> {
  /** A deep copy of the value, frozen (as {@link deepFreeze} leaves it). */
  readonly value: T;
  /**
   * The fields of the value (an object) holding hidden text: a string or key with an
   * invisible character (see `hasInvisible`) somewhere inside, in field order. Empty for a
   * value that is not an object.
   */
  readonly fieldsWithHiddenText: readonly string[];
}

const NO_FIELDS: readonly string[] = Object.freeze([]);

/**
 * A deep copy of a JSON value that nobody can change, made, frozen and read for hidden text in
 * one walk: for data shared by every later reader, such as the tools a tool set owns, whose
 * readers need not look for hidden text again in a field found free of it. With `leaves`, a
 * leaf equal to one an earlier snapshot kept there is that one (see {@link SharedLeaves}); the
 * value's own level is always its own. Throws as {@link cloneJson} does.
 *
 * @example
 * ```ts
 * const { value, fieldsWithHiddenText } = frozenSnapshot(tool);
 * Object.isFrozen(value.inputSchema); // true, and so is every object inside
 * fieldsWithHiddenText.includes('inputSchema'); // whether any string or key in it is hiding text
 * ```
 */
export function frozenSnapshot<T>(value: T, leaves?: SharedLeaves): FrozenSnapshot<T> {
  const walk = new JsonCopy(true, leaves);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { value: walk.copy(value, 0) as T, fieldsWithHiddenText: NO_FIELDS };
  }
  // The object's own level, field by field, to tell which fields hide text.
  const result: Record<string, unknown> = {};
  let fieldsWithHiddenText = NO_FIELDS;
  for (const key of Object.keys(value)) {
    walk.hidden = hasInvisible(key);
    setOwn(result, key, walk.copy((value as Record<string, unknown>)[key], 1));
    if (walk.hidden) fieldsWithHiddenText = [...fieldsWithHiddenText, key];
  }
  return { value: Object.freeze(result) as T, fieldsWithHiddenText };
}
