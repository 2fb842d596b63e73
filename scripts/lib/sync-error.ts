/** The error every schema script throws for bad input: the CLI prints it and exits 2. */
export class SyncInputError extends Error {
  override readonly name = 'SyncInputError';
  /** Which input is at fault (a file path, a URL, or a description). */
  readonly input: string;

  constructor(input: string, message: string) {
    super(`${input}: ${message}`);
    this.input = input;
  }
}
