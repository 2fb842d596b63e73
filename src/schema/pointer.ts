/**
 * JSON pointers (RFC 6901) into the source schema: building them, and reading the fragment of a
 * local `$ref` (`#/$defs/Foo`, percent-encoded or not).
 */
import { appendPointer } from '../json/pointer.js';

/** `pointer` extended by `tokens`, each escaped (most need no escaping: that path is kept cheap). */
export function childPointer(pointer: string, ...tokens: readonly (string | number)[]): string {
  let out = pointer;
  for (const token of tokens) {
    const text = String(token);
    out = text.includes('~') || text.includes('/') ? appendPointer(out, text) : `${out}/${text}`;
  }
  return out;
}

/**
 * The tokens of a JSON pointer fragment (`/a/b~1c` gives `['a', 'b/c']`), or `undefined` when it
 * is not a pointer (a malformed escape or percent-encoding).
 */
export function parsePointer(fragment: string): string[] | undefined {
  if (fragment === '') return [];
  if (!fragment.startsWith('/')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  const tokens: string[] = [];
  for (const raw of decoded.slice(1).split('/')) {
    if (/~[^01]|~$/.test(raw)) return undefined;
    tokens.push(raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return tokens;
}
