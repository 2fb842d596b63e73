/**
 * Values made safe to send as JSON, in one iterative pass (no recursion, so no stack overflow on
 * deep input): non-finite numbers become their names, strings become well-formed UTF-16, and
 * whatever nests too deep or too wide is replaced by a visible marker instead of crashing.
 */

/** Deepest nesting kept; deeper values are replaced by a marker. */
export const MAX_JSON_DEPTH = 512;
/** Most values kept; the rest are replaced by a marker. */
export const MAX_JSON_VALUES = 1_000_000;

interface Frame {
  source: unknown;
  depth: number;
  assign: (value: unknown) => void;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, not `target[key] =`: a "__proto__" key stays an ordinary key.
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
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
