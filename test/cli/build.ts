/**
 * Keeps dist/ current for the CLI tests: built when any file in src/ (or package.json,
 * tsconfig*.json) is newer than dist/cli/main.js. Used by the global setup and, so the tests
 * also pass without it, by each CLI test file's `beforeAll` (serialized across workers by a
 * lock directory).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');

function newestSource(): number {
  const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).map((f) =>
    join(root, 'src', f),
  );
  files.push(...['package.json', 'tsconfig.json', 'tsconfig.build.json'].map((f) => join(root, f)));
  return Math.max(...files.map((f) => statSync(f).mtimeMs));
}

function builtAt(): number {
  try {
    return statSync(join(root, 'dist', 'cli', 'main.js')).mtimeMs;
  } catch {
    return 0;
  }
}

/** Whether dist/ is newer than every source. */
function buildIsFresh(): boolean {
  return builtAt() > newestSource();
}

/** `npm run build`, unless dist/ is fresh. */
export function buildIfStale(): void {
  if (buildIsFresh()) return;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}

const LOCK = join(root, 'node_modules', '.cache', 'gemini-mcp-cli-build.lock');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** {@link buildIfStale}, one worker at a time. */
export async function ensureBuilt(): Promise<void> {
  if (buildIsFresh()) return;
  mkdirSync(join(LOCK, '..'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
    } catch {
      // Another worker builds; a lock older than 5 minutes is left over from a crash.
      if (Date.now() - statSync(LOCK, { throwIfNoEntry: false })!.mtimeMs > 300_000) {
        rmSync(LOCK, { recursive: true, force: true });
      }
      await sleep(500);
      if (buildIsFresh()) return;
      continue;
    }
    try {
      buildIfStale();
      return;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}
