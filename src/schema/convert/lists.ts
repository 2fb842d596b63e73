/**
 * List helpers of the conversion. Lists are copied by hand or spread here, not with `slice` and
 * the like: a source list may be frozen (a tool set's snapshot), which sends the array builtins
 * down their slow path.
 */

/** `list` with `item` added: a list of one made to size (most lists here hold one). */
export function append<T>(list: T[] | undefined, item: T): T[] {
  if (list === undefined) return [item];
  list.push(item);
  return list;
}

/** A new list: `list`, then `item` (made to size). */
export function plus<T>(list: readonly T[], item: T): T[] {
  const out = new Array<T>(list.length + 1);
  for (let i = 0; i < list.length; i++) out[i] = list[i] as T;
  out[list.length] = item;
  return out;
}

/** Whether a list of plain values holds one twice (short lists, most enums, without a `Set`). */
export function repeats(list: readonly unknown[]): boolean {
  if (list.length > 16) return new Set(list).size !== list.length;
  for (let i = 1; i < list.length; i++) {
    for (let j = 0; j < i; j++) if (list[i] === list[j]) return true;
  }
  return false;
}
