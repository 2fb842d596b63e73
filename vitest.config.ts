import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI tests run the built dist/cli/main.js as a user would: build it first (skipped when fresh).
    globalSetup: ['test/cli/global-setup.ts'],
    // Child processes (scripts, CLI, MCP servers) run on a 2-core machine: be patient.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
