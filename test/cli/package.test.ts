/** What `npm pack` would publish: dist/, schemas/, README.md, LICENSE; no tests, no sources. */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './build.js';
import { ROOT } from './helpers.js';

interface PackResult {
  files: { path: string }[];
  size: number;
  unpackedSize: number;
}

beforeAll(ensureBuilt, 300_000);

describe('npm pack', () => {
  it('contains dist, schemas, README.md and LICENSE, and no test files', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const [pack] = JSON.parse(out) as PackResult[];
    const paths = pack!.files.map((f) => f.path);
    for (const needed of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/cli/main.js',
      'dist/cli/example-server.js',
      'dist/generated/validators.js',
      'dist/generated/guards.js',
      'schemas/manifest.json',
      'schemas/gemini/GenerateContentRequest.schema.json',
      'schemas/mcp/Tool.schema.json',
    ]) {
      expect(paths, needed).toContain(needed);
    }
    const unwanted = paths.filter((p) =>
      /(^|\/)(test|tests|__tests__)\/|\.test\.[cm]?[jt]s$|^src\/|^bench\//.test(p),
    );
    expect(unwanted).toEqual([]);
    console.info(
      `npm pack: ${paths.length} files, ${pack!.size} bytes packed, ${pack!.unpackedSize} unpacked`,
    );
  });
});
