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
