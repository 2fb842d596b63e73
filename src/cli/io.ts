/** Where the commands read and write: the process's streams. */
export interface CliIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/** What {@link terminalSafe} may leave as it is, and how it escapes. */
export interface TerminalSafeOptions {
  /** Keep line feeds and tabs (for text that is read as lines: a model's answer). */
  keepLines?: boolean;
  /**
   * `text` is JSON (from `JSON.stringify`, which escapes C0 controls but leaves C1 controls and
   * bidirectional overrides as they are): those become `\u0085`-style escapes, inside strings
   * where alone they can be, so the JSON reads back to the same value.
   */
  json?: boolean;
}

/**
 * Control characters (C0, DEL, C1) and bidirectional overrides in `text` written as visible
 * escapes (`\x1b`, `\u202e`): server-controlled names and messages printed as text cannot move
 * the cursor, erase lines, write the clipboard (OSC 52) or reorder what the terminal shows. With
 * `keepLines`, line feeds and tabs stay as they are (a carriage return is still escaped: it could
 * write over a line). With `json`, the JSON text keeps its meaning (see the option).
 *
 * @example
 * ```ts
 * terminalSafe('evil\x1b[2K\rtool'); // 'evil\\x1b[2K\\rtool'
 * terminalSafe('two\nlines\x07', { keepLines: true }); // 'two\nlines\\x07'
 * terminalSafe(JSON.stringify('\u202etxt'), { json: true }); // '"\\u202etxt"'
 * ```
 */
export function terminalSafe(text: string, options: TerminalSafeOptions = {}): string {
  const keepLines = options.keepLines === true || options.json === true;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu, (c) => {
    const code = c.charCodeAt(0);
    if (keepLines && (c === '\n' || c === '\t')) return c;
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return code < 0x100 && options.json !== true
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Longest JSON pointer a warning line quotes (UTF-16 units). */
const MAX_SHOWN_PATH = 200;

/**
 * A JSON pointer as a warning line quotes it: `(root)` for the root, a longer one than 200
 * characters cut to its start and end around the count of what was left out (a field name a
 * server or the model chose can be megabytes long). Not yet escaped: pass the line through
 * {@link terminalSafe}.
 *
 * @example
 * ```ts
 * shownPath(''); // '(root)'
 * shownPath(`/${'a'.repeat(5000)}`); // '/aaa...(4801 more characters)...aaa'
 * ```
 */
export function shownPath(path: string): string {
  if (path === '') return '(root)';
  if (path.length <= MAX_SHOWN_PATH) return path;
  const half = MAX_SHOWN_PATH / 2;
  return `${path.slice(0, half)}...(${path.length - MAX_SHOWN_PATH} more characters)...${path.slice(-half)}`;
}

/** Longest message of a notice or warning a line quotes (UTF-16 units). */
const MAX_SHOWN_MESSAGE = 1000;

/**
 * A warning's or notice's message as a line quotes it: cut after 1000 characters with the count
 * of the rest (messages quote field names, which a sender chose). Not yet escaped.
 *
 * @example
 * ```ts
 * shownMessage(`field "${'x'.repeat(5000)}" is unknown`); // 'field "xxx...(4019 more characters)'
 * ```
 */
export function shownMessage(message: string): string {
  return message.length <= MAX_SHOWN_MESSAGE
    ? message
    : `${message.slice(0, MAX_SHOWN_MESSAGE)}...(${message.length - MAX_SHOWN_MESSAGE} more characters)`;
}

/**
 * Rows as a table of columns two spaces apart, each cell terminal-safe; the last column is not
 * padded.
 *
 * @example
 * ```ts
 * table([['NAME', 'SERVER'], ['hello', 'bitcoin']]); // 'NAME   SERVER\nhello  bitcoin'
 * ```
 */
export function table(rows: readonly (readonly string[])[]): string {
  const safe = rows.map((row) => row.map((cell) => terminalSafe(cell)));
  const widths = (safe[0] ?? []).map((_, c) =>
    safe.reduce((most, row) => Math.max(most, row[c]?.length ?? 0), 0),
  );
  return safe
    .map((row) =>
      row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c] ?? 0))).join('  '),
    )
    .join('\n');
}
