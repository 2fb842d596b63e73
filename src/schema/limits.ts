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
  /** The value holding this one (none for the root). */
  readonly up: Pending | undefined;
  /** The keyword of `up` holding a map or array of schemas this one is in, if any. */
  readonly via: string | undefined;
  /** This value's key in `up` (or in `up[via]`); none for the root and single-schema keywords' values. */
  readonly key: string | number | undefined;
  /** Schema depth for a schema, JSON depth for a plain value. */
  readonly depth: number;
  readonly isSchema: boolean;
  /** The pointer, once built. */
  pointer?: string;
}

/** The pointer of a pending value: built only when needed (index, errors), most values never need it. */
function pointerOf(item: Pending): string {
  if (item.pointer !== undefined) return item.pointer;
  let pointer = item.up === undefined ? '' : pointerOf(item.up);
  if (item.via !== undefined) pointer = childPointer(pointer, item.via);
  if (item.key !== undefined) pointer = childPointer(pointer, item.key);
  item.pointer = pointer;
  return pointer;
}

/** What the survey learnt beyond the checks. */
export interface Survey {
  /** True when some schema holds `$ref`, `$dynamicRef` or `$recursiveRef`. */
  readonly hasRefs: boolean;
}

/**
 * Surveys the input once, iteratively: every schema position holds an object or a boolean,
 * every other value is JSON, schema nesting stays within `maxDepth` (plain JSON values too), and
 * there are at most `maxNodes` schemas. Builds no pointer unless it throws.
 *
 * @throws GeminiMcpError `SCHEMA_UNSUPPORTED` (not a schema, not JSON) or `SCHEMA_TOO_LARGE`.
 */
export function surveySchema(root: unknown, limits: Limits): Survey {
  return { hasRefs: walk(root, limits, undefined) };
}

/**
 * The index `$ref` resolution uses: every schema node by its pointer, and the anchors. Built on
 * the first `$ref` followed only (a second walk of a surveyed input).
 */
export function indexSchema(root: unknown, limits: Limits): SchemaIndex {
  const index = { nodes: new Map<string, unknown>(), anchors: new Map<string, string>() };
  walk(root, limits, index);
  return index;
}

const REF_KEYS = ['$ref', '$dynamicRef', '$recursiveRef'] as const;

/** The survey's walk; fills `index` when given. Returns whether some schema holds a reference. */
function walk(
  root: unknown,
  limits: Limits,
  index: { nodes: Map<string, unknown>; anchors: Map<string, string> } | undefined,
): boolean {
  let hasRefs = false;
  let count = 0;
  const stack: Pending[] = [
    { value: root, up: undefined, via: undefined, key: undefined, depth: 0, isSchema: true },
  ];
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
    count++;
    if (typeof value === 'boolean') {
      index?.nodes.set(pointerOf(item), value);
    } else if (!isPlainObject(value)) {
      throw unsupported('a schema must be an object or a boolean', pointerOf(item));
    } else {
      if (index !== undefined) {
        const pointer = pointerOf(item);
        index.nodes.set(pointer, value);
        if (typeof value.$anchor === 'string') index.anchors.set(value.$anchor, pointer);
        if (typeof value.$id === 'string' && /^#[^/]/.test(value.$id)) {
          index.anchors.set(value.$id.slice(1), pointer);
        }
      }
      if (!hasRefs) hasRefs = REF_KEYS.some((key) => value[key] !== undefined);
      for (const key of Object.keys(value)) {
        const child = value[key];
        // A key holding `undefined` is absent, as in JSON.stringify (JS-built schemas have them).
        if (child !== undefined) pushChildren(stack, key, child, item);
      }
    }
    if (count > limits.maxNodes) {
      throw tooLarge(`schema has more than maxNodes (${limits.maxNodes}) nodes`, pointerOf(item), {
        maxNodes: limits.maxNodes,
      });
    }
  }
  return hasRefs;
}

/** Queues the value of `key` in the schema `item`. */
function pushChildren(stack: Pending[], key: string, child: unknown, item: Pending): void {
  const depth = item.depth + 1;
  if (SCHEMA_KEYWORDS.has(key) && !(key === 'items' && Array.isArray(child))) {
    stack.push({ value: child, up: item, via: key, key: undefined, depth, isSchema: true });
  } else if ((SCHEMA_ARRAY_KEYWORDS.has(key) || key === 'items') && Array.isArray(child)) {
    for (let i = 0; i < child.length; i++) {
      stack.push({ value: child[i], up: item, via: key, key: i, depth, isSchema: true });
    }
  } else if (SCHEMA_MAP_KEYWORDS.has(key) && isPlainObject(child)) {
    for (const name of Object.keys(child)) {
      const entry = child[name];
      if (entry !== undefined)
        stack.push({ value: entry, up: item, via: key, key: name, depth, isSchema: true });
    }
  } else if (key === 'dependencies' && isPlainObject(child)) {
    for (const name of Object.keys(child)) {
      const entry = child[name];
      stack.push({
        value: entry,
        up: item,
        via: key,
        key: name,
        depth: Array.isArray(entry) ? item.depth : depth,
        isSchema: !Array.isArray(entry),
      });
    }
  } else {
    stack.push({ value: child, up: item, via: undefined, key, depth: item.depth, isSchema: false });
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
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      stack.push({
        value: value[i],
        up: item,
        via: undefined,
        key: i,
        depth: depth + 1,
        isSchema: false,
      });
    }
    return;
  }
  if (!isPlainObject(value)) {
    throw unsupported('a schema must hold JSON values only', pointerOf(item));
  }
  for (const key of Object.keys(value)) {
    const entry = value[key];
    if (entry !== undefined) {
      stack.push({
        value: entry,
        up: item,
        via: undefined,
        key,
        depth: depth + 1,
        isSchema: false,
      });
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
