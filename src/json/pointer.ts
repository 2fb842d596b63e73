/** JSON pointers (RFC 6901). */

/**
 * `pointer` extended by one reference token, `~` and `/` escaped.
 *
 * @example
 * ```ts
 * appendPointer('/properties', 'a/b'); // '/properties/a~1b'
 * ```
 */
export function appendPointer(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/**
 * The reference tokens of a JSON pointer, unescaped (`/a~1b/0` gives `['a/b', '0']`), or
 * `undefined` when it is not a pointer (no leading `/`, or a `~` not followed by 0 or 1).
 *
 * @example
 * ```ts
 * decodePointer('/properties/a~1b'); // ['properties', 'a/b']
 * ```
 */
export function decodePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    if (/~[^01]|~$/.test(raw)) return undefined;
    tokens.push(raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return tokens;
}

/** A place in a walk over JSON data: the token that led to it from its parent. */
export interface WalkStep {
  readonly parent: WalkStep | undefined;
  readonly token: string | number;
}

/**
 * The JSON pointer of a place reached by an iterative walk, built from its chain of parents
 * (only when asked for: most places never need one).
 *
 * @example
 * ```ts
 * const root = { parent: undefined, token: '' };
 * pointerOfStep({ parent: { parent: root, token: 'a/b' }, token: 0 }); // '/a~1b/0'
 * ```
 */
export function pointerOfStep(step: WalkStep): string {
  const tokens: (string | number)[] = [];
  for (let at: WalkStep | undefined = step; at?.parent !== undefined; at = at.parent) {
    tokens.push(at.token);
  }
  return tokens.reduceRight<string>((pointer, token) => appendPointer(pointer, token), '');
}
