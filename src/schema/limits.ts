/**
 * The converter's bounds: options resolved to limits, a one-pass iterative survey of the input
 * (schema depth, schema count, JSON-only values), and the budget that stops `$ref` expansion.
 * Everything here runs in time linear in the input and never recurses, so a 10,000-deep schema is
 * refused without a stack overflow.
 */
import { GeminiMcpError } from '../errors.js';
import type { SchemaIndex } from './refs.js';
import { childPointer } from './refs.js';

/** The resolved bounds of one conversion. */
export interface Limits {
  /** How many times one `$ref` target may be expanded inside itself before the cycle is cut. */
  readonly maxRefDepth: number;
  /** Deepest schema nesting, in the input and in the output. */
  readonly maxDepth: number;
  /** Most schema nodes in the input. */
  readonly maxNodes: number;
  /** Most source nodes expanded into the output (each counted at every place it lands) plus `$ref`s followed. */
  readonly maxExpandedNodes: number;
}

/** The defaults: generous for real tool schemas, small enough to refuse a schema bomb at once. */
const DEFAULT_LIMITS: Limits = {
  maxRefDepth: 3,
  maxDepth: 64,
  maxNodes: 10_000,
  maxExpandedNodes: 20_000,
};

/** Resolves the limit options; each must be a positive integer. */
export function resolveLimits(options: Partial<Record<keyof Limits, number | undefined>>): Limits {
  const out = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new GeminiMcpError('INVALID_INPUT', `option ${key} must be a positive integer`, {
        data: { option: key, value },
      });
    }
    out[key] = value;
  }
  return out;
}

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
/** Keywords whose value is an array of schemas. */
const SCHEMA_ARRAY_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set([
  '$defs',
  'definitions',
  'dependentSchemas',
  'patternProperties',
  'properties',
]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function unsupported(message: string, path: string): GeminiMcpError {
  return new GeminiMcpError('SCHEMA_UNSUPPORTED', message, { path });
}

function tooLarge(message: string, path: string, data: Record<string, unknown>): GeminiMcpError {
  return new GeminiMcpError('SCHEMA_TOO_LARGE', message, { path, data });
}

interface Pending {
  readonly value: unknown;
  /** The pointer of the value's parent, and its key there (none for the root). */
  readonly parent: string;
  readonly key: string | number | undefined;
  /** Schema depth for a schema, JSON depth for a plain value. */
  readonly depth: number;
  readonly isSchema: boolean;
}

/** The pointer of a pending value: built only when needed (schemas, errors), most values never need it. */
function pointerOf(item: Pending): string {
  return item.key === undefined ? item.parent : childPointer(item.parent, item.key);
}

/**
 * Surveys the input once, iteratively: every schema position holds an object or a boolean,
 * every other value is JSON, schema nesting stays within `maxDepth` (plain JSON values too), and
 * there are at most `maxNodes` schemas. Returns the index `$ref` resolution uses.
 *
 * @throws GeminiMcpError `SCHEMA_UNSUPPORTED` (not a schema, not JSON) or `SCHEMA_TOO_LARGE`.
 */
export function surveySchema(root: unknown, limits: Limits): SchemaIndex {
  const nodes = new Map<string, unknown>();
  const anchors = new Map<string, string>();
  const stack: Pending[] = [{ value: root, parent: '', key: undefined, depth: 0, isSchema: true }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, depth, isSchema } = item;
    if (depth > limits.maxDepth) {
      throw tooLarge(`schema nested deeper than maxDepth (${limits.maxDepth})`, pointerOf(item), {
        maxDepth: limits.maxDepth,
      });
    }
    if (!isSchema) {
      pushJson(stack, item);
      continue;
    }
    const pointer = pointerOf(item);
    if (typeof value === 'boolean') {
      nodes.set(pointer, value);
    } else if (!isPlainObject(value)) {
      throw unsupported('a schema must be an object or a boolean', pointer);
    } else {
      nodes.set(pointer, value);
      if (typeof value.$anchor === 'string') anchors.set(value.$anchor, pointer);
      if (typeof value.$id === 'string' && /^#[^/]/.test(value.$id)) {
        anchors.set(value.$id.slice(1), pointer);
      }
      for (const [key, child] of Object.entries(value)) {
        // A key holding `undefined` is absent, as in JSON.stringify (JS-built schemas have them).
        if (child !== undefined) pushChildren(stack, key, child, pointer, depth);
      }
    }
    if (nodes.size > limits.maxNodes) {
      throw tooLarge(`schema has more than maxNodes (${limits.maxNodes}) nodes`, pointer, {
        maxNodes: limits.maxNodes,
      });
    }
  }
  return { nodes, anchors };
}

/** Queues the value of `key` in the schema at `pointer`. */
function pushChildren(
  stack: Pending[],
  key: string,
  child: unknown,
  pointer: string,
  depth: number,
): void {
  const schema = (value: unknown, parent: string, at: string | number | undefined) =>
    stack.push({ value, parent, key: at, depth: depth + 1, isSchema: true });
  const at = childPointer(pointer, key);
  if (SCHEMA_KEYWORDS.has(key) && !(key === 'items' && Array.isArray(child))) {
    schema(child, at, undefined);
  } else if ((SCHEMA_ARRAY_KEYWORDS.has(key) || key === 'items') && Array.isArray(child)) {
    child.forEach((entry, i) => {
      schema(entry, at, i);
    });
  } else if (SCHEMA_MAP_KEYWORDS.has(key) && isPlainObject(child)) {
    for (const [name, entry] of Object.entries(child)) {
      if (entry !== undefined) schema(entry, at, name);
    }
  } else if (key === 'dependencies' && isPlainObject(child)) {
    for (const [name, entry] of Object.entries(child)) {
      if (Array.isArray(entry))
        stack.push({ value: entry, parent: at, key: name, depth, isSchema: false });
      else schema(entry, at, name);
    }
  } else {
    stack.push({ value: child, parent: pointer, key, depth, isSchema: false });
  }
}

/** Checks a plain JSON value (enum, const, default, ...) one level; queues its members. */
function pushJson(stack: Pending[], item: Pending): void {
  const { value, depth } = item;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw unsupported('a number must be finite', pointerOf(item));
    return;
  }
  if (!Array.isArray(value) && !isPlainObject(value)) {
    throw unsupported('a schema must hold JSON values only', pointerOf(item));
  }
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? [...value.entries()]
    : Object.entries(value);
  if (entries.length === 0) return;
  const parent = pointerOf(item);
  for (const [key, entry] of entries) {
    if (entry !== undefined || Array.isArray(value)) {
      stack.push({ value: entry, parent, key, depth: depth + 1, isSchema: false });
    }
  }
}

/**
 * Counts conversion steps against `maxExpandedNodes`, so a `$ref` tree that doubles at each
 * level (a billion laughs) is refused after a bounded amount of work.
 */
export class ExpansionBudget {
  #spent = 0;
  readonly #limit: number;

  constructor(limits: Limits) {
    this.#limit = limits.maxExpandedNodes;
  }

  /** Spends `steps`; throws `SCHEMA_TOO_LARGE` naming `pointer` once the budget is exhausted. */
  spend(pointer: string, steps = 1): void {
    this.#spent += steps;
    if (this.#spent > this.#limit) {
      throw tooLarge(
        `schema expands to more than maxExpandedNodes (${this.#limit}) nodes ($ref expansion)`,
        pointer,
        { maxExpandedNodes: this.#limit },
      );
    }
  }
}
