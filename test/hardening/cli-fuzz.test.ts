/**
 * `gemini-mcp-kit validate` on random bytes and random JSON: it reports, it never crashes. Exit
 * 0, 1 or 2 only, a parseable JSON report, no stack trace; every payload accounted for (a line
 * holding an array is one payload per element).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../cli/helpers.js';
import { anyValue } from './arbitraries.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261129);
/** Long runs (FUZZ_RUNS=100000) need more than the default minute per test. */
const TIMEOUT = 60_000 + RUNS * 10;
const work = tempDir();
afterAll(() => work.remove());

const STACK_TRACE = /\n\s+at .+:\d+:\d+/;

describe('validate under fuzzing', { timeout: TIMEOUT }, () => {
  it(`${Math.ceil(RUNS / 20)} files of random bytes: a report per file, never a crash`, async () => {
    const files = fc
      .sample(fc.uint8Array({ maxLength: 4096 }), { seed: SEED, numRuns: Math.ceil(RUNS / 20) })
      .map((bytes, i) => {
        const file = join(work.dir, `bytes-${i}.bin`);
        writeFileSync(file, bytes);
        return file;
      });
    const run = await runCli(['validate', '--format', 'json', ...files]);
    expect([0, 1, 2]).toContain(run.code);
    expect(run.stderr).not.toMatch(STACK_TRACE);
    const report = JSON.parse(run.stdout);
    expect(report.counts.inputs).toBe(files.length);
  });

  it.each([
    ['auto', ['--kind', 'auto']],
    ['part', ['--kind', 'part']],
    ['generate-content-request --request', ['--kind', 'generate-content-request', '--request']],
  ])(`${RUNS} random JSON payloads as %s: one verdict per line`, async (label, flags) => {
    const values = fc.sample(fc.oneof(anyValue, fc.jsonValue({ maxDepth: 4 })), {
      seed: SEED,
      numRuns: RUNS,
    });
    const lines = values.map((value) => JSON.stringify(value) ?? 'null');
    const file = join(work.dir, `${label.replace(/\W+/g, '-')}.jsonl`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const run = await runCli([
      'validate',
      '--format',
      'json',
      '--input',
      'jsonl',
      '--max-errors',
      '100000',
      ...flags,
      file,
    ]);
    expect([0, 1]).toContain(run.code);
    expect(run.stderr).not.toMatch(STACK_TRACE);
    const report = JSON.parse(run.stdout);
    // A line holding a JSON array is as many payloads as it has elements (an empty one is one).
    const payloads = lines
      .map((line) => JSON.parse(line) as unknown)
      .reduce<number>((n, v) => n + (Array.isArray(v) && v.length > 0 ? v.length : 1), 0);
    expect(report.counts.payloads).toBe(payloads);
    expect(report.counts.valid + report.counts.invalid).toBe(payloads);
    for (const finding of report.findings) expect(finding.line).toBeGreaterThan(0);
  });
});
