/**
 * The converter's bounds: options resolved to limits, a one-pass iterative survey of the input
 * (schema depth, schema count, JSON-only values), and the budget that stops `$ref` expansion.
 * Everything here runs in time linear in the input and never recurses, so a 10,000-deep schema is
 * refused without a stack overflow.
 */
import { GeminiMcpError } from '../errors.js';
import type { RefResolver, RefTarget, SchemaIndex } from './refs.js';
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
  /** Most nodes `$ref` expansion may bring into the output before it is cut. */
  readonly maxOutputNodes: number;
}

/** The defaults: generous for real tool schemas, small enough to refuse a schema bomb at once. */
const DEFAULT_LIMITS: Limits = {
  maxRefDepth: 3,
  maxDepth: 64,
  maxNodes: 10_000,
  maxExpandedNodes: 20_000,
  maxOutputNodes: 500,
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

/** How a keyword holds schemas: one, an array of them, a map of names to them, or `dependencies`. */
const Holds = { One: 1, Array: 2, Map: 3, Dependencies: 4 } as const;
type Holds = (typeof Holds)[keyof typeof Holds];

/** The keywords whose values hold schemas, and how (one lookup per keyword of the walk). */
const SCHEMA_HOLDERS: ReadonlyMap<string, Holds> = new Map<string, Holds>([
  ['additionalItems', Holds.One],
  ['additionalProperties', Holds.One],
  ['contains', Holds.One],
  ['contentSchema', Holds.One],
  ['else', Holds.One],
  ['if', Holds.One],
  ['items', Holds.One],
  ['not', Holds.One],
  ['propertyNames', Holds.One],
  ['then', Holds.One],
  ['unevaluatedItems', Holds.One],
  ['unevaluatedProperties', Holds.One],
  ['allOf', Holds.Array],
  ['anyOf', Holds.Array],
  ['oneOf', Holds.Array],
  ['prefixItems', Holds.Array],
  ['$defs', Holds.Map],
  ['definitions', Holds.Map],
  ['dependentSchemas', Holds.Map],
  ['patternProperties', Holds.Map],
  ['properties', Holds.Map],
  ['dependencies', Holds.Dependencies],
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

/** A value the walk has still to visit. */
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
}

/** The pointer of a pending value: built only to name a place (an anchor, an error). */
function pointerOf(item: Pending): string {
  const path: Pending[] = [];
  for (let at: Pending | undefined = item; at !== undefined; at = at.up) path.push(at);
  let pointer = '';
  for (let i = path.length - 1; i >= 0; i--) {
    const { via, key } = path[i] as Pending;
    if (via !== undefined) pointer = childPointer(pointer, via);
    if (key !== undefined) pointer = childPointer(pointer, key);
  }
  return pointer;
}

/** What the survey learnt beyond the checks. */
export interface Survey {
  /** True when some schema holds `$ref`, `$dynamicRef` or `$recursiveRef`. */
  readonly hasRefs: boolean;
  /** How many schema nodes the input holds. */
  readonly nodes: number;
}

/**
 * Surveys the input once, iteratively: every schema position holds an object or a boolean,
 * every other value is JSON, schema nesting stays within `maxDepth` (plain JSON values too), and
 * there are at most `maxNodes` schemas. Builds no pointer unless it throws.
 *
 * @throws GeminiMcpError `SCHEMA_UNSUPPORTED` (not a schema, not JSON) or `SCHEMA_TOO_LARGE`.
 */
export function surveySchema(root: unknown, limits: Limits): Survey {
  return walk(root, limits, undefined);
}

/**
 * Where `$ref` resolution finds the schemas of a surveyed input: a pointer is followed from the
 * root through schema positions only; the anchors are collected by a second walk, on the first
 * plain-name `$ref` only.
 */
export function indexSchema(root: unknown, limits: Limits): SchemaIndex {
  let anchors: Map<string, RefTarget> | undefined;
  return {
    schemaAt: (tokens) => schemaAt(root, tokens),
    anchor: (name) => {
      if (anchors === undefined) {
        anchors = new Map();
        walk(root, limits, anchors);
      }
      return anchors.get(name);
    },
  };
}

/**
 * The schema at the place `tokens` name in the surveyed `root`, or `undefined` when no schema is
 * there: a keyword holding schemas leads into one schema, or through an index or a name into
 * one of several, as the survey reads them; any other value holds no schema.
 */
function schemaAt(root: unknown, tokens: readonly string[]): unknown {
  let node = root;
  let i = 0;
  while (i < tokens.length) {
    if (!isPlainObject(node)) return undefined;
    const key = tokens[i++] as string;
    const child = ownValue(node, key);
    if (child === undefined) return undefined;
    const holds = SCHEMA_HOLDERS.get(key);
    // `items` holds one schema, or (draft 7 tuples) an array of them.
    if (holds === Holds.One && !(key === 'items' && Array.isArray(child))) {
      node = child;
      continue;
    }
    const name = tokens[i++];
    if (name === undefined) return undefined;
    if ((holds === Holds.Array || key === 'items') && Array.isArray(child)) {
      node = ARRAY_INDEX.test(name) ? child[Number(name)] : undefined;
    } else if (holds === Holds.Map && isPlainObject(child)) {
      node = ownValue(child, name);
    } else if (holds === Holds.Dependencies && isPlainObject(child)) {
      node = ownValue(child, name);
      if (Array.isArray(node)) return undefined;
    } else {
      return undefined;
    }
    if (node === undefined) return undefined;
  }
  return node;
}

/** An array index as a pointer spells it. */
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** The value of `key` in `object` if it is an own enumerable property (as `Object.keys` lists). */
function ownValue(object: Record<string, unknown>, key: string): unknown {
  return Object.prototype.propertyIsEnumerable.call(object, key) ? object[key] : undefined;
}

/**
 * The survey's walk, depth-first over an explicit stack, the last key first; records the anchors
 * in `anchors` when given.
 */
function walk(root: unknown, limits: Limits, anchors: Map<string, RefTarget> | undefined): Survey {
  const { maxDepth, maxNodes } = limits;
  let hasRefs = false;
  let count = 0;
  const stack: Pending[] = [
    { value: root, up: undefined, via: undefined, key: undefined, depth: 0, isSchema: true },
  ];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, depth } = item;
    if (depth > maxDepth) {
      throw tooLarge(`schema nested deeper than maxDepth (${maxDepth})`, pointerOf(item), {
        maxDepth,
      });
    }
    if (!item.isSchema) {
      pushJson(stack, item, maxDepth);
      continue;
    }
    count++;
    if (typeof value !== 'boolean') {
      if (!isPlainObject(value)) {
        throw unsupported('a schema must be an object or a boolean', pointerOf(item));
      }
      if (anchors !== undefined) addAnchors(anchors, value, item);
      if (!hasRefs) {
        hasRefs =
          value.$ref !== undefined ||
          value.$dynamicRef !== undefined ||
          value.$recursiveRef !== undefined;
      }
      // Own keys read in place (`for...in` with `hasOwn`: no array of keys per node).
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const child = value[key];
        // A key holding `undefined` is absent, as in JSON.stringify (JS-built schemas have them).
        if (child !== undefined) pushChildren(stack, key, child, item);
      }
    }
    if (count > maxNodes) {
      throw tooLarge(`schema has more than maxNodes (${maxNodes}) nodes`, pointerOf(item), {
        maxNodes,
      });
    }
  }
  return { hasRefs, nodes: count };
}

