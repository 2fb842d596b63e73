import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { defineConfig } from 'vitest/config';

/**
 * The integration project's test files: each starts processes (the built CLI, stdio MCP servers,
 * scripts, npm pack and install) or compiles TypeScript. `npm run test:integration` runs them.
 * Every other test file is a unit test (project `unit`, or `unit-isolated` below): it runs in the
 * test process, offline, and `npm test` runs it. A unit test that starts a process or connects
 * past the loopback interface fails (test/support/unit-setup.ts) naming this list: add its file
 * here, or make it run in process.
 */
const INTEGRATION = [
  'test/adapter/real-servers.test.ts',
  'test/cli/action.test.ts',
  'test/cli/approval-prompt.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/config-servers.test.ts',
  'test/cli/elicit-prompt.test.ts',
  'test/cli/failures.test.ts',
  'test/cli/live.test.ts',
  'test/cli/memory.test.ts',
  'test/cli/oauth.test.ts',
  'test/cli/prompts.test.ts',
  'test/cli/package.test.ts',
  'test/cli/selection.test.ts',
  'test/cli/servers.test.ts',
  'test/cli/validate-inputs.test.ts',
  'test/cli/validate-read.test.ts',
  'test/cli/validate-limits.test.ts',
  'test/cli/validate.test.ts',
  'test/conformance/conformance.test.ts',
  'test/entries.test.ts',
  'test/generated/sync.test.ts',
  'test/generated/vertex.test.ts',
  'test/generated/watch.test.ts',
  'test/hardening/bounded-cli.test.ts',
  'test/hardening/bounded-runtime.test.ts',
  'test/hardening/bounded-validation.test.ts',
  'test/hardening/cli-fuzz.test.ts',
  'test/hardening/linear-stdio.test.ts',
  'test/hardening/remote-variables-cli.test.ts',
  'test/hardening/server-request-queue.test.ts',
  'test/hardening/special-files.test.ts',
  'test/hardening/terminal-output.test.ts',
  'test/runtime/capabilities.test.ts',
  'test/runtime/config-files.test.ts',
  'test/runtime/connect-cancel.test.ts',
  'test/runtime/connect.test.ts',
  'test/runtime/dynamic-tools.test.ts',
  'test/runtime/e2e-callable-tool.test.ts',
  'test/runtime/e2e-genai.test.ts',
  'test/runtime/e2e-prompts.test.ts',
  'test/runtime/e2e-server-side.test.ts',
  'test/runtime/example.test.ts',
  'test/runtime/execute.test.ts',
  'test/runtime/faults.test.ts',
  'test/runtime/live.test.ts',
  'test/runtime/progress.test.ts',
  'test/runtime/read-tolerance.test.ts',
  'test/runtime/resources-everything.test.ts',
  'test/runtime/revisions.test.ts',
  'test/runtime/sampling.test.ts',
  'test/runtime/tasks-everything.test.ts',
  'test/schema/real-servers.test.ts',
  'test/schema/snapshot.test.ts',
  'test/types/genai-interop.test.ts',
];

/**
 * Unit test files that replace a module (`vi.mock`): they need a module graph of their own. The
 * other unit files share one per worker (`isolate: false`), which halves `npm test`'s time.
 */
const MOCKING = globSync('test/**/*.test.ts', { cwd: import.meta.dirname, ignore: INTEGRATION })
  .filter((file) => readFileSync(join(import.meta.dirname, file), 'utf8').includes('vi.mock('))
  .sort();

export default defineConfig({
  test: {
    // A loaded 2-core machine (and child processes in the integration project): be patient.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...INTEGRATION, ...MOCKING],
          isolate: false,
          setupFiles: ['test/support/unit-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-isolated',
          include: MOCKING,
          setupFiles: ['test/support/unit-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
          // The CLI tests run the built dist/cli/main.js as a user would: build it first
          // (skipped when fresh).
          globalSetup: ['test/cli/global-setup.ts'],
        },
      },
    ],
  },
});
