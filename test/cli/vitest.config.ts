/**
 * The CLI tests alone, with the build they need: `npx vitest run -c test/cli/vitest.config.ts`.
 * (The root config runs them too once it lists test/cli/global-setup.ts in `globalSetup`.)
 */
import { resolve } from 'node:path';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.js';

const config = mergeConfig(
  base,
  defineConfig({
    root: resolve(import.meta.dirname, '..', '..'),
    test: { globalSetup: ['test/cli/global-setup.ts'] },
  }),
);
// mergeConfig concatenates arrays: replace the root's include instead.
config.test = { ...config.test, include: ['test/cli/**/*.test.ts'] };
export default config;
