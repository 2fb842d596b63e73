/**
 * Issue 11, MCP fidelity: the vendored MCP schemas are a true union of 2025-06-18, 2025-11-25
 * and 2026-07-28. Each version has its own fixture set (the specification's schema files carry
 * no examples), valid and invalid; each fixture is first checked against its own version's
 * schema from the shared reference (so the set is honest), then against the union: every valid
 * fixture of every version passes it, and a fixture no version accepts fails it. (A field one
 * version defines keeps that meaning in the union even where another version would only let it
 * through as an unknown field: `execution.taskSupport: 3` fails, though 2025-06-18 ignores it.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { SCHEMAS, type SchemaName } from '../../src/generated/guards.js';
import { referenceDir } from '../generated/run-script.js';

const VERSIONS = ['2025-06-18', '2025-11-25', '2026-07-28'] as const;
const root = join(import.meta.dirname, 'mcp-versions');

interface Fixture {
  version: string;
  validity: 'valid' | 'invalid';
  name: string;
  definition: string;
  payload: unknown;
}

const fixtures: Fixture[] = VERSIONS.flatMap((version) =>
  (['valid', 'invalid'] as const).flatMap((validity) =>
    readdirSync(join(root, version, validity))
      .filter((file) => file.endsWith('.json'))
      .sort()
      .map((file) => {
        const { definition, payload } = JSON.parse(
          readFileSync(join(root, version, validity, file), 'utf8'),
        );
        return { version, validity, name: file.replace(/\.json$/, ''), definition, payload };
      }),
  ),
);

const haveReference = VERSIONS.every((v) => existsSync(join(referenceDir, `mcp-${v}.schema.json`)));

/** A validator of one definition of one version's own specification schema. */
function ownSchema(version: string): (definition: string, value: unknown) => boolean {
  const document = JSON.parse(
    readFileSync(join(referenceDir, `mcp-${version}.schema.json`), 'utf8'),
  );
  const draft07 = document.definitions !== undefined;
  const options = { strict: false, validateFormats: false, allErrors: false };
  const ajv = draft07 ? new Ajv.default(options) : new Ajv2020.default(options);
  ajv.addSchema(document, 'spec');
  return (definition, value) => {
    const validate = ajv.getSchema(`spec#/${draft07 ? 'definitions' : '$defs'}/${definition}`);
    if (validate === undefined) throw new Error(`${version} has no ${definition}`);
    return validate(value) === true;
  };
}

const union = (definition: string) => SCHEMAS[`Mcp${definition}` as SchemaName];

describe('issue 11: the MCP union of 2025-06-18, 2025-11-25 and 2026-07-28', () => {
  it('has valid and invalid fixtures for every version', () => {
    for (const version of VERSIONS) {
      for (const validity of ['valid', 'invalid'] as const) {
        const count = fixtures.filter((f) => f.version === version && f.validity === validity);
        expect(count.length, `${version}/${validity}`).toBeGreaterThan(2);
      }
    }
  });

  describe.skipIf(!haveReference)("each fixture against its own version's schema", () => {
    const own = haveReference
      ? Object.fromEntries(VERSIONS.map((v) => [v, ownSchema(v)]))
      : ({} as Record<string, ReturnType<typeof ownSchema>>);
    for (const f of fixtures) {
      it(`${f.version} ${f.validity}: ${f.name}`, () => {
        expect(own[f.version]!(f.definition, f.payload)).toBe(f.validity === 'valid');
      });
    }
    it('a fixture no version accepts fails the union', () => {
      const refused = fixtures.filter((f) => VERSIONS.every((v) => !own[v]!(f.definition, f.payload)));
      expect(refused.length).toBeGreaterThan(8);
      for (const f of refused) {
        expect(union(f.definition).read!(f.payload).violations, f.name).not.toEqual([]);
      }
    });
  });

  for (const f of fixtures.filter((x) => x.validity === 'valid')) {
    it(`accepts ${f.version}'s ${f.name}, with nothing to report`, () => {
      expect(union(f.definition).check(f.payload)).toEqual([]);
      expect(union(f.definition).read!(f.payload)).toEqual({ violations: [], notices: [] });
    });
  }
  for (const f of fixtures.filter((x) => x.validity === 'invalid')) {
    it(`rejects ${f.version}'s ${f.name}`, () => {
      expect(union(f.definition).read!(f.payload).violations.length).toBeGreaterThan(0);
    });
  }
});
