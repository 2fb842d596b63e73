/** The @google/genai installs the tests use, each under its npm alias, and their versions. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');

/** The version of an installed @google/genai alias (`@google/genai`, `genai3`, `genai-oldest`). */
export function genaiVersion(pkg: string): string {
  const manifest = JSON.parse(
    readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
}