/** Records the plain-name fragments naming `schema`: its `$anchor`, or a draft-7 `$id: "#name"`. */
function addAnchors(
  anchors: Map<string, RefTarget>,
  schema: Record<string, unknown>,
  item: Pending,
): void {
  if (typeof schema.$anchor === 'string') {
    anchors.set(schema.$anchor, { node: schema, pointer: pointerOf(item) });
  }
  if (typeof schema.$id === 'string' && /^#[^/]/.test(schema.$id)) {
    anchors.set(schema.$id.slice(1), { node: schema, pointer: pointerOf(item) });
  }
}

/** Queues the value of `key` in the schema `item`. */
function pushChildren(stack: Pending[], key: string, child: unknown, item: Pending): void {
  const holds = SCHEMA_HOLDERS.get(key);
  if (holds === undefined) {
    if (!isPlainJsonLeaf(child)) {
      stack.push({
        value: child,
        up: item,
        via: undefined,
        key,
        depth: item.depth,
        isSchema: false,
      });
    }
    return;
  }
  const depth = item.depth + 1;
  // `items` holds one schema, or (draft 7 tuples) an array of them.
  if (holds === Holds.One && !(key === 'items' && Array.isArray(child))) {
    stack.push({ value: child, up: item, via: key, key: undefined, depth, isSchema: true });
  } else if ((holds === Holds.Array || key === 'items') && Array.isArray(child)) {
    for (let i = 0; i < child.length; i++) {
      stack.push({ value: child[i], up: item, via: key, key: i, depth, isSchema: true });
    }
  } else if (holds === Holds.Map && isPlainObject(child)) {
    for (const name in child) {
      if (!Object.hasOwn(child, name)) continue;
      const entry = child[name];
      if (entry !== undefined)
        stack.push({ value: entry, up: item, via: key, key: name, depth, isSchema: true });
    }
  } else if (holds === Holds.Dependencies && isPlainObject(child)) {
    for (const name in child) {
      if (!Object.hasOwn(child, name)) continue;
      const entry = child[name];
      // A property's list of required names is a plain value, at the schema's own depth.
      const isSchema = !Array.isArray(entry);
      stack.push({
        value: entry,
        up: item,
        via: key,
        key: name,
        depth: isSchema ? depth : item.depth,
        isSchema,
      });
    }
  } else if (!isPlainJsonLeaf(child)) {
    stack.push({ value: child, up: item, via: undefined, key, depth: item.depth, isSchema: false });
  }
}

