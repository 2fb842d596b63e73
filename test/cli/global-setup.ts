/**
 * Builds dist/ once before the CLI tests, which run `node dist/cli/main.js` as a user runs the
 * installed `gemini-mcp`. Register in vitest.config.ts (`globalSetup: ['test/cli/global-setup.ts']`)
 * or pass `--globalSetup test/cli/global-setup.ts`. Set GEMINI_MCP_SKIP_BUILD=1 to reuse dist/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export default function setup(): void {
  const root = resolve(import.meta.dirname, '..', '..');
  if (process.env.GEMINI_MCP_SKIP_BUILD === '1' && existsSync(join(root, 'dist', 'cli', 'main.js')))
    return;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}
