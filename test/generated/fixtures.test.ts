/**
 * The fixture corpus: every payload under test/fixtures/<Schema>/valid passes its generated
 * validator; every one under invalid/ fails, with its first violation at the pointer it expects.
 * These are write-contract fixtures; a received shape's valid ones pass its read contract too,
 * with nothing to report. A valid fixture named `...-tolerated` holds a novelty: the write
 * contract refuses it, the read contract accepts it with a notice.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GEMINI_ROOTS } from '../../scripts/lib/gemini.js';
import { MCP_ROOTS } from '../../scripts/lib/mcp.js';
import { SCHEMAS, type SchemaName } from '../../src/generated/guards.js';

const root = join(import.meta.dirname, '..', 'fixtures');
// configs/ holds MCP client configuration files (test/runtime/config-files.test.ts), refusals/ the API's
// refusals of declarations (test/adapter/refusal.test.ts): not schema fixtures.
const schemaNames = readdirSync(root)
  .filter((name) => name !== 'configs' && name !== 'refusals')
  .sort();
const casesOf = (schema: string, kind: 'valid' | 'invalid') => {
  const dir = join(root, schema, kind);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map(
      (file) =>
        [file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, file), 'utf8'))] as const,
    );
};

/** The Vertex AI shapes where the versions and the Gemini API differ in what the adapter sends or reads (ids). */
const VERTEX_SHAPES = [
  'Candidate',
  'Content',
  'FunctionCall',
  'FunctionResponse',
  'GenerateContentRequest',
  'GenerateContentResponse',
  'Part',
];

/** The shapes the project extracts, and those of each Vertex AI version: each must have valid and invalid fixtures. */
const EXTRACTED = [
  ...GEMINI_ROOTS,
  ...VERTEX_SHAPES.flatMap((name) => [`VertexV1${name}`, `VertexV1Beta1${name}`]),
  ...MCP_ROOTS.map((name) => `Mcp${name}`),
];

describe('schema fixtures', () => {
  it('every extracted schema has valid and invalid fixtures', () => {
    for (const name of EXTRACTED) {
      expect(schemaNames, name).toContain(name);
      expect(casesOf(name, 'valid').length, `${name}/valid`).toBeGreaterThan(0);
      expect(casesOf(name, 'invalid').length, `${name}/invalid`).toBeGreaterThan(0);
    }
  });

  for (const name of schemaNames) {
    const schema = SCHEMAS[name as SchemaName];
    describe(name, () => {
      it('is a generated schema', () => expect(schema).toBeDefined());
      for (const [label, payload] of casesOf(name, 'valid')) {
        it(`accepts ${label}`, () => {
          const read = schema.read?.(payload);
          if (label.endsWith('-tolerated')) {
            expect(schema.check(payload)).not.toEqual([]);
            expect(read?.violations).toEqual([]);
            expect(read?.notices.length).toBeGreaterThan(0);
          } else {
            expect(schema.check(payload)).toEqual([]);
            if (read !== undefined) expect(read).toEqual({ violations: [], notices: [] });
          }
        });
      }
      for (const [label, { $expect, payload }] of casesOf(name, 'invalid')) {
        it(`rejects ${label} at "${$expect.path}"`, () => {
          const violations = schema.check(payload);
          expect(violations.length).toBeGreaterThan(0);
          expect(violations[0]?.path).toBe($expect.path);
        });
      }
    });
  }
});
