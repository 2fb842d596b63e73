/** The package's version; a module of its own so `--version` loads nothing else. */
import { createRequire } from 'node:module';

/** The package's version, read from its package.json. */
export function packageVersion(): string {
  const manifest = createRequire(import.meta.url)('../../package.json') as { version: string };
  return manifest.version;
}
