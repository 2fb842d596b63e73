/** The command line's own failures: a one-line message and the exit code it ends with. */

/** Exit codes of every command. */
export const EXIT = {
  /** Everything checked is valid; the command did its job. */
  OK: 0,
  /** Some payload is invalid (or, for answer/chat, the model turn could not be used). */
  INVALID: 1,
  /** Usage error, unreadable input, a server that cannot be started, a missing API key. */
  USAGE: 2,
} as const;

/** A failure shown as `gemini-mcp-kit: <message>` (no stack unless --debug), ending with `exitCode`. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.USAGE,
    options: { cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** A one-line description of an I/O error (`ENOENT` -> `no such file`), naming the path. */
export function describeFileError(path: string, error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return `${path}: no such file`;
    case 'EACCES':
    case 'EPERM':
      return `${path}: permission denied`;
    case 'EISDIR':
      return `${path}: is a directory (give the files in it)`;
    default:
      return `${path}: cannot read (${error instanceof Error ? error.message : String(error)})`;
  }
}
