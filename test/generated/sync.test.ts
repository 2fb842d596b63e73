/** scripts/sync-schemas.ts: reproducible, reports field-level changes, refuses bad input untouched. */
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../scripts/lib/canonical-json.js';
import { readTree } from '../../scripts/lib/schema-dir.js';
import {
  projectRoot,
  referenceArgs,
  referenceDir,
  runScript,
  tasksExtensionSchema,
} from './run-script.js';

const haveReference = existsSync(join(referenceDir, 'gemini-v1beta.discovery.json'));
if (!haveReference) {
  console.warn(`SKIPPED: ${referenceDir} is absent, so sync-from-reference tests do not run`);
}
const committed = join(projectRoot, 'schemas');

describe('schemas/manifest.json', () => {
  const manifest = JSON.parse(readFileSync(join(committed, 'manifest.json'), 'utf8'));

  it('lists every schema file with its sha256', async () => {
    const tree = await readTree(committed);
    const listed = Object.keys(manifest.schemas).sort();
    expect(listed).toEqual(
      [...tree.keys()].filter((f) => f !== 'manifest.json' && f !== 'limits.json').sort(),
    );
    for (const file of listed) expect(sha256(tree.get(file)!), file).toBe(manifest.schemas[file]);
  });

  it('issue 31 item 1: records the API limits file with its sha256 and source', async () => {
    const tree = await readTree(committed);
    expect(manifest.limits).toEqual({
      file: 'limits.json',
      sha256: sha256(tree.get('limits.json')!),
      source: 'scripts/lib/api-limits.ts',
    });
  });

  it('records the hand rules applied, each with its source', () => {
    const ids = manifest.handRules.map((rule: { id: string }) => rule.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'function-declaration-name',
        'part-one-data-field',
        'vertex-field-behavior',
        'vertex-oneof',
        'vertex-part-one-data-field',
      ]),
    );
    // Vertex AI's ids come from its own reference, per version: no hand rule removes them
    expect(ids).not.toContain('vertex-no-call-id');
    for (const rule of manifest.handRules) expect(rule.source).toMatch(/\S/);
  });

  it.skipIf(!haveReference)('matches the reference inputs byte for byte (sha256 and size)', () => {
    const inputs = [manifest.inputs.gemini, ...manifest.inputs.mcp];
    for (const input of inputs) {
      const bytes = readFileSync(join(referenceDir, input.source));
      expect(sha256(bytes), input.source).toBe(input.sha256);
      expect(bytes.byteLength).toBe(input.bytes);
    }
    expect(manifest.inputs.gemini.revision).toBe('20260325');
  });
});

