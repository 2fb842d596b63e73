/**
 * Issue 33: the package's examples/mcp.json, the file the README's Library section starts from,
 * reads as a server configuration with no warning, and names the bundled example server where an
 * installed package has it. Parsed only: nothing is spawned (its second server comes from npx).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readServersConfig } from '../../src/runtime/mcp/config/index.js';
import type { ConfigWarning } from '../../src/runtime/mcp/config/types.js';

const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLE = join(ROOT, 'examples', 'mcp.json');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  files: string[];
};

describe('examples/mcp.json', () => {
  it('reads with no warning: the bundled example server and server-everything over stdio', async () => {
    const warnings: ConfigWarning[] = [];
    const entries = await readServersConfig(EXAMPLE, { onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
    expect(entries).toEqual([
      {
        serverId: 'bitcoin',
        pointer: '/mcpServers/bitcoin',
        transport: 'stdio',
        config: {
          command: 'node',
          args: [`node_modules/${manifest.name}/dist/cli/example-server.js`],
        },
      },
      {
        serverId: 'everything',
        pointer: '/mcpServers/everything',
        transport: 'stdio',
        config: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'],
        },
      },
    ]);
  });

  it('is packed, and its example server is a file the packed build has', async () => {
    expect(manifest.files).toContain('examples/mcp.json');
    const [bitcoin] = await readServersConfig(EXAMPLE);
    const installed = `node_modules/${manifest.name}/`;
    const script = (bitcoin!.config as { args: string[] }).args[0]!;
    expect(script.startsWith(installed), script).toBe(true);
    const inPackage = script.slice(installed.length); // dist/cli/example-server.js
    expect(manifest.files).toContain(inPackage.split('/')[0]);
    // tsconfig.build.json compiles src/ into dist/: the source it is built from.
    const source = inPackage.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts');
    expect(existsSync(join(ROOT, source)), source).toBe(true);
  });
});
