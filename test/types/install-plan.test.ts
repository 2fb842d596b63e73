/**
 * Issue 33, the install matrix's plan (scripts/lib/install-matrix.ts), in process: the README's
 * Install section installs the package with every peer and states the ranges package.json
 * declares; the diagonal puts each Node.js release in one row and each end of each range in some
 * row; which command-line examples a new app runs; tsc's diagnostics land on README lines. The
 * matrix itself (installs, compiles, runs) is `npm run test:install`.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fencedBlocks, sectionLines } from '../../scripts/lib/fenced-blocks.js';
import {
  cliCommands,
  installCommands,
  matrixRows,
  type PackageManifest,
  packageInstallLine,
  readmeDiagnostics,
  satisfies,
  skipReason,
  swapHolds,
  withTarball,
} from '../../scripts/lib/install-matrix.js';

const root = resolve(import.meta.dirname, '..', '..');
const README = readFileSync(join(root, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageManifest & {
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const [bin] = Object.keys(manifest.bin);

describe("issue 33: the README's Install section", () => {
  it('issue 33: one npm install line names the package and every peer, the optional one too', () => {
    const { command } = packageInstallLine(README, manifest);
    const words = command.split(' ');
    expect(words.slice(0, 3)).toEqual(['npm', 'install', manifest.name]);
    expect(words).toEqual(expect.arrayContaining(Object.keys(manifest.peerDependencies)));
  });

  it("issue 33: its table states each peer's range as package.json declares it, and which is optional", () => {
    const section = sectionLines(README, 'Install');
    expect(section).toBeDefined();
    const text = README.split('\n').slice(section!.first, section!.last).join('\n');
    for (const [peer, range] of Object.entries(manifest.peerDependencies)) {
      const optional = manifest.peerDependenciesMeta[peer]?.optional === true;
      const row = text.split('\n').find((line) => line.startsWith(`| \`${peer}\` |`));
      expect(row, peer).toContain(`| \`${range}\`${optional ? ', optional' : ''} |`);
    }
  });

  it('issue 33: a package line that leaves out a peer is refused, naming it', () => {
    const line =
      'npm install gemini-mcp-kit @google/genai @modelcontextprotocol/client @modelcontextprotocol/sdk';
    const without = README.replace(
      line,
      'npm install gemini-mcp-kit @google/genai @modelcontextprotocol/client',
    );
    expect(without).not.toBe(README);
    expect(() => packageInstallLine(without, manifest)).toThrow(
      /does not install @modelcontextprotocol\/sdk/,
    );
  });

  it('issue 33: only the package word of an npm install line becomes the tarball', () => {
    expect(
      withTarball('npm install gemini-mcp-kit @google/genai', 'gemini-mcp-kit', '/t.tgz'),
    ).toBe('npm install /t.tgz @google/genai');
    expect(withTarball('npx gemini-mcp-kit --version', 'gemini-mcp-kit', '/t.tgz')).toBe(
      'npx gemini-mcp-kit --version',
    );
    expect(installCommands(README).map((c) => c.command)).toContain(`npx ${bin} --version`);
  });
});

describe('issue 33: the diagonal', () => {
  const rows = matrixRows(manifest);
  const swapped = rows.flatMap((row) => row.swaps);
  const sdkOldest = manifest.peerDependencies['@modelcontextprotocol/sdk']!.slice(1);
  const genaiFloor = manifest.peerDependencies['@google/genai']!.slice(2);

  it('issue 33: one row per Node.js release the package supports: 20 on the PATH, 22 and 24 from .ci/nodes', () => {
    expect(rows.map((row) => [row.nodeMajor, row.ciNode])).toEqual([
      [20, undefined],
      [22, 'node22'],
      [24, 'node24'],
    ]);
  });

  it('issue 33: each end of each range is in some row', () => {
    expect(swapped).toContain(`@google/genai@${genaiFloor}`);
    expect(swapped).toContain(`@modelcontextprotocol/sdk@${sdkOldest}`);
    expect(swapped).toContain(`typescript@${manifest.devDependencies.typescript}`);
    expect(swapped).toContain('typescript@7');
    // The newest genai and SDK: a row that keeps what the README's line installed.
    expect(rows.some((row) => row.swaps.every((spec) => spec.startsWith('typescript@')))).toBe(
      true,
    );
    expect(rows.map((row) => row.genaiMajor)).toEqual([2, 3, 3]);
  });

  it('issue 33: versions are checked against the two peer range forms, and nothing else', () => {
    expect(satisfies('1.32.2', '^1.31.0')).toBe(true);
    expect(satisfies('1.30.9', '^1.31.0')).toBe(false);
    expect(satisfies('2.0.0', '^1.31.0')).toBe(false);
    expect(satisfies('3.3.0', '>=2.32.0')).toBe(true);
    expect(satisfies('2.30.0', '>=2.32.0')).toBe(false);
    expect(() => satisfies('1.0.0', '~1.0.0')).toThrow(/neither/);
    expect(swapHolds('7.0.2', '7')).toBe(true);
    expect(swapHolds('7.0.2', '5.9.3')).toBe(false);
  });
});

describe('issue 33: the command-line examples a new app runs', () => {
  // A new app has what the package packs, under node_modules, and nothing of the user's.
  const exists = (path: string) => path.startsWith(`node_modules/${manifest.name}/examples/`);

  it('issue 33: the example server, the pipe into validate and the packed turn run; the rest say why not', () => {
    const commands = cliCommands(README, bin!);
    const runs = commands.filter((c) => skipReason(c.command, exists) === undefined);
    expect(runs.map((c) => c.command)).toEqual(
      expect.arrayContaining([
        `${bin} tools | ${bin} validate -`,
        `${bin} tools --format table`,
        `${bin} answer node_modules/${manifest.name}/examples/recorded-turn.json`,
      ]),
    );
    expect(commands.length).toBeGreaterThan(runs.length);
  });

  it('issue 33: a key for the live API, a server npx fetches, a glob or a missing file is a reason to skip', () => {
    expect(skipReason(`GEMINI_API_KEY=... ${bin} chat "hi"`, exists)).toBe(
      'needs GEMINI_API_KEY (the live API)',
    );
    expect(skipReason(`${bin} tools --server "fs=npx -y @x/server ."`, exists)).toMatch(/npx/);
    expect(skipReason(`${bin} validate 'fixtures/**/*.json'`, exists)).toMatch(/^a glob/);
    expect(skipReason(`${bin} validate payloads.jsonl`, exists)).toBe('needs your payloads.jsonl');
    expect(skipReason(`${bin} tools --format table`, exists)).toBeUndefined();
  });

  it("issue 33: tsc's diagnostics for a block are given at the README line they are on", () => {
    const blocks = fencedBlocks(README, ['ts', 'typescript']).map((block) => block.line);
    const output = [
      "src/block-02.ts(3,7): error TS2345: Argument of type 'X' is not assignable.",
      'error TS5023: Unknown compiler option.',
    ].join('\n');
    expect(readmeDiagnostics(output, blocks)).toEqual([
      `README.md:${blocks[1]! + 2}:7: error TS2345: Argument of type 'X' is not assignable.`,
      'error TS5023: Unknown compiler option.',
    ]);
  });
});

describe('issue 33: README sections and fenced blocks', () => {
  it('issue 33: a section ends at the next heading of its level, not at a # inside a code block', () => {
    const text = ['# T', '## Install', '```sh', '## not a heading', '```', '### Sub', '## Next'];
    expect(sectionLines(text.join('\n'), 'Install')).toEqual({ first: 2, last: 6 });
    expect(sectionLines(text.join('\n'), 'Missing')).toBeUndefined();
    expect(fencedBlocks(text.join('\n'), ['sh'])).toEqual([
      { language: 'sh', text: '## not a heading', line: 4 },
    ]);
  });
});
