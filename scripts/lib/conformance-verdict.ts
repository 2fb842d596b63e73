/**
 * The verdict of an MCP conformance run against the expected-failures file: a scenario that
 * fails without an entry is a new failure; an entry whose scenario passes, or that names no
 * scenario of the suite, is stale. Either fails the run.
 */

/** The expected-failures file: scenario name to the reason it does not pass yet. */
export type ExpectedFailures = Record<string, string>;

/** One scenario's outcome. */
export interface ScenarioOutcome {
  scenario: string;
  passed: boolean;
}

/** What a run means, with the table rows in suite order. */
export interface ConformanceVerdict {
  rows: { scenario: string; passed: boolean; expected: string | undefined }[];
  newFailures: string[];
  stale: string[];
  ok: boolean;
}

/**
 * Checks an expected-failures value read from JSON: an object of non-empty reason strings.
 *
 * @example
 * ```ts
 * parseExpectedFailures({ 'auth/x': 'needs y' }); // { 'auth/x': 'needs y' }
 * ```
 */
export function parseExpectedFailures(value: unknown): ExpectedFailures {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('expected-failures.json must be an object {"scenario": "reason"}');
  }
  for (const [scenario, reason] of Object.entries(value)) {
    if (typeof reason !== 'string' || reason.trim() === '') {
      throw new Error(`expected-failures.json: "${scenario}" needs a reason (a non-empty string)`);
    }
  }
  return value as ExpectedFailures;
}

/**
 * Compares the outcomes of a run (every scenario run, or the `only` ones) with the expected failures.
 *
 * @example
 * ```ts
 * conformanceVerdict([{ scenario: 'a', passed: true }], { a: 'reason' }).stale; // ['a']
 * ```
 */
export function conformanceVerdict(
  outcomes: readonly ScenarioOutcome[],
  expected: ExpectedFailures,
  allScenarios: readonly string[] = outcomes.map((o) => o.scenario),
): ConformanceVerdict {
  const rows = outcomes.map(({ scenario, passed }) => ({
    scenario,
    passed,
    expected: Object.hasOwn(expected, scenario) ? expected[scenario] : undefined,
  }));
  const newFailures = rows
    .filter((r) => !r.passed && r.expected === undefined)
    .map((r) => r.scenario);
  const known = new Set(allScenarios);
  const stale = [
    ...rows.filter((r) => r.passed && r.expected !== undefined).map((r) => r.scenario),
    ...Object.keys(expected).filter((scenario) => !known.has(scenario)),
  ];
  return { rows, newFailures, stale, ok: newFailures.length === 0 && stale.length === 0 };
}
