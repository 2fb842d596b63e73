/** How deep a JSON value nests, found without recursion (so deep input cannot overflow the stack). */
import { pointerOfStep } from './pointer.js';

interface Place {
  value: unknown;
  depth: number;
  parent: Place | undefined;
  token: string | number;
}

/**
 * The JSON pointer of the first array or object nested deeper than `maxDepth` levels in
 * `value` (the root is level 0), or `undefined` when none is. Iterative, and memory linear in
 * the value's size: any depth is safe.
 *
 * @example
 * ```ts
 * nestedBeyond({ a: { b: [1] } }, 1); // '/a/b'
 * nestedBeyond({ a: 1 }, 1); // undefined
 * ```
 */
export function nestedBeyond(value: unknown, maxDepth: number): string | undefined {
  // Most values are well within the bound: a walk that allocates nothing per value says so, and
  // only a value that does nest too deep is walked again to name the first place that does.
  return deeperThan(value, maxDepth) ? firstBeyond(value, maxDepth) : undefined;
}

/**
 * Whether the JSON `text` holds too few opening brackets (`{` and `[`, those in strings counted
 * too) for its value to nest deeper than `maxDepth` levels: an array or object at level
 * `maxDepth + 1` (the root is level 0) opens `maxDepth + 2` of them on the way, and closes them,
 * so a shorter text needs no count at all. A few `indexOf` calls spare a reader that still has
 * the text the walk of {@link nestedBeyond} over the parsed value (as costly as parsing it).
 *
 * @example
 * ```ts
 * tooFewBracketsToNest('{"a":[1]}', 512); // true: nestedBeyond need not look
 * ```
 */
export function tooFewBracketsToNest(text: string, maxDepth: number): boolean {
  if (text.length < 2 * (maxDepth + 2)) return true;
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++count > maxDepth + 1) return false;
    }
  }
  return true;
}

/** Whether an array or object in `value` nests deeper than `maxDepth` (two stacks, no record per value). */
function deeperThan(value: unknown, maxDepth: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop() as number;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > maxDepth) return true;
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const child: unknown = current[i];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      const record = current as Record<string, unknown>;
      for (const key in record) {
        if (!Object.hasOwn(record, key)) continue;
        const child = record[key];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/** The pointer of the first place, in document order, nested deeper than `maxDepth`. */
function firstBeyond(value: unknown, maxDepth: number): string | undefined {
  const stack: Place[] = [{ value, depth: 0, parent: undefined, token: '' }];
  for (let place = stack.pop(); place !== undefined; place = stack.pop()) {
    const { value: current, depth } = place;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > maxDepth) return pointerOfStep(place);
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i], depth: depth + 1, parent: place, token: i });
      }
    } else {
      for (const [key, child] of Object.entries(current)) {
        stack.push({ value: child, depth: depth + 1, parent: place, token: key });
      }
    }
  }
  return undefined;
}
