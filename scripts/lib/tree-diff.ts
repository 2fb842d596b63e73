/** How two trees of generated files differ (committed against fresh), file by file. */

/** One file that differs. */
export interface FileDifference {
  file: string;
  /** `missing`: only fresh has it; `stale`: only the committed tree has it. */
  kind: 'missing' | 'differs' | 'stale';
  /** For `differs`: lines only the fresh file has, and lines only the committed one has. */
  added: number;
  removed: number;
  /** For `differs`: the first differing line, both sides. */
  first: string;
}

function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const line = left.findIndex((text, i) => text !== right[i]);
  const at = line === -1 ? left.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(left[at]?.slice(0, 80))}, fresh ${JSON.stringify(right[at]?.slice(0, 80))}`;
}

/** Lines only in `a` (as a multiset), counted. */
function linesOnlyIn(a: string[], b: string[]): number {
  const counts = new Map<string, number>();
  for (const line of b) counts.set(line, (counts.get(line) ?? 0) + 1);
  let only = 0;
  for (const line of a) {
    const left = counts.get(line) ?? 0;
    if (left === 0) only += 1;
    else counts.set(line, left - 1);
  }
  return only;
}

/** Compares a committed tree with a fresh one (file name to text), sorted by file. */
export function treeDifferences(
  committed: Map<string, string>,
  fresh: Map<string, string>,
): FileDifference[] {
  const differences: FileDifference[] = [];
  for (const file of [...new Set([...committed.keys(), ...fresh.keys()])].sort()) {
    const current = committed.get(file);
    const text = fresh.get(file);
    if (current === undefined) {
      differences.push({ file, kind: 'missing', added: 0, removed: 0, first: '' });
    } else if (text === undefined) {
      differences.push({ file, kind: 'stale', added: 0, removed: 0, first: '' });
    } else if (current !== text) {
      const before = current.split('\n');
      const after = text.split('\n');
      differences.push({
        file,
        kind: 'differs',
        added: linesOnlyIn(after, before),
        removed: linesOnlyIn(before, after),
        first: firstDifference(current, text),
      });
    }
  }
  return differences;
}
