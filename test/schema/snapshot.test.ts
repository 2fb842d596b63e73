/**
 * Issue 14 item 2 (output byte-identical): the converter's exact output (the Schema's JSON text,
 * the warnings, or the error) over a fixed corpus, digested and compared with the digests the
 * converter gave before its rework (committed in __snapshots__/outputs.txt). The corpus: a seeded
 * generated corpus (both arbitraries, converted plain, with `describeLosses` and as parameters),
 * the MCP tool fixtures, the synthetic shapes of ./shapes.ts, and the real servers' tools. A changed line names the case that changed.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SchemaWarning, ToGeminiSchemaOptions } from '../../src/schema/to-gemini-schema.js';
import { toGeminiParameters, toGeminiSchema } from '../../src/schema/to-gemini-schema.js';
import { listRealServerTools } from '../support/real-servers.js';
import { anySchemaDocument, typedSchemaDocument } from './arbitraries.js';
import { billionLaughs, componentTree, entityCycle } from './shapes.js';

const SEED = 20_261_130;
const PER_ARBITRARY = 1500;

/**
 * A warning in the layout the digests were taken with (before issue 34 added `code` and
 * `message` and renamed `pointer` to `path`): what the converter reports is compared, not how
 * its fields are named. `code` and `message` follow from these four (test/schema/rules.test.ts).
 */
function digestedWarning({ path, keyword, action, detail }: SchemaWarning) {
  return { pointer: path, keyword, action, detail };
}

/** The exact outcome of one conversion, as text: the JSON of the result, or of the error. */
function outcome(convert: () => { warnings: SchemaWarning[] }): string {
  try {
    const result = convert();
    return JSON.stringify({ ...result, warnings: result.warnings.map(digestedWarning) });
  } catch (error) {
    const { name, message, code, path, data } = error as Record<string, unknown>;
    return JSON.stringify({ error: { name, code, message, path, data } });
  }
}

/** One line per input: its name and a digest of its outcomes under every variant. */
function digest(name: string, schema: unknown): string {
  const noted: ToGeminiSchemaOptions = { describeLosses: true };
  const text = [
    outcome(() => toGeminiSchema(schema)),
    outcome(() => toGeminiSchema(schema, noted)),
    outcome(() => toGeminiParameters(schema)),
  ].join('\n');
  return `${name} ${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
}

const fixtureDir = join(import.meta.dirname, '../fixtures/McpTool/valid');
let realTools: { serverId: string; tool: Record<string, unknown> }[] = [];

beforeAll(async () => {
  const servers = await listRealServerTools();
  realTools = servers.flatMap(({ serverId, tools }) =>
    (tools as Record<string, unknown>[]).map((tool) => ({ serverId, tool })),
  );
}, 60_000);

describe('converter output snapshot', () => {
  it('issue 14: every corpus input converts to the same bytes, warnings and errors as before', async () => {
    const lines: string[] = [];
    for (const [label, arbitrary] of [
      ['any', anySchemaDocument],
      ['typed', typedSchemaDocument],
    ] as const) {
      const schemas = fc.sample(arbitrary, { seed: SEED, numRuns: PER_ARBITRARY });
      schemas.forEach((schema, i) => {
        lines.push(digest(`${label}/${i}`, schema));
      });
    }
    for (const file of readdirSync(fixtureDir).sort()) {
      const tool = JSON.parse(readFileSync(join(fixtureDir, file), 'utf8')) as Record<
        string,
        unknown
      >;
      lines.push(digest(`fixture/${file}/inputSchema`, tool.inputSchema));
      if (tool.outputSchema !== undefined)
        lines.push(digest(`fixture/${file}/outputSchema`, tool.outputSchema));
    }
    for (const fanout of [1, 3, 16])
      lines.push(digest(`shape/componentTree/${fanout}`, componentTree(fanout)));
    lines.push(digest('shape/entityCycle', entityCycle()));
    for (const levels of [2, 4, 8, 12, 16]) {
      for (const shape of ['properties', 'anyOf'] as const) {
        lines.push(digest(`shape/billionLaughs/${levels}/${shape}`, billionLaughs(levels, shape)));
      }
    }
    expect(realTools.length).toBeGreaterThan(20);
    for (const { serverId, tool } of realTools) {
      lines.push(digest(`real/${serverId}/${String(tool.name)}/inputSchema`, tool.inputSchema));
      if (tool.outputSchema !== undefined)
        lines.push(digest(`real/${serverId}/${String(tool.name)}/outputSchema`, tool.outputSchema));
    }
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot('__snapshots__/outputs.txt');
  });
});
