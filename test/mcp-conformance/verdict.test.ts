/**
 * The MCP conformance runner's verdict (scripts/lib/conformance-verdict.ts): a new failure and
 * a stale expected failure each fail the run; the real expected-failures file is well formed
 * and gives every entry a reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  conformanceVerdict,
  parseExpectedFailures,
} from '../../scripts/lib/conformance-verdict.js';

describe('MCP conformance verdict', () => {
  it('a failing scenario without an entry is a new failure', () => {
    const verdict = conformanceVerdict(
      [
        { scenario: 'initialize', passed: true },
        { scenario: 'auth/x', passed: false },
      ],
      {},
    );
    expect(verdict).toMatchObject({ ok: false, newFailures: ['auth/x'], stale: [] });
  });

  it('an expected failure that passes, or names no scenario of the suite, is stale', () => {
    const verdict = conformanceVerdict(
      [
        { scenario: 'initialize', passed: true },
        { scenario: 'auth/x', passed: false },
      ],
      { initialize: 'was broken', 'auth/x': 'needs y', 'auth/gone': 'renamed upstream' },
      ['initialize', 'auth/x'],
    );
    expect(verdict).toMatchObject({
      ok: false,
      newFailures: [],
      stale: ['initialize', 'auth/gone'],
    });
    expect(verdict.rows).toEqual([
      { scenario: 'initialize', passed: true, expected: 'was broken' },
      { scenario: 'auth/x', passed: false, expected: 'needs y' },
    ]);
  });

  it('failures that are all expected pass the run', () => {
    expect(conformanceVerdict([{ scenario: 'a', passed: false }], { a: 'reason' }).ok).toBe(true);
  });

  it('every entry of test/mcp-conformance/expected-failures.json has a reason, and none is an authorization scenario', () => {
    const file = join(import.meta.dirname, 'expected-failures.json');
    const expected = parseExpectedFailures(JSON.parse(readFileSync(file, 'utf8')));
    expect(Object.keys(expected).filter((scenario) => scenario.startsWith('auth/'))).toEqual([]);
    // Conformance 0.2 (issue 32): each expected failure names the item of issue 32 that fixes it.
    for (const run of ['expected-failures-0.2.json', 'expected-failures-0.2-2026-07-28.json']) {
      const reasons = parseExpectedFailures(
        JSON.parse(readFileSync(join(import.meta.dirname, run), 'utf8')),
      );
      for (const [scenario, reason] of Object.entries(reasons))
        expect(reason, `${run}: ${scenario}`).toMatch(/issue 32 items? \d/);
    }
    expect(() => parseExpectedFailures({ a: '' })).toThrow('needs a reason');
    expect(() => parseExpectedFailures(['a'])).toThrow('must be an object');
  });
});
