/**
 * Characters a reader cannot see but a model reads: Unicode format characters (zero-width
 * spaces and joiners, bidi controls, soft hyphen, BOM), tag characters U+E0000-E007F, variation
 * selectors and the other default-ignorable code points, C0/C1 controls except tab and newline,
 * and lone surrogates. Used to hide instructions inside tool descriptions.
 */
const INVISIBLE =
  /(?![\t\n])[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cs}\u{E0000}-\u{E007F}]/gu;

const PLAIN_ASCII = /^[\x20-\x7e\t\n]*$/;

/** The result of {@link stripInvisible}. */
export interface StrippedText {
  /** The text without its invisible characters. */
  text: string;
  /** How many code points were removed. */
  removed: number;
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
  // Printable ASCII, tab and newline (most descriptions) hold nothing to strip: skip the scan.
  if (PLAIN_ASCII.test(text)) return { text, removed: 0 };
  let removed = 0;
  const stripped = text.replace(INVISIBLE, () => {
    removed += 1;
    return '';
  });
  return { text: stripped, removed };
}
