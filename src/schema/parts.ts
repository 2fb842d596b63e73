/**
 * The converter's unit of work: a conjunction of source schema objects ("parts") that must all
 * hold at one place of the output. `$ref` targets, `allOf` branches and the siblings of a union
 * all become parts of one conjunction, each keeping its own JSON pointer into the source.
 */
import { ANNOTATIONS } from './keywords.js';

/** One source schema (object or boolean) taking part in a conjunction. */
export interface Part {
  /** The source schema. */
  readonly node: unknown;
  /** Its JSON pointer in the source. */
  readonly pointer: string;
  /** The `$ref` targets (canonical pointers) expanded on the way here, outermost first. */
  readonly refs: readonly string[];
  /** Keywords of `node` to ignore (already applied elsewhere), as a {@link skipMask}. */
  readonly skip?: number;
  /** When set, the only keywords of `node` to read. */
  readonly only?: ReadonlySet<string>;
  /** Pointers of the branches of a synthetic `anyOf` node (a tuple turned into a union). */
  readonly branchPointers?: readonly string[];
}

/** The value of `keyword` in `part`, unless the part ignores it or lacks it. */
export function read(part: Part, keyword: string): unknown {
  const node = part.node;
  if (node === null || typeof node !== 'object' || !Object.hasOwn(node, keyword)) return undefined;
  if (skips(part, keyword)) return undefined;
  return (node as Record<string, unknown>)[keyword];
}

/** The keywords of `part` still to read, in source order (a keyword holding `undefined` is absent). */
export function keywords(part: Part): string[] {
  const node = part.node;
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node)
    .filter(([keyword, value]) => value !== undefined && !skips(part, keyword))
    .map(([keyword]) => keyword);
}

/** The keywords a part can be told to ignore. */
const SKIPPABLE_KEYWORDS = [
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'allOf',
  'anyOf',
  'oneOf',
  ...ANNOTATIONS,
] as const;

/** A keyword a part can be told to ignore. */
export type SkippableKeyword = (typeof SKIPPABLE_KEYWORDS)[number];

/** One bit per skippable keyword. */
const SKIPPABLE: ReadonlyMap<string, number> = new Map(
  SKIPPABLE_KEYWORDS.map((keyword, i) => [keyword, 1 << i]),
);

/** The mask of `keywords` for {@link without}. */
export function skipMask(keywords: readonly SkippableKeyword[]): number {
  return keywords.reduce((mask, keyword) => mask | (SKIPPABLE.get(keyword) ?? 0), 0);
}

function skips(part: Part, keyword: string): boolean {
  if (part.only !== undefined && !part.only.has(keyword)) return true;
  if (part.skip === undefined) return false;
  const bit = SKIPPABLE.get(keyword);
  return bit !== undefined && (part.skip & bit) !== 0;
}

/** `part` with the keywords of the mask `more` ignored as well. */
export function without(part: Part, more: number): Part {
  return { ...part, skip: (part.skip ?? 0) | more };
}

/** Raised inside the converter when a conjunction accepts no value at all. */
export class Unsatisfiable extends Error {
  readonly pointer: string;

  constructor(pointer: string, reason: string) {
    super(reason);
    this.name = 'Unsatisfiable';
    this.pointer = pointer;
  }
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
