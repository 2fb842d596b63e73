/** The versions of the installs the tests use: @google/genai and @modelcontextprotocol/sdk, some under npm aliases. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');

/** The version of an installed package or npm alias (`@google/genai`, `genai3`, `mcp-sdk-oldest`). */
export function installedVersion(pkg: string): string {
  const manifest = JSON.parse(
    readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
}
