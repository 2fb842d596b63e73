/**
 * `tsx scripts/drift-pr-body.ts --report FILE --test-outcome success|failure|cancelled|skipped
 *   --test-log FILE --out FILE`
 *
 * Writes the body of the drift watch's pull request: how `npm test` went after the sync (a
 * failure stated, with its failing lines and the end of the log), then the watch's report.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { pullRequestBody, type TestOutcome } from './lib/drift-report.js';

const OUTCOMES: readonly TestOutcome[] = ['success', 'failure', 'cancelled', 'skipped'];

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      report: { type: 'string' },
      'test-outcome': { type: 'string' },
      'test-log': { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
  });
  const outcome = OUTCOMES.find((known) => known === values['test-outcome']);
  if (!values.report || !values.out || !outcome) {
    console.error(
      `drift-pr-body: needs --report FILE --out FILE and --test-outcome ${OUTCOMES.join('|')}`,
    );
    return 2;
  }
  const report = await readFile(values.report, 'utf8');
  const log = values['test-log']
    ? await readFile(values['test-log'], 'utf8').catch(() => '(no test log was written)')
    : '';
  await writeFile(values.out, pullRequestBody(report, outcome, log));
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`drift-pr-body: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
