/** Where the commands read and write: the process's streams. */
export interface CliIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/**
 * Control characters (C0, DEL, C1) and bidirectional overrides in `text` written as visible
 * escapes (`\x1b`, `\u202e`): server-controlled names and messages printed as text cannot move
 * the cursor, erase lines or reorder what the terminal shows. For text output only (JSON output
 * escapes by itself).
 *
 * @example
 * ```ts
 * terminalSafe('evil\x1b[2K\rtool'); // 'evil\\x1b[2K\\rtool'
 * ```
 */
export function terminalSafe(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu, (c) => {
    const code = c.charCodeAt(0);
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return code < 0x100
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
