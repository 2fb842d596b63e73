/**
 * Issue 12, the type test that cannot drift: every TypeScript block of README.md, verbatim, and
 * test/types/integration-points.ts (every point where a @google/genai value meets gemini-mcp-kit,
 * both ways) compile under `strict`, and under the stricter flags this project uses, with no
 * cast and no `any`, against the newest @google/genai 2.x and 3.x and the oldest version the
 * peer range claims (each installed under an npm alias). `gemini-mcp-kit` is the built package.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/build.js';
import { genaiVersion } from '../support/genai-versions.js';
import {
  compileSnippets,
  GENAI_VERSIONS,
  type Snippet,
  STRICTNESS,
  typescriptBlocks,
} from './compile.js';

const root = resolve(import.meta.dirname, '..', '..');
const README = readFileSync(join(root, 'README.md'), 'utf8');
const POINTS_FILE = 'test/types/integration-points.ts';
const points: Snippet = {
  name: 'integration-points.ts',
  text: readFileSync(join(root, POINTS_FILE), 'utf8'),
  origin: { file: POINTS_FILE, line: 1 },
};
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

beforeAll(ensureBuilt, 300_000);

describe('issue 12: the README and the integration points compile against @google/genai', () => {
  it('issue 12: the aliases are the versions the peer range and the dev dependencies name', () => {
    expect(manifest.peerDependencies['@google/genai']).toBe(`>=${genaiVersion('genai-oldest')}`);
    expect(genaiVersion('@google/genai')).toBe(manifest.devDependencies['@google/genai']);
    expect(genaiVersion('@google/genai')).toMatch(/^2\./);
    expect(genaiVersion('genai3')).toMatch(/^3\./);
  });

  it('issue 12: README.md has TypeScript blocks to compile, each importing gemini-mcp-kit', () => {
    const blocks = typescriptBlocks(README, 'README.md');
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks) expect(block.text).toMatch(/from 'gemini-mcp-kit(\/genai)?'/);
  });

  for (const { label, pkg } of GENAI_VERSIONS) {
    for (const [strictness, options] of Object.entries(STRICTNESS)) {
      it(`issue 12: compiles against @google/genai ${genaiVersion(pkg)} (${label}), ${strictness}`, () => {
        const snippets = [...typescriptBlocks(README, 'README.md'), points];
        expect(compileSnippets(snippets, pkg, options)).toEqual([]);
      });
    }
  }
});

describe('issue 12: the type test fails when a block stops compiling', () => {
  it('issue 12: a README block changed to a wrong call is reported at its README line', () => {
    const broken = README.replace('geminiTools(servers.toolset)', 'geminiTools(servers)');
    expect(broken).not.toBe(README);
    const line = broken.split('\n').findIndex((text) => text.includes('geminiTools(servers)')) + 1;
    const diagnostics = compileSnippets(
      typescriptBlocks(broken, 'README.md'),
      '@google/genai',
      STRICTNESS.strict,
    );
    expect(diagnostics).toEqual([
      expect.stringMatching(new RegExp(`^README\\.md:${line}:\\d+: TS`)),
    ]);
  });

  it("issue 12: the enum crux is seen: a string-literal Schema is no genai.Schema, gemini-mcp-kit/genai's is", () => {
    const block = (from: string): Snippet => ({
      name: 'crux.ts',
      text: [
        "import type { FunctionDeclaration, Tool } from '@google/genai';",
        `import { buildToolSet, functionDeclarations, geminiTools } from '${from}';`,
        "const { toolset } = buildToolSet([{ serverId: 's', tools: [] }]);",
        "export const tools: Tool[] = geminiTools(toolset, { schemaMode: 'openapi' });",
        'export const declarations: FunctionDeclaration[] = functionDeclarations(toolset, {',
        "  schemaMode: 'openapi',",
        '});',
      ].join('\n'),
      origin: { file: 'crux.ts', line: 1 },
    });
    const [tools, declarations, ...more] = compileSnippets(
      [block('gemini-mcp-kit')],
      'genai3',
      STRICTNESS.strict,
    );
    expect(more).toEqual([]);
    expect(tools).toMatch(/^crux\.ts:4:\d+: TS2322: .*Types of property 'type' are incompatible/s);
    // Issue 33: the first line of each error names the entry that has genai's types.
    expect(tools!.split('\n')[0]).toMatch(
      /^crux\.ts:4:\d+: TS2322: Type 'UseGeminiMcpKitGenaiForGenaiTool\[\]' is not assignable to type 'Tool\[\]'\.$/,
    );
    expect(declarations!.split('\n')[0]).toMatch(
      /^crux\.ts:5:\d+: TS2322: Type 'UseGeminiMcpKitGenaiForGenaiFunctionDeclaration\[\]' is not assignable to type 'FunctionDeclaration\[\]'\.$/,
    );
    expect(compileSnippets([block('gemini-mcp-kit/genai')], 'genai3', STRICTNESS.strict)).toEqual(
      [],
    );
  });
});
