/**
 * The API limits in the schema pipeline (issue 31 item 1), fast tier: each reference citation is
 * checked against the reference text (the discovery document's field descriptions, the comments
 * of Vertex AI's tool.proto), a dropped text flips the limit to not found, and the change report
 * and the drift watch's report say so.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  API_LIMITS,
  checkCitations,
  discoveryFieldText,
  limitsDocument,
  protoFieldText,
} from '../../scripts/lib/api-limits.js';
import { limitChanges, unfoundCitations } from '../../scripts/lib/change-report.js';
import { renderDriftReport } from '../../scripts/lib/drift-report.js';
import { projectRoot, referenceDir } from './run-script.js';

const discoveryFile = join(referenceDir, 'gemini-v1beta.discovery.json');
const haveReference = existsSync(discoveryFile);
const protoDir = join(
  projectRoot,
  'node_modules',
  '@google-cloud',
  'aiplatform',
  'build',
  'protos',
  'google',
  'cloud',
  'aiplatform',
);

const texts = () => {
  const discovery = JSON.parse(readFileSync(discoveryFile, 'utf8'));
  return {
    discovery,
    texts: {
      'gemini-discovery': discoveryFieldText(discovery.schemas),
      'vertex-v1-proto': protoFieldText(readFileSync(join(protoDir, 'v1', 'tool.proto'), 'utf8')),
      'vertex-v1beta1-proto': protoFieldText(
        readFileSync(join(protoDir, 'v1beta1', 'tool.proto'), 'utf8'),
      ),
    } as const,
  };
};

describe.skipIf(!haveReference)('issue 31 item 1: the limits cite the reference synced', () => {
  it('issue 31 item 1: every reference citation is found in the discovery document or tool.proto', () => {
    const checks = checkCitations(texts().texts);
    expect(checks.length).toBeGreaterThan(8);
    expect(checks.filter((check) => !check.found)).toEqual([]);
  });

  it('issue 31 item 1: reads a proto field’s comment (Vertex AI: 128 declarations, names of 64)', () => {
    const proto = protoFieldText(readFileSync(join(protoDir, 'v1', 'tool.proto'), 'utf8'));
    expect(proto('Tool.function_declarations')).toContain('Maximum 128 function declarations');
    expect(proto('FunctionDeclaration.name')).toContain('with a maximum length of 64');
    expect(proto('FunctionDeclaration.nothing')).toBeUndefined();
  });

  it('issue 31 item 1 (drift watch): a reference that drops a cited text marks the limit, and the reports say so', () => {
    const { discovery, texts: reference } = texts();
    const before = limitsDocument(checkCitations(reference));
    const name = discovery.schemas.FunctionDeclaration.properties.name;
    name.description = name.description.replace('maximum length of 128', 'maximum length of 256');
    const after = limitsDocument(
      checkCitations({ ...reference, 'gemini-discovery': discoveryFieldText(discovery.schemas) }),
    );
    const changes = limitChanges(before, after);
    expect(changes).toEqual([
      'limits.function-name: the reference no longer says it: gemini-discovery FunctionDeclaration.name: "underscores, colons, dots, and dashes, with a maximum length of 128"',
    ]);
    expect(limitChanges(after, before)).toEqual([
      expect.stringContaining('limits.function-name: the reference says it again'),
    ]);
    expect(unfoundCitations(new Map([['limits.json', JSON.stringify(after)]]))).toEqual([
      expect.stringMatching(
        /^limits: function-name cites gemini-discovery FunctionDeclaration\.name/,
      ),
    ]);
    const report = renderDriftReport({
      sources: [],
      changes: [],
      limits: changes,
      schemasChanged: true,
      generated: [],
      types: null,
      apply: [],
    });
    expect(report).toContain('## API limits (`schemas/limits.json`)');
    expect(report).toContain(`- ${changes[0]}`);
    expect(report).toContain('1 limit change(s)');
  });
});

describe('issue 31 item 1: the limits data', () => {
  it('issue 31 item 1: a value changed in one dialect is one line of the change report', () => {
    const document = limitsDocument([]);
    const changed = structuredClone(document) as { limits: Record<string, { value: object }> };
    changed.limits['declarations-per-request']!.value = {
      gemini: 256,
      'vertex-v1': 128,
      'vertex-v1beta1': 128,
    };
    expect(limitChanges(document, changed as never)).toEqual([
      'limits.declarations-per-request.gemini: 512 -> 256',
    ]);
  });

  it('issue 31 item 1: each limit has a value per dialect, sources, and api-error texts as reported', () => {
    for (const limit of API_LIMITS) {
      expect(Object.keys(limit.value).sort(), limit.id).toEqual([
        'gemini',
        'vertex-v1',
        'vertex-v1beta1',
      ]);
      for (const source of limit.sources) {
        if (source.kind !== 'reference') expect(source.cite, limit.id).toMatch(/#\d+|\//);
      }
    }
  });
});
