/**
 * What stdio servers write to their stderr while a command runs: kept per server (bounded) and
 * shown after the command's own output, each line prefixed with the server's name, or written
 * to a file (`--server-log`), so it never interleaves with the output.
 */
import { writeFile } from 'node:fs/promises';
import { CliError, describeFileError } from '../cli-error.js';
import { terminalSafe } from '../io.js';

/** Stderr kept per server: 64 KiB (UTF-16 units); the rest is counted, not kept. */
const MAX_SERVER_LOG_CHARS = 64 * 1024;

/**
 * Servers' stderr, collected as it arrives.
 *
 * @example
 * ```ts
 * const log = new ServerLog();
 * log.add('fs', 'Secure MCP Filesystem Server running on stdio\n');
 * await log.flush(process.stderr); // [fs] Secure MCP Filesystem Server running on stdio
 * ```
 */
export class ServerLog {
  readonly #texts = new Map<string, { text: string; dropped: number }>();

  /** Adds a chunk of `serverId`'s stderr. */
  readonly add = (serverId: string, text: string): void => {
    const kept = this.#texts.get(serverId) ?? { text: '', dropped: 0 };
    const room = MAX_SERVER_LOG_CHARS - kept.text.length;
    kept.text += text.slice(0, Math.max(0, room));
    kept.dropped += Math.max(0, text.length - room);
    this.#texts.set(serverId, kept);
  };

  /** The collected lines, `[server] line`, and forgets them. */
  #take(safe: (line: string) => string): string {
    let out = '';
    for (const [serverId, { text, dropped }] of this.#texts) {
      const lines = text.split(/\r?\n/);
      if (lines.at(-1) === '') lines.pop();
      for (const line of lines) out += `[${safe(serverId)}] ${safe(line)}\n`;
      if (dropped > 0) out += `[${safe(serverId)}] ... ${dropped} more characters not kept\n`;
    }
    this.#texts.clear();
    return out;
  }

  /**
   * Writes what was collected to `file` (as it came) or, without a file, to `stderr` (control
   * characters made visible), then forgets it.
   */
  async flush(stderr: NodeJS.WritableStream, file?: string): Promise<void> {
    if (file === undefined) {
      stderr.write(this.#take(terminalSafe));
      return;
    }
    const text = this.#take((line) => line);
    try {
      await writeFile(file, text);
    } catch (error) {
      throw new CliError(`--server-log ${describeFileError(file, error)}`);
    }
  }
}
