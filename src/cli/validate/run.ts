/** The counters of one `validate` run, and its progress line on a terminal. */

import { terminalSafe } from '../io.js';
import type { ValidateIo } from './options.js';

/** Counters and the progress line. */
export class Run {
  payloads = 0;
  valid = 0;
  invalid = 0;
  warnings = 0;
  inputErrors = 0;
  files = 0;
  /** How many inputs the run has (globs expanded). */
  total = 0;
  bytes = 0;
  lines = 0;
  readonly kinds = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private shown = false;
  current = '';

  constructor(private readonly stderr: ValidateIo['stderr']) {
    if ((stderr as NodeJS.WriteStream).isTTY === true) {
      const started = Date.now();
      this.timer = setInterval(() => {
        if (Date.now() - started < 2000) return;
        this.shown = true;
        const mb = (this.bytes / 1e6).toFixed(1);
        const of = this.total > 1 ? ` (file ${this.files}/${this.total})` : '';
        stderr.write(
          `\r\x1b[Kvalidate: ${terminalSafe(this.current)}${of}: ${this.lines.toLocaleString('en-US')} lines, ${this.payloads.toLocaleString('en-US')} payloads, ${mb} MB, ${this.invalid} invalid`,
        );
      }, 500);
      this.timer.unref();
    }
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    if (this.shown) this.stderr.write('\r\x1b[K');
  }
}
