/**
 * Issue 11: `gemini-mcp-kit validate` reads received kinds with the read contract (novelties are
 * warnings, exit 0) and with `--strict` as errors (exit 1, each pointer named); request kinds
 * are strict either way. Run on the "future API" fixtures and the MCP fixtures of each version.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './build.js';
import { ROOT, runCli, tempDir } from './helpers.js';

const conformance = join(ROOT, 'test', 'conformance');
const futureDir = join(conformance, 'future-api', 'gemini');
const FUTURE = readdirSync(futureDir)
  .filter((f) => f.endsWith('.json'))
  .sort();
const expectedNotices: Record<string, string[]> = JSON.parse(
  readFileSync(join(conformance, 'future-api', 'expected-notices.json'), 'utf8'),
);

let dir: string;
let remove: () => void;
beforeAll(() => {
  ({ dir, remove } = tempDir());
});
afterAll(() => remove());
beforeAll(ensureBuilt, 300_000);

interface Report {
  ok: boolean;
  counts: { valid: number; invalid: number; warnings: number };
  findings: { severity: string; pointer: string; keyword?: string; message: string }[];
}

async function validateJson(args: string[]): Promise<{ code: number | null; report: Report }> {
  const run = await runCli(['validate', '--format', 'json', ...args]);
  return { code: run.code, report: JSON.parse(run.stdout) as Report };
}

describe('issue 11: validate on the future-API responses', () => {
  for (const file of FUTURE) {
    const name = file.replace(/\.json$/, '');
    const path = join(futureDir, file);
    const pointers = [...(expectedNotices[name] ?? [])].sort();

    it(`${name}: without --strict, exit 0 with a warning per novelty`, async () => {
      const { code, report } = await validateJson([path]);
      expect(code).toBe(0);
      expect(report.counts).toMatchObject({ valid: 1, invalid: 0, warnings: pointers.length });
      expect(report.findings.every((f) => f.severity === 'warning')).toBe(true);
      expect(report.findings.map((f) => f.pointer).sort()).toEqual(pointers);
    });

    it(`${name}: with --strict, exit 1 naming each pointer`, async () => {
      const { code, report } = await validateJson(['--strict', path]);
      expect(code).toBe(1);
      expect(report.counts).toMatchObject({ valid: 0, invalid: 1 });
      expect(report.findings.every((f) => f.severity === 'error')).toBe(true);
      expect(report.findings.map((f) => f.pointer).sort()).toEqual(pointers);
    });
  }

  it('text: the warning names the pointer and the revision; --strict prints the same as errors', async () => {
    const path = join(futureDir, 'new-finish-reason.json');
    const loose = await runCli(['validate', path]);
    expect(loose.code).toBe(0);
    expect(loose.stdout).toMatch(
      /new-finish-reason\.json:\d+:\d+: warning: generate-content-response at \/candidates\/0\/finishReason: finishReason "STOPPED_FOR_A_FUTURE_REASON" is unknown to revision 20260325/,
    );
    const strict = await runCli(['validate', '--strict', path]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).not.toContain('warning:');
    expect(strict.stdout).toContain('at /candidates/0/finishReason: finishReason');
  });

  it('request kinds stay strict with or without --strict: an unknown Part field in a request is an error', async () => {
    const request = {
      contents: [{ role: 'user', parts: [{ text: 'hi', futureAnnotation: 1 }] }],
    };
    const path = join(dir, 'request.json');
    writeFileSync(path, JSON.stringify(request));
    for (const extra of [[], ['--strict']]) {
      const { code, report } = await validateJson([
        ...extra,
        '--kind',
        'generate-content-request',
        path,
      ]);
      expect(code).toBe(1);
      expect(report.findings).toEqual([
        expect.objectContaining({
          severity: 'error',
          pointer: '/contents/0/parts/0/futureAnnotation',
          keyword: 'additionalProperties',
        }),
      ]);
    }
  });

  it('--list-kinds marks the received kinds', async () => {
    const run = await runCli(['validate', '--list-kinds']);
    const line = (kind: string) => run.stdout.split('\n').find((l) => l.startsWith(`${kind} `));
    expect(line('generate-content-response')).toContain('(received: read contract)');
    expect(line('call-tool-result')).toContain('(received: read contract)');
    expect(line('generate-content-request')).not.toContain('received');
  });
});

describe('issue 11: validate on the MCP fixtures of each protocol version', () => {
  const versions = ['2025-06-18', '2025-11-25', '2026-07-28'];
  const kindOf: Record<string, string> = {
    Tool: 'mcp-tool',
    CallToolResult: 'call-tool-result',
    ListToolsResult: 'list-tools-result',
    ContentBlock: 'content-block',
  };
  for (const version of versions) {
    for (const validity of ['valid', 'invalid'] as const) {
      it(`${version} ${validity}: the same verdict with and without --strict`, async () => {
        const folder = join(conformance, 'mcp-versions', version, validity);
        const byKind = new Map<string, string[]>();
        for (const file of readdirSync(folder).sort()) {
          const { definition, payload } = JSON.parse(readFileSync(join(folder, file), 'utf8'));
          const kind = kindOf[definition]!;
          byKind.set(kind, [...(byKind.get(kind) ?? []), JSON.stringify(payload)]);
        }
        for (const [kind, payloads] of byKind) {
          const path = join(dir, `${version}-${validity}-${kind}.jsonl`);
          writeFileSync(path, `${payloads.join('\n')}\n`);
          for (const extra of [[], ['--strict']]) {
            const { code, report } = await validateJson([...extra, '--kind', kind, path]);
            expect(code, `${kind} ${extra}`).toBe(validity === 'valid' ? 0 : 1);
            expect(report.counts.warnings).toBe(0);
            expect(report.counts[validity]).toBe(payloads.length);
          }
        }
      });
    }
  }

  it('an MCP enum value newer than every version: a warning, an error with --strict', async () => {
    const result = {
      content: [{ type: 'text', text: 'hi', annotations: { audience: ['robot'] } }],
    };
    const path = join(dir, 'future-audience.json');
    writeFileSync(path, JSON.stringify(result));
    const loose = await validateJson(['--kind', 'call-tool-result', path]);
    expect(loose.code).toBe(0);
    expect(loose.report.findings).toEqual([
      expect.objectContaining({
        severity: 'warning',
        pointer: '/content/0/annotations/audience/0',
        keyword: 'unknown-enum-value',
      }),
    ]);
    expect(loose.report.findings[0]?.message).toContain(
      'unknown to MCP 2025-06-18, 2025-11-25 and 2026-07-28',
    );
    const strict = await validateJson(['--strict', '--kind', 'call-tool-result', path]);
    expect(strict.code).toBe(1);
    expect(strict.report.findings.map((f) => [f.severity, f.pointer])).toEqual([
      ['error', '/content/0/annotations/audience/0'],
    ]);
  });
});
