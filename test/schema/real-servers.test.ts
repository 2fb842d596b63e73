/**
 * SC-5, SC-7, SC-8 on real tool lists: every inputSchema and outputSchema of server-everything,
 * server-filesystem and server-memory converts with zero validator failures, no-argument tools get
 * no parameters, and every keyword Gemini's Schema cannot carry is reported, at its own pointer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../../src/generated/guards.js';
import type { GeminiParametersResult } from '../../src/schema/to-gemini-schema.js';
import { toGeminiParameters, toGeminiSchema } from '../../src/schema/to-gemini-schema.js';
import type { RealServerTools } from '../support/real-servers.js';
import { listRealServerTools } from '../support/real-servers.js';
import { atPointer, deepFreeze } from './support.js';

interface RealTool {
  serverId: string;
  name: string;
  inputSchema: unknown;
  outputSchema?: unknown;
}

interface Converted {
  tool: RealTool;
  which: 'inputSchema' | 'outputSchema';
  source: unknown;
  result: GeminiParametersResult;
}

let tools: RealTool[] = [];
let converted: Converted[] = [];

beforeAll(async () => {
  const servers: RealServerTools[] = await listRealServerTools();
  tools = servers.flatMap(({ serverId, tools: list }) =>
    (list as Omit<RealTool, 'serverId'>[]).map((tool) => deepFreeze({ serverId, ...tool })),
  );
  // What `functionDeclarations` does in openapi mode: parameters, and the response schema.
  converted = tools.flatMap((tool) => [
    {
      tool,
      which: 'inputSchema',
      source: tool.inputSchema,
      result: toGeminiParameters(tool.inputSchema),
    },
    ...(tool.outputSchema === undefined
      ? []
      : [
          {
            tool,
            which: 'outputSchema' as const,
            source: tool.outputSchema,
            result: toGeminiSchema(tool.outputSchema),
          },
        ]),
  ]);
}, 60_000);

/** Keywords Gemini's Schema carries (or that carry no constraint), so they need no warning. */
const CARRIED = new Set([
  ...['type', 'properties', 'required', 'items', 'enum', 'const', 'nullable', 'anyOf', 'oneOf'],
  ...['allOf', '$ref', '$defs', 'definitions', '$schema', '$id', 'title', 'description'],
  ...['default', 'examples', 'example', 'minimum', 'maximum', 'exclusiveMinimum'],
  ...['exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems'],
  ...['minProperties', 'maxProperties'],
]);
const ACCEPTED_FORMATS = new Set(['enum', 'date-time', 'float', 'double', 'int32', 'int64']);

/** Every schema node of a JSON Schema with its pointer (properties, items, $defs, combinators). */
function* schemaNodes(node: unknown, pointer = ''): Generator<[string, Record<string, unknown>]> {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  const schema = node as Record<string, unknown>;
  yield [pointer, schema];
  for (const key of ['properties', '$defs', 'definitions']) {
    for (const [name, child] of Object.entries((schema[key] ?? {}) as Record<string, unknown>))
      yield* schemaNodes(
        child,
        `${pointer}/${key}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`,
      );
  }
  if (schema.items !== undefined) yield* schemaNodes(schema.items, `${pointer}/items`);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[key];
    if (Array.isArray(branches))
      for (const [i, child] of branches.entries())
        yield* schemaNodes(child, `${pointer}/${key}/${i}`);
  }
}

/** The keywords of a source node that constrain values in a way Gemini's Schema cannot say. */
function lostKeywords(schema: Record<string, unknown>): string[] {
  return Object.entries(schema)
    .filter(([keyword, value]) => {
      if (keyword === 'format') return typeof value === 'string' && !ACCEPTED_FORMATS.has(value);
      if (keyword === 'additionalProperties')
        return (
          value === false || (typeof value === 'object' && Object.keys(value as object).length > 0)
        );
      return !CARRIED.has(keyword);
    })
    .map(([keyword]) => keyword);
}

describe('SC-7 real MCP servers', () => {
  it('SC-7: every real tool inputSchema and outputSchema converts with zero validator failures', () => {
    expect(new Set(tools.map((tool) => tool.serverId))).toEqual(
      new Set(['everything', 'filesystem', 'memory']),
    );
    const failures = converted.flatMap(({ tool, which, result }) => {
      const violations = result.schema === undefined ? [] : checkSchema(result.schema);
      return violations.length === 0
        ? []
        : [`${tool.serverId}/${tool.name} ${which}: ${JSON.stringify(violations)}`];
    });
    expect(failures).toEqual([]);
    expect(converted.filter(({ which }) => which === 'outputSchema').length).toBeGreaterThan(0);
  });

  it('SC-8: real no-argument tools get no parameters at all', () => {
    const noArguments = converted
      .filter(({ which, result }) => which === 'inputSchema' && result.schema === undefined)
      .map(({ tool }) => tool.name);
    expect(noArguments).toEqual(
      expect.arrayContaining(['get-env', 'list_allowed_directories', 'read_graph']),
    );
  });

  it('SC-5: every keyword of the real tools that Gemini cannot carry is reported at its pointer', () => {
    const missing: string[] = [];
    const misplaced: string[] = [];
    let reported = 0;
    for (const { tool, which, source, result } of converted) {
      const where = `${tool.serverId}/${tool.name} ${which}`;
      const said = new Set(result.warnings.map((w) => `${w.path} ${w.keyword}`));
      for (const [pointer, schema] of schemaNodes(source)) {
        for (const keyword of lostKeywords(schema)) {
          if (!said.has(`${pointer} ${keyword}`)) missing.push(`${where}: ${pointer} ${keyword}`);
        }
      }
      for (const warning of result.warnings) {
        reported++;
        const node = atPointer(source, warning.path) as Record<string, unknown> | undefined;
        if (node?.[warning.keyword] === undefined || warning.detail === '')
          misplaced.push(`${where}: ${JSON.stringify(warning)}`);
      }
    }
    expect(missing).toEqual([]);
    expect(misplaced).toEqual([]);
    // The servers declare closed output objects (additionalProperties: false) and formats.
    expect(reported).toBeGreaterThan(10);
  });
});