describe.skipIf(!haveReference)('schemas:sync on the shared reference', () => {
  let work: string;
  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'gemini-mcp-sync-'));
    await cp(committed, join(work, 'schemas'), { recursive: true });
  });
  afterEach(() => rm(work, { recursive: true, force: true }));

  it('reproduces the committed schemas/ byte for byte', async () => {
    await rm(join(work, 'schemas'), { recursive: true });
    const run = runScript('sync-schemas', [...referenceArgs(), '--out', join(work, 'schemas')]);
    expect(run.status, run.stderr).toBe(0);
    expect(await readTree(join(work, 'schemas'))).toEqual(await readTree(committed));
  });

  it('--check passes when nothing would change', () => {
    const run = runScript('sync-schemas', [
      ...referenceArgs(),
      '--out',
      join(work, 'schemas'),
      '--check',
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('up to date');
  });

  it('reports exactly a field added, a field removed and an enum value added', async () => {
    const discovery = JSON.parse(
      await readFile(join(referenceDir, 'gemini-v1beta.discovery.json'), 'utf8'),
    );
    discovery.schemas.FunctionCallingConfig.properties.streamArgs = { type: 'boolean' };
    delete discovery.schemas.FileData.properties.mimeType;
    discovery.schemas.PromptFeedback.properties.blockReason.enum.push('TOO_LONG');
    const modified = join(work, 'gemini-v1beta.discovery.json');
    await writeFile(modified, JSON.stringify(discovery));
    const before = await readTree(join(work, 'schemas'));

    const run = runScript('sync-schemas', [
      ...referenceArgs(modified),
      '--out',
      join(work, 'schemas'),
      '--check',
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual([
      'gemini/FileData.mimeType: field removed',
      'gemini/FunctionCallingConfig.streamArgs: field added (boolean)',
      'gemini/PromptFeedback.blockReason: enum values added "TOO_LONG"',
    ]);
    expect(run.stderr).toContain('would change');
    expect(await readTree(join(work, 'schemas'))).toEqual(before);
  });

  it.each([
    [
      'a file that is not a discovery document',
      { kind: 'something' },
      'not a Google API discovery document',
    ],
    [
      'a $ref to nowhere',
      'drop:VideoMetadata',
      '$ref to nowhere: "VideoMetadata" (referenced from Part)',
    ],
    [
      'a missing required definition',
      'drop:FunctionDeclaration',
      'lacks the definition "FunctionDeclaration"',
    ],
  ])('refuses %s with exit 2 and leaves schemas/ untouched', async (_label, change, message) => {
    const discovery = JSON.parse(
      await readFile(join(referenceDir, 'gemini-v1beta.discovery.json'), 'utf8'),
    );
    if (typeof change === 'string') delete discovery.schemas[change.slice('drop:'.length)];
    const bad = typeof change === 'string' ? discovery : change;
    const input = join(work, 'bad.json');
    await writeFile(input, JSON.stringify(bad));
    const before = await readTree(join(work, 'schemas'));
    const run = runScript('sync-schemas', [
      ...referenceArgs(input),
      '--out',
      join(work, 'schemas'),
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(input);
    expect(run.stderr).toContain(message);
    expect(await readTree(join(work, 'schemas'))).toEqual(before);
  });

  it('refuses an MCP input that is not an MCP specification schema, naming it', async () => {
    const input = join(work, 'mcp-2025-06-18.json');
    await writeFile(input, JSON.stringify({ $defs: { Foo: {} } }));
    const args = ['--gemini', join(referenceDir, 'gemini-v1beta.discovery.json'), '--mcp', input];
    const run = runScript('sync-schemas', [...args, '--out', join(work, 'schemas')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${input}: not an MCP specification schema`);
  });

  it('issue 32 item 3: vendors the tasks extension: its own shapes as it defines them, what they name from the core union', async () => {
    const schema = (name: string) =>
      JSON.parse(readFileSync(join(committed, 'mcp', `${name}.schema.json`), 'utf8'));
    // The extension's handle (flat: Result & Task), not 2025-11-25's `{task: Task}` of that name.
    const handle = JSON.stringify(schema('CreateTaskResult'));
    expect(handle).toContain('"ttlMs"');
    expect(handle).not.toContain('"ttl"');
    expect(handle).toContain('"$ref":"Result.schema.json"');
    expect(JSON.stringify(schema('GetTaskResult'))).toContain('"$ref":"InputRequests.schema.json"');
    const manifest = JSON.parse(readFileSync(join(committed, 'manifest.json'), 'utf8'));
    expect(manifest.inputs.mcpExtensions).toEqual([
      expect.objectContaining({
        extension: 'io.modelcontextprotocol/tasks',
        sha256: sha256(readFileSync(tasksExtensionSchema)),
      }),
    ]);
  });

  it('refuses an extension schema that lacks the shapes followed, naming it', async () => {
    const input = join(work, 'ext.json');
    await writeFile(input, JSON.stringify({ $defs: { Task: {} } }));
    const args = referenceArgs().map((arg) =>
      arg.startsWith('io.modelcontextprotocol/tasks=')
        ? `io.modelcontextprotocol/tasks=${input}`
        : arg,
    );
    const run = runScript('sync-schemas', [...args, '--out', join(work, 'schemas')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      `${input}: not the schema of the extension "io.modelcontextprotocol/tasks" (no $defs/definitions with CreateTaskResult)`,
    );
  });
});
