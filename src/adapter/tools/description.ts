/** Tool descriptions as Gemini will see them: visible characters only, bounded in size. */
import { stripInvisible } from '../../json/invisible.js';
import { truncateUtf8, utf8ByteLength } from '../../json/utf8.js';

/** The largest description emitted, in bytes of UTF-8. */
export const MAX_DESCRIPTION_BYTES = 4096;

/** Appended to a description cut at {@link MAX_DESCRIPTION_BYTES}. */
const DESCRIPTION_TRUNCATION_MARKER = '…';

/** The result of {@link sanitizeDescription}. */
export interface SanitizedDescription {
  /** The description to emit. */
  text: string;
  /** How many invisible code points were removed. */
  removedCharacters: number;
  /** Whether the description was cut to fit {@link MAX_DESCRIPTION_BYTES}. */
  truncated: boolean;
}

/**
 * Makes a tool description safe to emit: `""` when missing, invisible characters removed (see
 * `stripInvisible`), and capped at 4096 bytes of UTF-8 on a code point boundary, a cut one
 * ending in `…` (the marker counts toward the cap). `visible`: the description is known to hold
 * no invisible character (a tool set's snapshot found none), so it is not looked for again.
 *
 * @example
 * ```ts
 * sanitizeDescription('Says hello\u202E').text; // 'Says hello'
 * sanitizeDescription(undefined).text; // ''
 * ```
 */
export function sanitizeDescription(
  description: string | undefined,
  visible = false,
): SanitizedDescription {
  const { text, removed } = visible
    ? { text: description ?? '', removed: 0 }
    : stripInvisible(description ?? '');
  if (utf8ByteLength(text) <= MAX_DESCRIPTION_BYTES) {
    return { text, removedCharacters: removed, truncated: false };
  }
  const room = MAX_DESCRIPTION_BYTES - utf8ByteLength(DESCRIPTION_TRUNCATION_MARKER);
  return {
    text: truncateUtf8(text, room) + DESCRIPTION_TRUNCATION_MARKER,
    removedCharacters: removed,
    truncated: true,
  };
}
