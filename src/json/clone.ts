/** A fast deep copy of JSON data (what MCP servers send): objects, arrays and scalars. */
import { GeminiMcpError } from '../errors.js';

/** Deepest nesting copied; deeper data (hostile: no real schema nests so) is refused, typed. */
export const MAX_CLONE_DEPTH = 1000;

/**
 * A deep copy of a JSON value. Plain recursion, several times faster than `structuredClone` on
 * tool schemas; a `__proto__` key is copied as an ordinary key. Throws INVALID_INPUT for data
 * nested deeper than {@link MAX_CLONE_DEPTH} (where `structuredClone` would overflow the stack).
 *
 * @example
 * ```ts
 * const copy = cloneJson(tool.inputSchema); // deep-equal, shares nothing
 * ```
 */
export function cloneJson<T>(value: T): T {
  return copy(value, 0) as T;
}

function copy(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_CLONE_DEPTH) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `JSON data nests deeper than ${MAX_CLONE_DEPTH} levels`,
    );
  }
  if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copy((value as Record<string, unknown>)[key], depth + 1);
    if (key === '__proto__') {
      Object.defineProperty(result, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else result[key] = item;
  }
  return result;
}
