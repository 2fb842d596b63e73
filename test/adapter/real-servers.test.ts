import { beforeAll, describe, expect, it } from 'vitest';
import { functionDeclarations, geminiTools } from '../../src/adapter/tools/declarations.js';
import { EXPOSED_NAME_PATTERN } from '../../src/adapter/tools/names.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import { checkFunctionDeclaration, checkTool } from '../../src/generated/guards.js';
import type { RealServerTools } from '../support/real-servers.js';
import { listRealServerTools } from '../support/real-servers.js';

let servers: RealServerTools[];

beforeAll(async () => {
  servers = await listRealServerTools();
}, 60_000);

describe('real MCP servers (server-everything, server-filesystem, server-memory)', () => {
  it('NM-6: every tool they list passes the MCP Tool schema and is exposed', () => {
    expect(servers.map((entry) => entry.serverId)).toEqual(['everything', 'filesystem', 'memory']);
    for (const entry of servers) expect(entry.tools.length).toBeGreaterThan(0);
    const { toolset, warnings } = buildToolSet(servers);
    expect(warnings.filter((warning) => warning.code === 'TOOL_INVALID')).toEqual([]);
    const total = servers.reduce((sum, entry) => sum + entry.tools.length, 0);
    expect(toolset.entries).toHaveLength(total);
    for (const entry of toolset.entries) expect(entry.exposedName).toMatch(EXPOSED_NAME_PATTERN);
  });

  it.each([
    ['json', { responseSchema: true }],
    ['openapi', { schemaMode: 'openapi', responseSchema: true }],
  ] as const)('FD-6: all their tools become valid declarations (%s mode)', (_mode, options) => {
    const { toolset } = buildToolSet(servers, { prefix: 'always' });
    const declarations = functionDeclarations(toolset, options);
    expect(declarations).toHaveLength(toolset.entries.length);
    for (const declaration of declarations)
      expect(checkFunctionDeclaration(declaration)).toEqual([]);
    const tools = geminiTools(toolset, options);
    expect(checkTool(tools[0])).toEqual([]);
  });

  it('FD-3: their inputSchemas are passed through unchanged in json mode', () => {
    const { toolset } = buildToolSet(servers);
    const declarations = functionDeclarations(toolset);
    toolset.entries.forEach((entry, index) => {
      expect(declarations[index]?.parametersJsonSchema).toEqual(entry.tool.inputSchema);
    });
  });
});
