/**
 * Issue 20: Vertex AI's shapes come from Vertex's own reference, per API version (the protos.json
 * of the pinned @google-cloud/aiplatform), and the README's table of differing fields is kept
 * in step with schemas/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTree } from '../../scripts/lib/change-report.js';
import { dialectTable, TABLE_END, TABLE_START } from '../../scripts/lib/dialect-table.js';
import { buildVertexSchemas } from '../../scripts/lib/protos.js';
import { readTree } from '../../scripts/lib/schema-dir.js';
import { SyncInputError } from '../../scripts/lib/sync-error.js';
import { isVertexV1Beta1FunctionCall, isVertexV1FunctionCall } from '../../src/generated/guards.js';
import { projectRoot, referenceArgs, referenceDir, runScript, vertexProtos } from './run-script.js';

/** The sync reads the Gemini and MCP references beside the repository before the Vertex input. */
const haveReference = existsSync(join(referenceDir, 'gemini-v1beta.discovery.json'));

const protos: unknown = JSON.parse(readFileSync(vertexProtos, 'utf8'));
const schemasDir = join(projectRoot, 'schemas');

function properties(version: 'v1' | 'v1beta1', name: string): string[] {
  const file = buildVertexSchemas('protos.json', protos, version).find(
    (f) => f.file === `vertex/${version}/${name}.schema.json`,
  );
  return Object.keys((file?.schema.properties ?? {}) as object).sort();
}

describe('Vertex AI schemas from @google-cloud/aiplatform', () => {
  it('issue 20: v1beta1 FunctionCall and FunctionResponse have an id; v1 has none, but has streamed arguments', () => {
    expect(properties('v1beta1', 'FunctionCall')).toEqual([
      'args',
      'id',
      'name',
      'partialArgs',
      'willContinue',
    ]);
    expect(properties('v1', 'FunctionCall')).toEqual([
      'args',
      'name',
      'partialArgs',
      'willContinue',
    ]);
    expect(properties('v1beta1', 'FunctionResponse')).toContain('id');
    expect(properties('v1', 'FunctionResponse')).not.toContain('id');
  });

  it('issue 20: the generated validators know each version: ids pass for v1beta1, not for v1', () => {
    const call = { id: 'call-1', name: 'hello', args: { who: 'world' } };
    expect(isVertexV1Beta1FunctionCall(call)).toBe(true);
    expect(isVertexV1FunctionCall(call)).toBe(false);
    expect(isVertexV1FunctionCall({ name: 'hello', args: {}, willContinue: false })).toBe(true);
  });

  it('issue 20: REQUIRED and OUTPUT_ONLY field behaviours become required and readOnly', () => {
    const files = buildVertexSchemas('protos.json', protos, 'v1');
    const byName = (name: string) =>
      files.find((f) => f.file === `vertex/v1/${name}.schema.json`)!.schema;
    expect(byName('FunctionResponse').required).toEqual(['name', 'response']);
    expect(byName('Content').required).toEqual(['parts']);
    // the model travels in the URL, not in the body
    expect(byName('GenerateContentRequest').required).toEqual(['contents']);
    const candidate = byName('Candidate').properties as Record<string, { readOnly?: boolean }>;
    expect(candidate.index?.readOnly).toBe(true);
  });

  it('issue 20: oneofs: Part.data holds exactly one field, other oneofs at most one, one-field oneofs nothing', () => {
    for (const version of ['v1', 'v1beta1'] as const) {
      const files = buildVertexSchemas('protos.json', protos, version);
      const byName = (name: string) =>
        files.find((f) => f.file === `vertex/${version}/${name}.schema.json`)!.schema;
      expect(byName('Part').allOf).toEqual([
        {
          oneOf: [
            'text',
            'inlineData',
            'fileData',
            'functionCall',
            'functionResponse',
            'executableCode',
            'codeExecutionResult',
          ].map((field) => ({ required: [field] })),
        },
      ]);
      expect(byName('FunctionResponsePart').allOf).toEqual([
        { oneOf: [{ required: ['inlineData'] }, { required: ['fileData'] }] },
      ]);
      const delta = ['nullValue', 'numberValue', 'stringValue', 'boolValue'];
      expect(byName('PartialArg').allOf).toHaveLength(6);
      expect(byName('PartialArg').allOf).toContainEqual({
        not: { required: [delta[1], delta[2]] },
      });
      // proto3 `optional` fields are one-field oneofs: no rule
      expect(byName('Candidate').allOf).toBeUndefined();
    }
    const manifest = JSON.parse(readFileSync(join(schemasDir, 'manifest.json'), 'utf8'));
    expect(manifest.handRules.map((rule: { id: string }) => rule.id)).toEqual(
      expect.arrayContaining(['vertex-oneof', 'vertex-part-one-data-field']),
    );
  });

  it('issue 20: a descriptor without the Vertex AI package is refused, named', () => {
    expect(() => buildVertexSchemas('other.json', { nested: {} }, 'v1')).toThrow(SyncInputError);
    expect(() => buildVertexSchemas('other.json', { nested: {} }, 'v1')).toThrow(
      'other.json: not a protobufjs descriptor of google.cloud.aiplatform.v1',
    );
  });

  it.skipIf(!haveReference)(
    'issue 20: schemas:sync refuses a --vertex input that is not the descriptor (exit 2)',
    async () => {
      const work = await mkdtemp(join(tmpdir(), 'gemini-mcp-vertex-'));
      try {
        const bad = join(work, 'protos.json');
        await writeFile(bad, JSON.stringify({ nested: { google: {} } }));
        const args = referenceArgs().slice(0, -2);
        const run = runScript('sync-schemas', [
          ...args,
          '--vertex',
          `@google-cloud/aiplatform@6.11.0=${bad}`,
          '--out',
          join(work, 'schemas'),
        ]);
        expect(run.status).toBe(2);
        expect(run.stderr).toContain(
          `${bad}: not a protobufjs descriptor of google.cloud.aiplatform`,
        );
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  );

  it('issue 20: the manifest records the Vertex AI source, its package version and sha256', () => {
    const manifest = JSON.parse(readFileSync(join(schemasDir, 'manifest.json'), 'utf8'));
    expect(manifest.inputs.vertex).toEqual({
      source: 'protos.json',
      package: '@google-cloud/aiplatform@6.11.0',
      versions: ['v1', 'v1beta1'],
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      bytes: readFileSync(vertexProtos).byteLength,
    });
    expect(manifest.handRules.map((rule: { id: string }) => rule.id)).toContain(
      'vertex-field-behavior',
    );
  });
});

describe("the README's table of fields that differ", () => {
  it('issue 20: is the table computed from the committed schemas/ (no drift)', async () => {
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
    const start = readme.indexOf(TABLE_START);
    const end = readme.indexOf(TABLE_END);
    expect(start).toBeGreaterThan(-1);
    const committed = readme.slice(start + TABLE_START.length, end).trim();
    const table = dialectTable(parseTree(await readTree(schemasDir)));
    expect(committed).toBe(table);
    expect(table).toContain('| FunctionCall | `id` | `string` | — | `string` |');
    expect(table).toContain(
      '| FunctionCall | `partialArgs` | — | `PartialArg[]` | `PartialArg[]` |',
    );
  });
});