/** A string, boolean, null or finite number: JSON, nothing to queue (anything else is queued and checked). */
function isPlainJsonLeaf(value: unknown): boolean {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    value === null ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * Checks a plain JSON value (enum, const, default, ...) one level; queues its members (a plain
 * leaf only when it is too deep: that is all there is to check of it).
 */
function pushJson(stack: Pending[], item: Pending, maxDepth: number): void {
  const { value } = item;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw unsupported('a number must be finite', pointerOf(item));
    return;
  }
  const depth = item.depth + 1;
  const deep = depth > maxDepth;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const entry = value[i];
      if (deep || !isPlainJsonLeaf(entry)) {
        stack.push({ value: entry, up: item, via: undefined, key: i, depth, isSchema: false });
      }
    }
    return;
  }
  if (!isPlainObject(value)) {
    throw unsupported('a schema must hold JSON values only', pointerOf(item));
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const entry = value[key];
    if (entry !== undefined && (deep || !isPlainJsonLeaf(entry))) {
      stack.push({ value: entry, up: item, via: undefined, key, depth, isSchema: false });
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

/**
 * How far `$ref`s are expanded: each recursive one up to `refDepth` times on a path, and none at
 * all in a node deeper than `cutDepth`. `reason` says why the plan is tighter than the options.
 */
export interface ExpansionPlan {
  readonly refDepth: number;
  readonly cutDepth: number;
  readonly reason: 'recursion' | 'breadth' | undefined;
  /** The node budget the plan keeps to. */
  readonly budget: number;
}

/** A reference of a unit: the nesting depth of the node holding it, and its target. */
interface Edge {
  readonly depth: number;
  readonly target: string;
  readonly node: unknown;
}

/** What one `$ref` target (or the root) holds, outside the targets it refers to. */
interface Unit {
  /** Its schema nodes the conversion reads (properties, items, union and `allOf` branches). */
  readonly size: number;
  /** Its references, each with the nesting depth of the node holding it. */
  readonly edges: readonly Edge[];
}

/** The unit of `node`: an iterative walk of the keywords the conversion reads. */
function unitOf(node: unknown, refs: RefResolver): Unit {
  let size = 0;
  const edges: Edge[] = [];
  // The nodes still to count and their depths, as two stacks (no object per node).
  const nodes: unknown[] = [node];
  const depths: number[] = [0];
  const follow = (ref: unknown, depth: number): void => {
    if (ref === undefined) return;
    try {
      const target = refs.resolve(ref, '');
      edges.push({ depth, target: target.pointer, node: target.node });
    } catch {
      // The conversion reports it, where and when it meets it.
    }
  };
  const pushAll = (list: unknown, depth: number): void => {
    if (!Array.isArray(list)) return;
    for (const child of list) {
      nodes.push(child);
      depths.push(depth);
    }
  };
  while (nodes.length > 0) {
    const schema = nodes.pop();
    const depth = depths.pop() as number;
    size++;
    if (!isPlainObject(schema)) continue;
    // Each keyword read by name (not from a list of names: that lookup is much slower).
    follow(schema.$ref, depth);
    follow(schema.$dynamicRef, depth);
    follow(schema.$recursiveRef, depth);
    const { properties, items, additionalItems } = schema;
    if (isPlainObject(properties)) {
      for (const name in properties) {
        if (!Object.hasOwn(properties, name)) continue;
        nodes.push(properties[name]);
        depths.push(depth + 1);
      }
    }
    // `items` and `additionalItems` hold one schema, or (draft 7 `items`) an array of them.
    if (items !== undefined && !Array.isArray(items)) {
      nodes.push(items);
      depths.push(depth + 1);
    }
    if (additionalItems !== undefined && !Array.isArray(additionalItems)) {
      nodes.push(additionalItems);
      depths.push(depth + 1);
    }
    pushAll(schema.anyOf, depth + 1);
    pushAll(schema.oneOf, depth + 1);
    pushAll(schema.prefixItems, depth + 1);
    pushAll(items, depth + 1);
    // `allOf` branches merge into the node: the same level.
    pushAll(schema.allOf, depth);
  }
  return { size, edges };
}

/** The unit of the target of `edge`, computed on first use. */
function targetUnit(
  units: Map<string, Unit>,
  edge: Unit['edges'][number],
  refs: RefResolver,
): Unit {
  let unit = units.get(edge.target);
  if (unit === undefined) {
    unit = unitOf(edge.node, refs);
    units.set(edge.target, unit);
  }
  return unit;
}

/** A path of `$ref` targets, innermost first. */
interface RefPath {
  readonly target: string;
  readonly up: RefPath | undefined;
  readonly length: number;
}

function occurrences(path: RefPath | undefined, target: string): number {
  let count = 0;
  for (let at = path; at !== undefined; at = at.up) if (at.target === target) count++;
  return count;
}

interface Estimate {
  /** True when the whole expansion stays within the limit. */
  readonly fits: boolean;
  /** The deepest level whose expansions all fit, when it does not. */
  readonly lastFullDepth: number;
}

/**
 * Counts the nodes `$ref` expansion brings into the output from the `root` unit, each recursive
 * `$ref` expanded up to `refDepth` times on a path, level by level (breadth-first), and stops as
 * soon as the count passes `limit`: the work is bounded by `limit`, whatever the schema. Each
 * target's own size is computed once.
 */
function estimate(
  root: Unit,
  refs: RefResolver,
  units: Map<string, Unit>,
  refDepth: number,
  limit: number,
  maxDepth: number,
): Estimate {
  const levels: { unit: Unit; path: RefPath | undefined }[][] = [[{ unit: root, path: undefined }]];
  let total = 0;
  for (let depth = 0; depth < levels.length; depth++) {
    const level = levels[depth] ?? [];
    // The level grows while it is read: a `$ref` at a unit's top lands on the same level.
    for (let i = 0; i < level.length; i++) {
      const { unit, path } = level[i] as { unit: Unit; path: RefPath | undefined };
      total += unit.size;
      if (total > limit) return { fits: false, lastFullDepth: depth - 1 };
      if ((path?.length ?? 0) >= maxDepth) continue;
      for (const edge of unit.edges) {
        if (occurrences(path, edge.target) >= refDepth) continue;
        const target = targetUnit(units, edge, refs);
        const at = depth + edge.depth;
        while (levels.length <= at) levels.push([]);
        levels[at]?.push({
          unit: target,
          path: { target: edge.target, up: path, length: (path?.length ?? 0) + 1 },
        });
      }
    }
  }
  return { fits: true, lastFullDepth: levels.length };
}

/**
 * The size of the `root` unit with every `$ref` expanded, each target's size computed once; or
 * `-1` for a schema with a recursive `$ref` or a chain deeper than `maxDepth` (not a bomb: the
 * recursion is cut, the chain refused by the conversion).
 */
function expandedSize(
  root: Unit,
  refs: RefResolver,
  units: Map<string, Unit>,
  maxDepth: number,
): number {
  const sizes = new Map<string, number>();
  const open = new Set<string>();
  let recursive = false;
  const sizeOf = (unit: Unit, depth: number): number => {
    let size = unit.size;
    for (const edge of unit.edges) {
      if (open.has(edge.target) || depth >= maxDepth) {
        recursive = true;
        continue;
      }
      let known = sizes.get(edge.target);
      if (known === undefined) {
        open.add(edge.target);
        known = sizeOf(targetUnit(units, edge, refs), depth + 1);
        open.delete(edge.target);
        sizes.set(edge.target, known);
      }
      size += known;
    }
    return size;
  };
  const size = sizeOf(root, 0);
  return recursive ? -1 : size;
}

/**
 * Decides, before any conversion, how far the `$ref`s of `root` are expanded. A schema whose
 * expansion fits in `maxOutputNodes` (or its own size, when larger) is expanded as the options
 * say; a larger one has its recursive `$ref`s cut at their first re-entry; if that is still too
 * large, `$ref`s are expanded breadth-first, level by level, and cut below the last level that
 * fits. Only a fan-out without recursion past `maxExpandedNodes` (a billion laughs) is refused.
 *
 * @throws GeminiMcpError `SCHEMA_TOO_LARGE` for a schema bomb.
 */
export function planExpansion(
  root: unknown,
  refs: RefResolver,
  limits: Limits,
  inputNodes: number,
): ExpansionPlan {
  const budget = Math.max(limits.maxOutputNodes, inputNodes);
  // Each target's unit (and the root's) is computed once, for every estimate.
  const units = new Map<string, Unit>();
  const top = unitOf(root, refs);
  const { maxRefDepth, maxDepth, maxExpandedNodes } = limits;
  if (estimate(top, refs, units, maxRefDepth, budget, maxDepth).fits) {
    return { refDepth: maxRefDepth, cutDepth: Number.POSITIVE_INFINITY, reason: undefined, budget };
  }
  const once = estimate(top, refs, units, 1, budget, maxDepth);
  if (once.fits) {
    return { refDepth: 1, cutDepth: Number.POSITIVE_INFINITY, reason: 'recursion', budget };
  }
  if (expandedSize(top, refs, units, maxDepth) > maxExpandedNodes) {
    throw tooLarge(
      `schema expands to more than maxExpandedNodes (${maxExpandedNodes}) nodes ($ref expansion)`,
      '',
      { maxExpandedNodes },
    );
  }
  return { refDepth: 1, cutDepth: once.lastFullDepth, reason: 'breadth', budget };
}
