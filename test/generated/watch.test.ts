/**
 * Issue 19, the drift watch: `npm run schemas:watch` against local copies of the reference
 * (modified in a temp folder), exit 0 unchanged / 1 changed with the report / 2 bad source.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTree } from '../../scripts/lib/schema-dir.js';
import { readSources } from '../../scripts/lib/sources.js';
import {
  liveProtos,
  projectRoot,
  referenceDir,
  runScript,
  tasksExtensionSchema,
  vertexProtos,
} from './run-script.js';

const haveReference = existsSync(join(referenceDir, 'gemini-v1beta.discovery.json'));
if (!haveReference) {
  console.warn(`SKIPPED: ${referenceDir} is absent, so the drift watch tests do not run`);
}
const VERSIONS = ['2025-06-18', '2025-11-25', '2026-07-28'];
/** A watch that finds a change regenerates every schema: minutes on a busy 2-core machine. */
const GENERATES = 600_000;
const DISCOVERY = 'gemini-v1beta.discovery.json';

interface SourcesFile {
  gemini: { location: string; id: string; revision: string };
  mcp: Record<string, string>;
  mcpExtensions: Record<string, string>;
  vertex: { package: string; version: string; location: string };
  live: { package: string; version: string; location: string };
}

/** The parts of a discovery document the tests change. */
interface Discovery {
  id: string;
  revision: string;
  schemas: Record<
    string,
    {
      properties: Record<
        string,
        { type?: string; format?: string; enum?: string[]; description?: string }
      >;
    }
  >;
}

function referenceSources(): SourcesFile {
  return {
    gemini: {
      location: join(referenceDir, DISCOVERY),
      id: 'generativelanguage:v1beta',
      revision: '20260325',
    },
    mcp: Object.fromEntries(VERSIONS.map((v) => [v, join(referenceDir, `mcp-${v}.schema.json`)])),
    mcpExtensions: { 'io.modelcontextprotocol/tasks': tasksExtensionSchema },
    vertex: { package: '@google-cloud/aiplatform', version: '6.11.0', location: vertexProtos },
    live: { package: '@google-ai/generativelanguage', version: '4.1.0', location: liveProtos },
  };
}

