/**
 * SC-7 on real tool lists: every inputSchema and outputSchema of server-everything,
 * server-filesystem and server-memory converts with zero validator failures. Also measures, for
 * the closing note, the warnings by keyword and the median conversion time per tool (printed).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../../src/generated/guards.js';
import type { SchemaWarning } from '../../src/schema/to-gemini-schema.js';
import { toGeminiParameters } from '../../src/schema/to-gemini-schema.js';
import type { RealServerTools } from '../support/real-servers.js';
import { listRealServerTools } from '../support/real-servers.js';
import { deepFreeze } from './support.js';

interface RealTool {
  serverId: string;
  name: string;
  inputSchema: unknown;
  outputSchema?: unknown;
}

let tools: RealTool[] = [];

beforeAll(async () => {
  const servers: RealServerTools[] = await listRealServerTools();
  tools = servers.flatMap(({ serverId, tools: list }) =>
    (list as Omit<RealTool, 'serverId'>[]).map((tool) => ({ serverId, ...tool })),
  );
}, 60_000);

/** Converts both schemas of `tool`; what `functionDeclarations` does in openapi mode. */
function convertTool(tool: RealTool) {
  const input = toGeminiParameters(tool.inputSchema);
  const output =
    tool.outputSchema === undefined ? undefined : toGeminiParameters(tool.outputSchema);
  return { input, output };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

describe('SC-7 real MCP servers', () => {
  it('SC-7: every real tool inputSchema and outputSchema converts with zero validator failures', () => {
    expect(new Set(tools.map((tool) => tool.serverId))).toEqual(
      new Set(['everything', 'filesystem', 'memory']),
    );
    const failures: string[] = [];
    let outputs = 0;
    for (const tool of tools) {
      deepFreeze(tool);
      const { input, output } = convertTool(tool);
      for (const [which, result] of [
        ['inputSchema', input],
        ['outputSchema', output],
      ] as const) {
        if (result?.schema === undefined) continue;
        if (which === 'outputSchema') outputs++;
        const violations = checkSchema(result.schema);
        if (violations.length > 0)
          failures.push(`${tool.serverId}/${tool.name} ${which}: ${JSON.stringify(violations)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(outputs).toBeGreaterThan(0);
  });

  it('SC-8: real no-argument tools get no parameters at all', () => {
    const noArguments = tools
      .filter((tool) => convertTool(tool).input.schema === undefined)
      .map((tool) => tool.name);
    expect(noArguments).toEqual(
      expect.arrayContaining(['get-env', 'list_allowed_directories', 'read_graph']),
    );
  });

  it('measures warnings by keyword and the median conversion time per tool', () => {
    const inputWarnings: Record<string, number> = {};
    const outputWarnings: Record<string, number> = {};
    const count = (into: Record<string, number>, warnings: readonly SchemaWarning[]) => {
      for (const { keyword, action } of warnings) {
        into[`${keyword} ${action}`] = (into[`${keyword} ${action}`] ?? 0) + 1;
      }
    };
    for (const tool of tools) {
      const { input, output } = convertTool(tool);
      count(inputWarnings, input.warnings);
      if (output !== undefined) count(outputWarnings, output.warnings);
    }
    const repetitions = 200;
    const perTool = tools.map((tool) => {
      convertTool(tool);
      const start = process.hrtime.bigint();
      for (let i = 0; i < repetitions; i++) convertTool(tool);
      return Number(process.hrtime.bigint() - start) / 1000 / repetitions;
    });
    const summary = {
      tools: tools.length,
      withOutputSchema: tools.filter((tool) => tool.outputSchema !== undefined).length,
      inputSchemaWarningsByKeyword: inputWarnings,
      outputSchemaWarningsByKeyword: outputWarnings,
      medianMicrosecondsPerTool: Math.round(median(perTool)),
      maxMicrosecondsPerTool: Math.round(Math.max(...perTool)),
    };
    console.log(`[schema] real servers: ${JSON.stringify(summary)}`);
    expect(summary.medianMicrosecondsPerTool).toBeGreaterThan(0);
  });
});
