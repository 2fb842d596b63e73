/**
 * The terminal the CLI asks its questions on (elicitation forms, call approvals): its streams,
 * and one question at a time on it, whoever asks, so two prompts never read the same lines.
 */

/** The streams a prompt uses: questions go to stderr, so stdout keeps the command's output. */
export interface PromptIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Whether a person can be asked: stdin and stderr both terminals. */
export function isInteractive(io: PromptIo): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true;
}

/** The last question asked or waiting on each terminal (by its stdin). */
const queues = new WeakMap<object, Promise<unknown>>();

/**
 * Runs `ask` once every question asked before it on `io`'s terminal has been answered.
 *
 * @example
 * ```ts
 * const answer = await inTurn(io, () => askOnTerminal(io, query));
 * ```
 */
export function inTurn<T>(io: PromptIo, ask: () => Promise<T>): Promise<T> {
  const answer = (queues.get(io.stdin) ?? Promise.resolve()).then(ask);
  queues.set(
    io.stdin,
    answer.catch(() => undefined),
  );
  return answer;
}