describe('schema-sources.json, the repository list of sources', () => {
  it('issue 19: names every input of schemas/manifest.json, with the revision last synced', async () => {
    const sources = await readSources(join(projectRoot, 'schema-sources.json'));
    const manifest = JSON.parse(
      readFileSync(join(projectRoot, 'schemas', 'manifest.json'), 'utf8'),
    );
    expect(sources.gemini.revision).toBe(manifest.inputs.gemini.revision);
    expect(sources.gemini.location).toMatch(/^https:\/\//);
    expect(sources.mcp.map((s) => s.protocolVersion)).toEqual(
      manifest.inputs.mcp.map((input: { protocolVersion: string }) => input.protocolVersion),
    );
    for (const { location } of sources.mcp) expect(location).toMatch(/^https:\/\//);
    expect(sources.mcpExtensions.map((s) => s.extension)).toEqual(
      manifest.inputs.mcpExtensions.map((input: { extension: string }) => input.extension),
    );
    for (const { location } of sources.mcpExtensions) expect(location).toMatch(/^https:\/\//);
    const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
    expect(sources.vertex?.package).toBe('@google-cloud/aiplatform');
    expect(pkg.devDependencies['@google-cloud/aiplatform']).toBe(sources.vertex?.version);
    expect(manifest.inputs.vertex.package).toBe(
      `@google-cloud/aiplatform@${sources.vertex?.version}`,
    );
    expect(sources.live?.package).toBe('@google-ai/generativelanguage');
    expect(pkg.devDependencies['@google-ai/generativelanguage']).toBe(sources.live?.version);
    expect(manifest.inputs.live.package).toBe(
      `@google-ai/generativelanguage@${sources.live?.version}`,
    );
  });
});

describe.skipIf(!haveReference)('schemas:watch', () => {
  let work: string;
  let committedSchemas: Map<string, string>;
  let committedGenerated: Map<string, string>;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'gemini-mcp-watch-test-'));
    committedSchemas = await readTree(join(projectRoot, 'schemas'));
    committedGenerated = await readTree(join(projectRoot, 'src', 'generated'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
    // the watch reads schemas/ and src/generated/, and never writes them
    expect(await readTree(join(projectRoot, 'schemas'))).toEqual(committedSchemas);
    expect(await readTree(join(projectRoot, 'src', 'generated'))).toEqual(committedGenerated);
  });

  async function sourcesFile(name: string, sources: SourcesFile): Promise<string> {
    const file = join(work, `${name}.sources.json`);
    await writeFile(file, JSON.stringify(sources, null, 2));
    return file;
  }

  /** A copy of the reference discovery document, changed, under its own name in a folder. */
  async function discoveryCopy(
    folder: string,
    change: (document: Discovery) => void,
  ): Promise<string> {
    const document = JSON.parse(await readFile(join(referenceDir, DISCOVERY), 'utf8'));
    change(document);
    const dir = join(work, folder);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const file = join(dir, DISCOVERY);
    await writeFile(file, JSON.stringify(document));
    return file;
  }

  it('issue 19: an unchanged reference exits 0 and says so, source by source', async () => {
    const output = join(work, 'unchanged.github-output');
    const run = runScript('watch-schemas', [
      '--sources',
      await sourcesFile('unchanged', referenceSources()),
      '--github-output',
      output,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('**No change**');
    expect(run.stdout).toMatch(/\| Gemini API \| .* \| revision 20260325, .* \| same bytes \|/);
    for (const version of VERSIONS) {
      expect(run.stdout).toMatch(new RegExp(`\\| MCP ${version} \\| .* \\| same bytes \\|`));
    }
    expect(run.stdout).toMatch(
      /\| Vertex AI \| .* \| @google-cloud\/aiplatform@6\.11\.0, sha256 \w+ \| @google-cloud\/aiplatform@6\.11\.0, .* \| same bytes \|/,
    );
    expect(run.stdout).toMatch(
      /\| Gemini Live API \| .* \| @google-ai\/generativelanguage@4\.1\.0, sha256 \w+ \| @google-ai\/generativelanguage@4\.1\.0, .* \| same bytes \|/,
    );
    expect(run.stdout).toContain('## Public types that change shape\n\nNone.');
    expect(run.stdout).toContain(
      '## API limits (`schemas/limits.json`)\n\nNone: every limit cited from the reference is still stated there.',
    );
    expect(await readFile(output, 'utf8')).toBe('changed=false\n');
  });

  it(
    'issue 19: an added field, a removed enum value and a type change exit 1, each reported with the public types affected',
    async () => {
      const modified = await discoveryCopy('changed', (document) => {
        document.revision = '20260401';
        document.schemas.FunctionCallingConfig!.properties.streamFunctionCallArguments = {
          type: 'boolean',
        };
        const blockReason = document.schemas.PromptFeedback!.properties.blockReason!;
        blockReason.enum = blockReason.enum!.filter((value) => value !== 'OTHER');
        document.schemas.Candidate!.properties.index = { type: 'string', format: 'int64' };
        // the reference no longer states the name limit the limits cite
        const name = document.schemas.FunctionDeclaration!.properties.name!;
        name.description = String(name.description).replace(
          'maximum length of 128',
          'maximum length of 256',
        );
      });
      // Vertex AI v1beta1 drops the id of a function response (a copy of the package's descriptor)
      const protos = JSON.parse(await readFile(vertexProtos, 'utf8'));
      const v1beta1 = protos.nested.google.nested.cloud.nested.aiplatform.nested.v1beta1;
      delete v1beta1.nested.FunctionResponse.fields.id;
      const vertexCopy = join(work, 'changed', 'protos.json');
      await writeFile(vertexCopy, JSON.stringify(protos));
      const report = join(work, 'changed.md');
      const run = runScript(
        'watch-schemas',
        [
          '--sources',
          await sourcesFile('changed', {
            ...referenceSources(),
            gemini: { ...referenceSources().gemini, location: modified },
            vertex: { ...referenceSources().vertex, location: vertexCopy },
          }),
          '--report',
          report,
        ],
        GENERATES,
      );
      expect(run.status, run.stderr).toBe(1);
      expect(await readFile(report, 'utf8')).toBe(run.stdout);
      const lines = run.stdout.split('\n');
      expect(lines).toContainEqual(
        expect.stringMatching(
          /\| Gemini API \| .* \| revision 20260325, .* \| revision 20260401, .* \| changed \|/,
        ),
      );
      // field-level changes, per source, each with its public type
      expect(lines).toEqual(
        expect.arrayContaining([
          '- `gemini/FunctionCallingConfig.streamFunctionCallArguments`: field added (boolean); public type `FunctionCallingConfig`',
          '- `gemini/PromptFeedback.blockReason`: enum values removed "OTHER"; public type `PromptFeedback`',
          '- `gemini/Candidate.index`: type integer -> string; public type `Candidate`',
          '- `vertex/v1beta1/FunctionResponse.id`: field removed; public type `VertexV1Beta1FunctionResponse`',
        ]),
      );
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^\| Vertex AI \| .*changed\/protos\.json \| @google-cloud\/aiplatform@6\.11\.0, sha256 \w+ \| @google-cloud\/aiplatform@6\.11\.0, sha256 \w+ \| changed \|$/,
        ),
      );
      // the limits whose cited reference text is gone (issue 31 item 1)
      expect(lines).toContainEqual(
        '- limits.function-name: the reference no longer says it: gemini-discovery FunctionDeclaration.name: "underscores, colons, dots, and dashes, with a maximum length of 128"',
      );
      // the generated files that would change
      for (const file of [
        'types.ts',
        'validators-gemini.js',
        'validators-gemini.d.ts',
        'validators-vertex-v1beta1.js',
        'guards-gemini.ts',
        'guards.ts',
        'limits.ts',
      ]) {
        expect(run.stdout).toMatch(
          new RegExp(`- \`src/generated/${file.replace('.', '\\.')}\`: \\d+ line`),
        );
      }
      // the public types, as TypeScript users meet them
      const types = run.stdout.slice(run.stdout.indexOf('## Public types that change shape'));
      expect(types).toContain(
        '- `FunctionCallingConfig` (inside `GenerateContentRequest`, `ToolConfig`)\n  - field added: `streamFunctionCallArguments?: boolean`',
      );
      expect(types).toContain(
        '- `PromptFeedback` (inside `GenerateContentResponse`)\n  - `blockReason` narrowed: no longer accepts "OTHER"',
      );
      expect(types).toContain(
        '- `Candidate` (inside `GenerateContentResponse`)\n  - `index` changed: number -> string',
      );
      expect(types).toContain(
        '- `VertexV1Beta1FunctionResponse` (inside `VertexV1Beta1Candidate`, `VertexV1Beta1Content`, `VertexV1Beta1GenerateContentRequest`, `VertexV1Beta1GenerateContentResponse`, `VertexV1Beta1Part`)\n  - field removed: `id`',
      );
      expect(run.stdout).toContain('npm run schemas:sync -- --sources');
    },
    GENERATES,
  );

  it(
    'issue 19: a new MCP protocol version is one line in the sources file, and the report says what the union gains',
    async () => {
      const schema = JSON.parse(
        await readFile(join(referenceDir, 'mcp-2026-07-28.schema.json'), 'utf8'),
      );
      schema.$defs.Tool.properties.costHint = { type: 'number' };
      const next = join(work, 'mcp-2026-12-01.schema.json');
      await writeFile(next, JSON.stringify(schema));
      const sources = referenceSources();
      sources.mcp['2026-12-01'] = next;
      const output = join(work, 'new-version.github-output');
      const run = runScript(
        'watch-schemas',
        ['--sources', await sourcesFile('new-version', sources), '--github-output', output],
        GENERATES,
      );
      expect(run.status, run.stderr).toBe(0);
      expect(await readFile(output, 'utf8')).toBe('changed=true\n');
      expect(run.stdout).toMatch(
        /\| MCP 2026-12-01 \| .* \| not followed yet \(new version\) \| .* \| changed \|/,
      );
      expect(run.stdout).toContain(
        '- `mcp/Tool.costHint`: field added (number); public type `McpTool`',
      );
      expect(run.stdout).toContain('- `McpTool`');
      expect(run.stdout).toContain('  - field added: `costHint?: number`');
    },
    GENERATES,
  );

  const truncated = async (): Promise<string> => {
    const file = join(work, 'truncated', DISCOVERY);
    await mkdir(join(work, 'truncated'), { recursive: true });
    const text = await readFile(join(referenceDir, DISCOVERY), 'utf8');
    await writeFile(file, text.slice(0, text.length / 2));
    return file;
  };

  it.each<
    [
      string,
      () => Promise<Partial<SourcesFile['gemini']> & { mcp?: Record<string, string> }>,
      RegExp,
    ]
  >([
    [
      'a truncated discovery document',
      async () => ({ location: await truncated() }),
      /not valid JSON, perhaps truncated/,
    ],
    [
      'a document that is not a discovery document',
      async () => ({ location: join(referenceDir, 'mcp-2025-06-18.schema.json') }),
      /not a Google API discovery document/,
    ],
    [
      'the discovery document of another API',
      async () => ({
        location: await discoveryCopy('other-api', (d) => {
          d.id = 'aiplatform:v1';
        }),
      }),
      /is the discovery document of "aiplatform:v1", not "generativelanguage:v1beta"/,
    ],
    [
      'a revision older than the one last synced',
      async () => ({
        location: await discoveryCopy('older', (d) => {
          d.revision = '20250101';
        }),
      }),
      /has revision 20250101, older than the 20260325 last synced/,
    ],
    [
      'a discovery document that lacks a shape we extract',
      async () => ({
        location: await discoveryCopy('no-fd', (d) => {
          delete d.schemas.FunctionDeclaration;
        }),
      }),
      /lacks the definition "FunctionDeclaration"/,
    ],
    [
      'two unreadable sources (both named)',
      async () => ({
        location: join(work, 'absent', DISCOVERY),
        mcp: { '2025-11-25': join(work, 'absent', 'mcp.json') },
      }),
      /absent\/gemini-v1beta\.discovery\.json: cannot be read[\s\S]*absent\/mcp\.json: cannot be read/,
    ],
  ])('issue 19: %s exits 2, with the source named', async (label, change, message) => {
    const { mcp, ...gemini } = await change();
    const base = referenceSources();
    const sources = {
      gemini: { ...base.gemini, ...gemini },
      mcp: { ...base.mcp, ...mcp },
      mcpExtensions: base.mcpExtensions,
      vertex: base.vertex,
      live: base.live,
    };
    const output = join(work, 'bad.github-output');
    await writeFile(output, '');
    const report = join(work, 'bad.md');
    const run = runScript('watch-schemas', [
      '--sources',
      await sourcesFile(label.replace(/\W+/g, '-'), sources),
      '--report',
      report,
      '--github-output',
      output,
    ]);
    expect(run.status, run.stdout).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(await readFile(report, 'utf8')).toMatch(message);
    expect(await readFile(output, 'utf8')).toBe('');
  });

  it('issue 19: a malformed sources file exits 2, naming the field', async () => {
    const sources = referenceSources() as unknown as { gemini: Record<string, unknown> };
    delete sources.gemini.revision;
    const run = runScript('watch-schemas', [
      '--sources',
      await sourcesFile('malformed', sources as unknown as SourcesFile),
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('gemini.revision must be like');
  });

  it('issue 19: schemas:sync --sources syncs from the sources file and records the revision synced', async () => {
    const modified = await discoveryCopy('to-sync', (document) => {
      document.revision = '20260402';
      document.schemas.FunctionCallingConfig!.properties.streamFunctionCallArguments = {
        type: 'boolean',
      };
    });
    const file = await sourcesFile('to-sync', {
      ...referenceSources(),
      gemini: { ...referenceSources().gemini, location: modified },
    });
    const out = join(work, 'synced-schemas');
    const run = runScript('sync-schemas', ['--sources', file, '--out', out]);
    expect(run.status, run.stderr).toBe(0);
    const written = JSON.parse(await readFile(file, 'utf8'));
    expect(written.gemini.revision).toBe('20260402');
    expect(written.vertex).toEqual(referenceSources().vertex);
    expect(written.mcp).toEqual(referenceSources().mcp);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.inputs.gemini.revision).toBe('20260402');
    expect(
      await readFile(join(out, 'gemini', 'FunctionCallingConfig.schema.json'), 'utf8'),
    ).toContain('streamFunctionCallArguments');
  });
});
