/**
 * The CLI tests alone, with the build they need: `npx vitest run -c test/cli/vitest.config.ts`.
 * (The root config runs them too once it lists test/cli/global-setup.ts in `globalSetup`.)
 */
import { resolve } from 'node:path';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default mergeConfig(
  base,
  defineConfig({
    root: resolve(import.meta.dirname, '..', '..'),
    test: { include: ['test/cli/**/*.test.ts'], globalSetup: ['test/cli/global-setup.ts'] },
  }),
);
