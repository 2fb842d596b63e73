/** The status line `answer` and `chat` draw on a terminal's stderr (issue 15). */
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../src/cli/servers/progress.js';
import type { CallProgress } from '../../src/runtime/mcp/call-progress.js';

function stream(isTTY: boolean, columns = 60) {
  const written: string[] = [];
  return {
    written,
    stream: {
      isTTY,
      columns,
      write: (text: string) => {
        written.push(text);
        return true;
      },
    } as Pick<NodeJS.WriteStream, 'isTTY' | 'columns' | 'write'>,
  };
}

const step = (progress: number, extra: Partial<CallProgress> = {}): CallProgress => ({
  index: 0,
  callId: 'c1',
  exposedName: 'slow',
  serverId: 'everything',
  progress,
  total: 4,
  ...extra,
});

describe('issue 15: progress on a terminal', () => {
  it('off a terminal: no onProgress (no progress asked of servers), nothing written', () => {
    const { stream: err, written } = stream(false);
    const line = progressLine(err);
    expect(line.callOptions).toEqual({});
    line.clear();
    expect(written).toEqual([]);
  });

  it('draws in place, throttles all but the last step, escapes control characters and cuts to the width', () => {
    const { stream: err, written } = stream(true, 40);
    const line = progressLine(err);
    const onProgress = line.callOptions.onProgress!;
    onProgress(step(1, { message: 'evil\x1b[2Jtext' }));
    onProgress(step(2));
    onProgress(step(4, { message: 'done' }));
    expect(written).toEqual([
      '\r\x1b[2Keverything/slow 1/4 (25%): evil\\x1b[2Jt',
      '\r\x1b[2Keverything/slow 4/4 (100%): done',
    ]);
    line.clear();
    line.clear();
    expect(written.slice(2)).toEqual(['\r\x1b[2K']);
  });

  it('without a total: the count alone', () => {
    const { stream: err, written } = stream(true);
    const { total: _, ...untotalled } = step(7);
    progressLine(err).callOptions.onProgress!(untotalled);
    expect(written).toEqual(['\r\x1b[2Keverything/slow 7']);
  });
});
