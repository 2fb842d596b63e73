/**
 * `validate` streams: peak RSS for a 100k-line JSONL (about 100 MB) stays within a small
 * margin of the peak for 10k lines. The CLI reports its peak RSS with --debug
 * (`process.resourceUsage().maxRSS`). A reader that held the file would need 100 MB more.
 */
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './build.js';
import { runCli, tempDir } from './helpers.js';

let dir: string;
let remove: () => void;

function writeJsonl(path: string, count: number): void {
  const fd = openSync(path, 'w');
  let chunk = '';
  for (let i = 0; i < count; i++) {
    const payload = {
      candidates: [
        {
          content: { role: 'model', parts: [{ text: `${'x'.repeat(900)}${i}` }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      modelVersion: 'gemini-2.5-flash',
    };
    chunk += `${JSON.stringify(payload)}\n`;
    if (chunk.length > 1_000_000) {
      writeSync(fd, chunk);
      chunk = '';
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
}

async function peakRss(path: string): Promise<number> {
  const run = await runCli(['--debug', 'validate', '--kind', 'generate-content-response', path]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const match = /maxRSS (\d+) KiB/.exec(run.stderr);
  expect(match, run.stderr).not.toBeNull();
  return Number(match![1]) * 1024;
}

beforeAll(() => {
  ({ dir, remove } = tempDir());
});
afterAll(() => remove());

beforeAll(ensureBuilt, 300_000);

describe('validate memory', () => {
  it('peak RSS is flat from 10k to 100k lines', async () => {
    const small = join(dir, '10k.jsonl');
    const large = join(dir, '100k.jsonl');
    writeJsonl(small, 10_000);
    writeJsonl(large, 100_000);
    expect(statSync(large).size).toBeGreaterThan(100_000_000);
    const [smallRss, largeRss] = [await peakRss(small), await peakRss(large)];
    // Ten times the input (90 MB more) may cost at most 40 MB more peak memory.
    expect(largeRss - smallRss).toBeLessThan(40 * 1024 * 1024);
  }, 180_000);
});
