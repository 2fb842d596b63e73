/**
 * The converter's unit of work: a conjunction of source schema objects ("parts") that must all
 * hold at one place of the output. `$ref` targets, `allOf` branches and the siblings of a union
 * all become parts of one conjunction, each keeping its own JSON pointer into the source.
 */

/** One source schema (object or boolean) taking part in a conjunction. */
export interface Part {
  /** The source schema. */
  readonly node: unknown;
  /** Its JSON pointer in the source. */
  readonly pointer: string;
  /** The `$ref` targets (canonical pointers) expanded on the way here, outermost first. */
  readonly refs: readonly string[];
  /** Sets of keywords of `node` to ignore (already applied elsewhere). */
  readonly skip?: readonly ReadonlySet<string>[];
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

function skips(part: Part, keyword: string): boolean {
  if (part.only !== undefined && !part.only.has(keyword)) return true;
  return part.skip?.some((set) => set.has(keyword)) === true;
}

/** `part` with the keywords of `more` ignored as well. */
export function without(part: Part, more: ReadonlySet<string>): Part {
  return { ...part, skip: part.skip === undefined ? [more] : [...part.skip, more] };
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
