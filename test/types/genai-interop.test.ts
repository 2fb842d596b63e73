/**
 * Issue 12, the type test that cannot drift: every TypeScript block of README.md, verbatim, and
 * test/types/integration-points.ts (every point where a @google/genai value meets gemini-mcp-kit,
 * both ways) compile under `strict`, and under the stricter flags this project uses, with no
 * cast and no `any`, against the newest @google/genai 2.x (the peer range's floor) and 3.x, and
 * (issue 33) against the oldest and the newest @modelcontextprotocol/sdk of its peer range, one
 * copy of it in the program as npm installs a peer. `gemini-mcp-kit` is the built
 * package.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/build.js';
import { installedVersion } from '../support/genai-versions.js';
import {
  compileSnippets,
  GENAI_VERSIONS,
  MCP_SDK_VERSIONS,
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
  it("issue 12, 33: the installs compiled against are the peer ranges' ends and the dev dependencies", () => {
    expect(manifest.peerDependencies['@google/genai']).toBe(
      `>=${installedVersion('@google/genai')}`,
    );
    expect(installedVersion('@google/genai')).toBe(manifest.devDependencies['@google/genai']);
    expect(installedVersion('@google/genai')).toMatch(/^2\./);
    expect(installedVersion('genai3')).toMatch(/^3\./);
    const sdk = manifest.devDependencies['@modelcontextprotocol/sdk'];
    expect(manifest.peerDependencies['@modelcontextprotocol/sdk']).toBe(
      `^${installedVersion('mcp-sdk-oldest')}`,
    );
    expect(installedVersion('@modelcontextprotocol/sdk')).toBe(sdk);
    expect(sdk?.split('.')[0]).toBe(installedVersion('mcp-sdk-oldest').split('.')[0]);
  });

  it('issue 12: README.md has TypeScript blocks to compile, each importing gemini-mcp-kit', () => {
    const blocks = typescriptBlocks(README, 'README.md');
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks) expect(block.text).toMatch(/from 'gemini-mcp-kit(\/genai)?'/);
  });

  for (const { label, pkg } of GENAI_VERSIONS) {
    for (const sdk of MCP_SDK_VERSIONS) {
      for (const [strictness, options] of Object.entries(STRICTNESS)) {
        it(`issue 12, 33: compiles against @google/genai ${installedVersion(pkg)} (${label}) and @modelcontextprotocol/sdk ${installedVersion(sdk.pkg)} (${sdk.label}), ${strictness}`, () => {
          const snippets = [...typescriptBlocks(README, 'README.md'), points];
          expect(compileSnippets(snippets, pkg, options, sdk.pkg)).toEqual([]);
        });
      }
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

  it('issue 33: the SDK the snippets compile against is the install chosen', () => {
    // `redirectPolicy` came in SDK 1.32.0: the oldest of the range lacks it, the newest has it.
    const block: Snippet = {
      name: 'sdk.ts',
      text: [
        "import type { StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/sdk/client/streamableHttp.js';",
        "export const options: StreamableHTTPClientTransportOptions = { redirectPolicy: 'follow' };",
      ].join('\n'),
      origin: { file: 'sdk.ts', line: 1 },
    };
    const compile = (sdk: string) =>
      compileSnippets([block], '@google/genai', STRICTNESS.strict, sdk);
    expect(compile('@modelcontextprotocol/sdk')).toEqual([]);
    expect(compile('mcp-sdk-oldest')).toEqual([
      expect.stringMatching(/^sdk\.ts:2:\d+: TS2353: .*'redirectPolicy' does not exist/),
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
