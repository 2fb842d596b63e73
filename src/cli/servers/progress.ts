/**
 * Progress of running tool calls on one status line of a terminal's stderr (`answer`, `chat`):
 * redrawn in place, throttled, cleared before other output; nothing at all when stderr is not a
 * terminal.
 */
import type { CallProgress } from '../../runtime/mcp/call-progress.js';
import { terminalSafe } from '../io.js';

/** The fewest milliseconds between two redraws (a call's last step is always drawn). */
const REDRAW_MS = 100;
/** The width when the terminal does not say. */
const DEFAULT_COLUMNS = 80;
/** Erases the cursor's line and returns to its start. */
const ERASE_LINE = '\r\x1b[2K';

/** The status line: what to give the calls, and how to clear it. */
export interface ProgressLine {
  /** `{ onProgress }` on a terminal, `{}` otherwise (then no progress is asked of servers). */
  readonly callOptions: { onProgress?: (progress: CallProgress) => void };
  /** Erases the status line, if one is shown, so other output starts on a clean line. */
  clear(): void;
}

/** One progress report in words: `everything/slow_tool 2/3 (67%): copying`. */
function describeProgress(p: CallProgress): string {
  const of = p.total === undefined ? '' : `/${p.total}`;
  const percent =
    p.total === undefined || p.total <= 0 ? '' : ` (${Math.round((p.progress / p.total) * 100)}%)`;
  const message = p.message === undefined ? '' : `: ${p.message}`;
  return `${p.serverId}/${p.exposedName} ${p.progress}${of}${percent}${message}`;
}

/**
 * A status line on `stream` when it is a terminal: each call's progress replaces the line
 * (control characters escaped, cut to the terminal's width), at most every 100 ms but for a
 * call's last step; off a terminal it shows nothing and asks for nothing.
 *
 * @example
 * ```ts
 * const progress = progressLine(process.stderr);
 * try {
 *   await answerCalls(turn, toolset, clients, { ...progress.callOptions });
 * } finally {
 *   progress.clear();
 * }
 * ```
 */
export function progressLine(
  stream: Pick<NodeJS.WriteStream, 'isTTY' | 'columns' | 'write'>,
): ProgressLine {
  let shown = false;
  let drawnAt = Number.NEGATIVE_INFINITY;
  const clear = (): void => {
    if (shown) stream.write(ERASE_LINE);
    shown = false;
  };
  if (stream.isTTY !== true) return { callOptions: {}, clear: () => {} };
  const onProgress = (progress: CallProgress): void => {
    const now = performance.now();
    const last = progress.total !== undefined && progress.progress >= progress.total;
    if (!last && now - drawnAt < REDRAW_MS) return;
    drawnAt = now;
    const width = Math.max(1, (stream.columns || DEFAULT_COLUMNS) - 1);
    stream.write(`${ERASE_LINE}${terminalSafe(describeProgress(progress)).slice(0, width)}`);
    shown = true;
  };
  return { callOptions: { onProgress }, clear };
}
