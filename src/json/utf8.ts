/** UTF-8 byte arithmetic on JavaScript strings, always on code point boundaries. */
import { Buffer } from 'node:buffer';

/** The UTF-8 length of one code point. Lone surrogates count as U+FFFD (3 bytes), as encoders write them. */
function codePointBytes(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * The number of bytes `text` takes in UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes).
 *
 * @example
 * ```ts
 * utf8ByteLength('é'); // 2
 * ```
 */
export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, never splitting a code
 * point (a surrogate pair stays whole or goes whole).
 *
 * @example
 * ```ts
 * truncateUtf8('aé', 2); // 'a'
 * ```
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += codePointBytes(char.codePointAt(0)!);
    if (bytes > maxBytes) return text.slice(0, end);
    end += char.length;
  }
  return text;
}
