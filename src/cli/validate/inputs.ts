/**
 * The inputs `validate` is given: files, `-` for stdin, and globs it expands itself, so a quoted
 * `'fixtures/**'` means the same under every shell (GitHub's bash has no globstar).
 */
import { lstat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';

/** What {@link expandInputs} found. */
export interface ExpandedInputs {
  /** Files (and `-`) in order: each argument's place kept, a glob's matches sorted. */
  readonly paths: string[];
  /** The globs that matched no file. */
  readonly unmatched: string[];
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Characters without which no argument is a glob (wildcards, classes, braces, extglobs,
 * negation, escapes): a path holding none is a path, and the glob library is not even loaded.
 */
const GLOB_CHARACTERS = /[*?[\]{}()!+@\\]/;

/** Code-point order, the same in every locale. */
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Expands the globs among `args` (`*`, `**`, `?`, `[...]`, `{a,b}`) into the files they match,
 * relative to `cwd` (absolute for an absolute glob), sorted by code point; files only, dot files
 * only when the glob names them. An argument that names an existing path, or has no glob
 * characters, is kept as given (its errors are the reader's to report). A file named twice is
 * read once, at its first place.
 *
 * @example
 * ```ts
 * const { paths, unmatched } = await expandInputs(['fixtures/{calls,turns}/*.json', 'logs/*.jsonl', '-']);
 * // paths: ['fixtures/calls/a.json', 'fixtures/turns/b.json', '-'], unmatched: ['logs/*.jsonl']
 * ```
 */
export async function expandInputs(
  args: readonly string[],
  cwd: string = process.cwd(),
): Promise<ExpandedInputs> {
  const paths: string[] = [];
  const unmatched: string[] = [];
  const seen = new Set<string>();
  const add = (path: string): void => {
    const key = path === '-' ? path : resolve(cwd, path);
    if (seen.has(key)) return;
    seen.add(key);
    paths.push(path);
  };
  for (const arg of args) {
    if (arg === '-' || !GLOB_CHARACTERS.test(arg)) {
      add(arg);
      continue;
    }
    const { glob, isDynamicPattern } = await import('tinyglobby');
    if (!isDynamicPattern(arg) || (await exists(resolve(cwd, arg)))) {
      add(arg);
      continue;
    }
    const matches = await glob(arg, {
      cwd,
      absolute: isAbsolute(arg),
      onlyFiles: true,
      expandDirectories: false,
    });
    if (matches.length === 0) unmatched.push(arg);
    for (const match of matches.sort(byCodePoint)) add(match);
  }
  return { paths, unmatched };
}
