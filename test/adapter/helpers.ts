/** Small builders shared by the adapter tests. */
import type { McpTool } from '../../src/generated/types.js';

/** A minimal valid MCP tool named `name`, with `extra` fields merged in. */
export function tool(name: string, extra: Partial<McpTool> = {}): McpTool {
  return { name, inputSchema: { type: 'object' }, ...extra };
}

/** A server entry with minimal tools of the given names. */
export function server(serverId: string, ...names: string[]) {
  return { serverId, tools: names.map((name) => tool(name)) };
}

/** Every exposed name of a tool set as `serverId/toolName -> exposedName`, sorted. */
export function nameMap(
  entries: readonly { serverId: string; tool: McpTool; exposedName: string }[],
) {
  return entries
    .map((entry) => [JSON.stringify([entry.serverId, entry.tool.name]), entry.exposedName] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** fast-check settings every property of the adapter runs with: fixed seed, moderate runs. */
export const PROPERTY_RUNS = { seed: 20261129, numRuns: 300 } as const;
