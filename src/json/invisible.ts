/**
 * Characters a reader cannot see but a model reads: Unicode format characters (zero-width
 * spaces and joiners, bidi controls, soft hyphen, BOM), tag characters U+E0000-E007F, variation
 * selectors and the other default-ignorable code points, C0/C1 controls except tab and newline,
 * and lone surrogates. Used to hide instructions inside tool descriptions.
 */
const INVISIBLE =
  /(?![\t\n])[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cs}\u{E0000}-\u{E007F}]/gu;

/** {@link INVISIBLE} for a test (no `g` flag: no `lastIndex` to carry between calls). */
const ANY_INVISIBLE = new RegExp(INVISIBLE.source, 'u');

/** A character other than printable ASCII, tab and newline: only such text can hold an invisible one. */
const NOT_PLAIN_ASCII = /[^\x20-\x7e\t\n]/;

/** The result of {@link stripInvisible}. */
export interface StrippedText {
  /** The text without its invisible characters. */
  text: string;
  /** How many code points were removed. */
  removed: number;
}

/**
 * Whether `text` holds an invisible character (see above): a read-only test that allocates
 * nothing, quick on printable ASCII (most schema text).
 *
 * @example
 * ```ts
 * hasInvisible('he\u200Bllo'); // true
 * hasInvisible('héllo'); // false
 * ```
 */
export function hasInvisible(text: string): boolean {
  return NOT_PLAIN_ASCII.test(text) && ANY_INVISIBLE.test(text);
}

/**
 * Removes invisible characters (see above), keeping tab and newline.
 *
 * @example
 * ```ts
 * stripInvisible('he\u200Bllo').text; // 'hello'
 * ```
 */
export function stripInvisible(text: string): StrippedText {
  // Most text (printable ASCII, tab and newline, or visible non-ASCII) holds nothing to strip.
  if (!hasInvisible(text)) return { text, removed: 0 };
  let removed = 0;
  const stripped = text.replace(INVISIBLE, () => {
    removed += 1;
    return '';
  });
  return { text: stripped, removed };
}
