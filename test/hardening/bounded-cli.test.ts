/**
 * Issue 13 (CLI half): `validate` and the server commands do bounded work on hostile input and
 * print server-controlled text without terminal escapes. The CLI runs as a child process with a
 * capped heap where memory is the point.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from '../cli/helpers.js';

const work = tempDir();
afterAll(() => work.remove());

/** A request whose last turn answers 20,000 calls with ids that match none of theirs. */
function mismatchedRequest(calls: number): object {
  return {
    contents: [
      { role: 'user', parts: [{ text: 'go' }] },
      {
        role: 'model',
        parts: Array.from({ length: calls }, (_, i) => ({
          functionCall: { id: `call-${i}`, name: 'f', args: { n: i } },
        })),
      },
      {
        role: 'user',
        parts: Array.from({ length: calls }, (_, i) => ({
          functionResponse: { id: `other-${i}`, name: 'f', response: { output: 'done' } },
        })),
      },
    ],
  };
}

describe('issue 13: validate --request on 20,000 mismatched calls', () => {
  it('finishes in a 96 MB heap with a bounded report (20 findings per rule, counted rest)', async () => {
    const file = join(work.dir, 'mismatched.json');
    const text = JSON.stringify(mismatchedRequest(20_000));
    expect(text.length).toBeGreaterThan(2_800_000);
    writeFileSync(file, text);
    const run = await runCli(
      ['validate', '--request', '--kind', 'generate-content-request', '--format', 'json', file],
      { nodeArgs: ['--max-old-space-size=96'] },
    );
    expect(run.code, run.stderr.slice(0, 500)).toBe(1);
    const report = JSON.parse(run.stdout) as { findings: { keyword?: string; message: string }[] };
    const rule = (name: string) => report.findings.filter((f) => f.keyword === `request/${name}`);
    // 20 shown + 1 "and 19,980 more" per rule.
    expect(rule('response-id')).toHaveLength(21);
    expect(rule('unanswered-call')).toHaveLength(21);
    expect(rule('response-id').at(-1)?.message).toMatch(/and 19980 more/);
    // A message quotes at most 5 ids and counts the rest.
    const first = rule('response-id')?.[0]?.message ?? '';
    expect(first).toMatch(/call-4, and 19995 more\)$/);
    expect(first.length).toBeLessThan(300);
  });
});

describe('issue 13: a 2,000-deep line in a JSONL file', () => {
  it('is reported as too deep on its own line; the lines after it are still checked', async () => {
    let schema: object = { type: 'STRING' };
    for (let i = 0; i < 1000; i++) schema = { type: 'ARRAY', items: schema }; // 2,000 JSON levels
    const ok = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    const deep = JSON.stringify({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: { responseSchema: schema },
    });
    const file = join(work.dir, 'deep.jsonl');
    writeFileSync(file, `${[ok, deep, ok, '[1,'].join('\n')}\n`);
    const run = await runCli(['validate', '--format', 'json', file]);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as {
      counts: Record<string, number>;
      findings: { line: number; keyword?: string; message: string; pointer: string }[];
    };
    expect(report.findings.map((f) => [f.line, f.keyword])).toEqual([
      [2, 'too-deep'],
      [4, 'json'],
    ]);
    expect(report.findings[0]?.message).toMatch(/^nested deeper than 512 levels/);
    expect(report.findings[0]?.pointer).toMatch(/^\/generationConfig\/responseSchema\/items/);
    expect(report.counts).toMatchObject({ payloads: 4, valid: 2, invalid: 2, inputErrors: 0 });
  });
});

describe('issue 13: tools --format table over 150,000 tools', () => {
  it('prints the table (no spread over the rows: Math.max(...rows) overflowed the stack)', async () => {
    const config = join(work.dir, 'many-tools.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          fault: {
            command: process.execPath,
            args: [join(ROOT, 'test', 'support', 'fault-server.mjs')],
            env: { FAULT_TOOL_COUNT: '150000', FAULT_PAGE_SIZE: '50000' },
          },
        },
      }),
    );
    const run = await runCli(['tools', '--config', config, '--format', 'table']);
    expect(run.code, run.stderr.slice(0, 500)).toBe(0);
    expect(run.stdout).toMatch(/^150015 tool\(s\) from 1 server\(s\)/m);
    expect(run.stdout).toMatch(/^tool_149999 /m);
  }, 240_000);
});

describe('issue 13: server-controlled text is printed without terminal escapes', () => {
  const ESC = '\u001b';
  it('tools --format table escapes control characters in names and warnings', async () => {
    const config = join(work.dir, 'escapes.json');
    const name = `evil${ESC}[2K${ESC}[1A\rtool\u202e`;
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          fault: {
            command: process.execPath,
            args: [join(ROOT, 'test', 'support', 'fault-server.mjs')],
            env: { FAULT_EXTRA_TOOL: name },
          },
        },
      }),
    );
    const run = await runCli(['tools', '--config', config, '--format', 'table']);
    expect(run.code, run.stderr).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may pass
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/u);
    expect(run.stdout).toContain('evil\\x1b[2K\\x1b[1A\\rtool\\u202e');
    // JSON output stays JSON (its own escaping), warnings on stderr are escaped text.
    const json = await runCli(['tools', '--config', config]);
    expect(json.stderr).not.toContain(ESC);
  });

  it('validate text output escapes control characters from the payload', async () => {
    const file = join(work.dir, 'escapes.jsonl');
    writeFileSync(file, `${JSON.stringify({ contents: [], [`x${ESC}[2K\r`]: 1 })}\n`);
    const run = await runCli(['validate', '--kind', 'generate-content-request', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).toContain('x\\x1b[2K\\r');
  });
});
