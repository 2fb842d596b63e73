/** Close matches for a misspelt name, for error messages the model can act on. */

/** Names longer than this are compared by their first this-many characters only. */
const MAX_COMPARED_LENGTH = 128;

/** Levenshtein distance between two strings (UTF-16 units), in O(a·b) time and O(b) space. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** A name that may be suggested, and other names it is also known by. */
export interface SuggestedName {
  name: string;
  aliases?: readonly string[];
}

/**
 * Up to `limit` candidate names close to `name`, closest first: the same ignoring case, one
 * containing the other, or within an edit distance of a third of the name's length (at least
 * 2). A candidate is compared by its name and by each of its aliases, the closest counting.
 *
 * @example
 * ```ts
 * closestNames('get_wether', [{ name: 'get_weather' }, { name: 'list_files' }]); // ['get_weather']
 * closestNames('hello', [{ name: 'a__hello', aliases: ['hello'] }]); // ['a__hello']
 * ```
 */
export function closestNames(
  name: string,
  candidates: Iterable<SuggestedName>,
  limit = 3,
): string[] {
  const wanted = name.slice(0, MAX_COMPARED_LENGTH).toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const candidate of candidates) {
    let best = Number.POSITIVE_INFINITY;
    for (const known of [candidate.name, ...(candidate.aliases ?? [])]) {
      const other = known.slice(0, MAX_COMPARED_LENGTH).toLowerCase();
      const distance = editDistance(wanted, other);
      const contains = wanted.length >= 3 && (other.includes(wanted) || wanted.includes(other));
      if (distance <= Math.max(2, Math.floor(wanted.length / 3)) || contains) {
        best = Math.min(best, distance);
      }
    }
    if (best !== Number.POSITIVE_INFINITY) scored.push({ name: candidate.name, score: best });
  }
  scored.sort((x, y) => x.score - y.score || (x.name < y.name ? -1 : 1));
  return scored.slice(0, limit).map((entry) => entry.name);
}
