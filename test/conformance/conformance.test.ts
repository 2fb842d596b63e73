/**
 * The conformance corpus: payloads the Gemini API is documented (or publicly reported) to accept
 * or reject, each judged by the generated validators (its dialect's schema) and by the request
 * checks of `validate --request`. An entry of expected-failures.json is a known disagreement; it
 * must still disagree, so a fixed gap fails here until its entry is removed.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRequest } from '../../src/adapter/turn/request-checks.js';
import { SCHEMAS, type SchemaName } from '../../src/generated/guards.js';
import { runCli, tempDir } from '../cli/helpers.js';

interface ConformanceCase {
  expect: 'accept' | 'reject';
  kind: string;
  dialect: 'gemini' | 'vertex-v1' | 'vertex-v1beta1';
  layer: 'schema' | 'request';
  source: string;
  note: string;
  payload: unknown;
}

const dir = join(import.meta.dirname, 'cases');

/** The schema a case's kind names in its dialect (`VertexV1Beta1GenerateContentRequest`). */
const PREFIX = { gemini: '', 'vertex-v1': 'VertexV1', 'vertex-v1beta1': 'VertexV1Beta1' } as const;
const schemaOf = (entry: ConformanceCase) => `${PREFIX[entry.dialect]}${entry.kind}` as SchemaName;
const cases = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, file), 'utf8')) as ConformanceCase] as const);
const expectedFailures: Record<string, string> = JSON.parse(
  readFileSync(join(import.meta.dirname, 'expected-failures.json'), 'utf8'),
);

/** What gemini-mcp-kit says of a payload: every schema violation and request-level error. */
function verdict(entry: ConformanceCase): { accepted: boolean; findings: string[] } {
  const schema = schemaOf(entry);
  const findings = SCHEMAS[schema].check(entry.payload).map((v) => `${v.path}: ${v.message}`);
  if (entry.kind === 'GenerateContentRequest') {
    for (const finding of checkRequest(entry.payload)) {
      if (finding.severity === 'error') findings.push(`${finding.keyword} ${finding.path}: ${finding.message}`);
    }
  }
  return { accepted: findings.length === 0, findings };
}

describe('conformance corpus', () => {
  it('has cases of both verdicts and cites a source for each', () => {
    expect(cases.filter(([, c]) => c.expect === 'accept').length).toBeGreaterThan(3);
    expect(cases.filter(([, c]) => c.expect === 'reject').length).toBeGreaterThan(3);
    for (const [id, entry] of cases) expect(entry.source, id).toMatch(/\S{8}/);
  });

  it('lists no expected failure without a case', () => {
    const ids = new Set(cases.map(([id]) => id));
    for (const id of Object.keys(expectedFailures)) expect(ids.has(id), id).toBe(true);
  });

  for (const [id, entry] of cases) {
    const known = expectedFailures[id];
    it(`${entry.expect}s ${id}${known ? ' (expected failure)' : ''}`, () => {
      const { accepted, findings } = verdict(entry);
      const agrees = accepted === (entry.expect === 'accept');
      if (known) expect(agrees, `stale expected failure, remove it: ${id}`).toBe(false);
      else expect(agrees, findings.join('\n') || 'accepted').toBe(true);
    });
  }

  it('request-layer cases are caught by the request checks, not the schemas alone', () => {
    for (const [id, entry] of cases) {
      if (entry.layer !== 'request' || entry.expect !== 'reject' || expectedFailures[id]) continue;
      const schema = schemaOf(entry);
      expect(SCHEMAS[schema].check(entry.payload), id).toEqual([]);
      expect(checkRequest(entry.payload).some((f) => f.severity === 'error'), id).toBe(true);
    }
  });
});

describe('conformance corpus through `gemini-mcp-kit validate --request`', () => {
  it.each(['gemini', 'vertex-v1', 'vertex-v1beta1'] as const)('the CLI gives every %s request case the verdict the corpus expects', async (dialect) => {
    const requests = cases.filter(([, c]) => c.kind === 'GenerateContentRequest' && c.dialect === dialect);
    const work = tempDir();
    try {
      const file = join(work.dir, `${dialect}.jsonl`);
      writeFileSync(file, `${requests.map(([, c]) => JSON.stringify(c.payload)).join('\n')}\n`);
      const run = await runCli(['validate', '--request', '--kind', 'generate-content-request', '--dialect', dialect, '--format', 'json', file]);
      const report = JSON.parse(run.stdout);
      const rejectedLines = new Set<number>(
        report.findings.filter((f: { severity: string }) => f.severity === 'error').map((f: { line: number }) => f.line),
      );
      requests.forEach(([id, entry], index) => {
        const accepted = !rejectedLines.has(index + 1);
        const agrees = accepted === (entry.expect === 'accept');
        expect(agrees, `${id}${expectedFailures[id] ? ' (expected failure)' : ''}`).toBe(!expectedFailures[id]);
      });
      expect(run.code).toBe(rejectedLines.size > 0 ? 1 : 0);
    } finally {
      work.remove();
    }
  });
});
