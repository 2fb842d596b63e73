/**
 * Builds dist/ before the CLI tests, which run `node dist/cli/main.js` as a user runs the
 * installed `gemini-mcp`. Skipped when dist/ is newer than every file in src/ (and
 * package.json, tsconfig*.json), so a run after an unchanged build costs nothing.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
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

export default function setup(): void {
  if (builtAt() > newestSource()) return;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}
