/** P2: our declarations vs @google/genai's own MCP conversion of the same tools. */
import { mcpToTool } from '@google/genai';
import { compare, measured, ratioOf } from '../lib/compare.js';
import type { BenchContext } from '../lib/context.js';
import { linkedServer } from '../lib/mcp-servers.js';
import { type Figure, ratioCheck, rowOf } from '../lib/report.js';
import { packageVersion } from '../lib/versions.js';

export async function p2(ctx: BenchContext): Promise<Figure> {
  const count = ctx.quick ? 200 : 1000;
  const { functionDeclarations, buildToolSet } = ctx.lib;
  const servers = ctx.corpus(count);
  const { toolset } = buildToolSet(servers);
  const linked = await Promise.all(servers.map((server) => linkedServer(server.tools)));
  const genaiVersion = packageVersion('@google/genai');
  try {
    const callable = mcpToTool(...linked.map((link) => link.client), {});
    // The first tool() lists every client's tools (MCP traffic, not measured); from then on
    // tool() is the conversion alone: mcpToolsToGeminiTool over the cached tool list.
    const first = await callable.tool();
    const declared = first.functionDeclarations?.length ?? 0;
    if (declared !== count) throw new Error(`mcpToTool declared ${declared} tools, not ${count}`);
    const names = {
      ours: `gemini-mcp functionDeclarations (${count} tools)`,
      oursWithSet: `gemini-mcp buildToolSet + functionDeclarations (${count} tools)`,
      genai: `@google/genai ${genaiVersion} mcpToTool(...).tool() (${count} tools)`,
    };
    ctx.log(`P2: ${count} tools, functionDeclarations vs @google/genai mcpToTool`);
    const result = await compare(
      [
        { name: names.ours, fn: async () => functionDeclarations(toolset), async: true },
        {
          name: names.oursWithSet,
          fn: async () => functionDeclarations(buildToolSet(servers).toolset),
          async: true,
        },
        { name: names.genai, fn: () => callable.tool(), async: true },
      ],
      ctx.inProcess,
    );
    return {
      id: 'P2',
      title: `functionDeclarations vs @google/genai's MCP conversion, ${count} tools`,
      rows: Object.values(names).map((name) => rowOf(measured(result, name))),
      checks: [
        ratioCheck(
          `functionDeclarations / genai conversion, ${count} tools`,
          ratioOf(result, names.ours, names.genai),
          { max: 2 },
          '<= 2',
        ),
        ratioCheck(
          `buildToolSet + functionDeclarations / genai conversion, ${count} tools`,
          ratioOf(result, names.oursWithSet, names.genai),
          {},
          'none (information)',
        ),
      ],
      method: [
        `The anchor is @google/genai ${genaiVersion}'s \`mcpToTool(...clients)\` over ${servers.length} SDK clients, each linked by \`InMemoryTransport\` to an SDK \`Server\` publishing its share of the ${count} tools. The package exports only \`mcpToTool\`; the conversion it runs, \`mcpToolsToGeminiTool\`, is internal. Its first \`tool()\` lists the tools over MCP (not measured); every later \`tool()\` returns at once from its \`initialize()\` and runs \`mcpToolsToGeminiTool\` over the cached list, so the measured anchor is that conversion alone plus one awaited promise. Our task is made async too, so both pay the same await.`,
        'What each side does per tool: genai builds `{name, description, parametersJsonSchema, responseJsonSchema?}` sharing the MCP objects, and checks names for duplicates. gemini-mcp (default json mode) sanitizes the description (invisible characters, 4 KiB cap), deep-copies `inputSchema` (`structuredClone`, so the request never aliases the tool set) and proves the declaration against the vendored FunctionDeclaration validator. The second row adds `buildToolSet` (MCP Tool validation, naming, collision and look-alike checks, parameter-name warnings), which genai does not do.',
      ],
    };
  } finally {
    await Promise.all(linked.map((link) => link.close()));
  }
}
