import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Child processes (scripts, CLI, MCP servers) run on a 2-core machine: be patient.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
