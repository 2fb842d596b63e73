/** P2: our declarations vs @google/genai's own MCP conversion of the same real tools. */
import { mcpToTool } from '@google/genai';
import type { BenchContext } from '../lib/context.js';
import { compareCpu, cpuRatio, cpuTask, loadNow } from '../lib/cpu.js';
import { linkedServer } from '../lib/mcp-servers.js';
import { cpuRowOf, type Figure, ratioCheck } from '../lib/report.js';
import { acceptedTools } from '../lib/valid-corpus.js';
import { packageVersion } from '../lib/versions.js';

export async function p2(ctx: BenchContext): Promise<Figure> {
  const loadStart = loadNow();
  const { functionDeclarations, buildToolSet } = ctx.lib;
  const servers = acceptedTools(ctx.lib, ctx.corpus.servers);
  const { toolset } = buildToolSet(servers);
  const count = toolset.entries.length;
  const schemas = toolset.entries.map((entry) => entry.tool.inputSchema);
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
      repeated: `gemini-mcp-kit functionDeclarations, repeated on a built tool set (${count} tools, json)`,
      genai: `@google/genai ${genaiVersion} mcpToTool(...).tool() (${count} tools)`,
      first: `gemini-mcp-kit functionDeclarations, first call on a fresh tool set (${count} tools)`,
      clones: `structuredClone of each of the ${count} inputSchemas`,
      withSet: `gemini-mcp-kit buildToolSet + functionDeclarations (${count} tools)`,
    };
    ctx.log(`P2: ${count} real tools, functionDeclarations vs @google/genai mcpToTool`);
    const result = await compareCpu(
      [
        { name: names.repeated, run: async () => functionDeclarations(toolset), async: true },
        { name: names.genai, run: () => callable.tool(), async: true },
        {
          name: names.first,
          prepare: () => buildToolSet(servers).toolset,
          run: (fresh) => functionDeclarations(fresh as typeof toolset),
        },
        { name: names.clones, run: () => schemas.map((schema) => structuredClone(schema)) },
        { name: names.withSet, run: () => functionDeclarations(buildToolSet(servers).toolset) },
      ],
      ctx.cpu,
    );
    return {
      id: 'P2',
      title: `functionDeclarations vs @google/genai's MCP conversion, ${count} real tools`,
      rows: Object.values(names).map((name) => cpuRowOf(cpuTask(result, name))),
      checks: [
        ratioCheck(
          `repeated functionDeclarations / genai conversion, ${count} tools`,
          cpuRatio(result, names.repeated, names.genai),
          { max: 2 },
          '<= 2',
        ),
        ratioCheck(
          `first functionDeclarations on a fresh tool set / structuredClone of the inputSchemas, ${count} tools`,
          cpuRatio(result, names.first, names.clones),
          { max: 1.5 },
          '<= 1.5',
        ),
        ratioCheck(
          `buildToolSet + functionDeclarations / genai conversion, ${count} tools`,
          cpuRatio(result, names.withSet, names.genai),
          {},
          'none (information)',
        ),
      ],
      load: { start: loadStart, end: loadNow() },
      method: [
        `The corpus tools \`buildToolSet\` accepts (${count} of ${ctx.corpus.tools.length}), each renamed to its exposed name so names are unique across servers (genai refuses duplicates). The anchor is @google/genai ${genaiVersion}'s \`mcpToTool(...clients)\` over ${servers.length} SDK clients, each linked by \`InMemoryTransport\` to an SDK \`Server\` publishing one package's tools. Its first \`tool()\` lists the tools over MCP (not measured); every later \`tool()\` runs \`mcpToolsToGeminiTool\` over the cached list (the package exports only \`mcpToTool\`), so the measured anchor is that conversion plus one awaited promise; our repeated task is made async too. CPU time, interleaved rounds, ratio per round.`,
        'What each side does per tool: genai builds `{name, description, parametersJsonSchema, responseJsonSchema?}` sharing the MCP objects, and checks names for duplicates. gemini-mcp-kit (json mode) sanitizes the description, gives each declaration a `parametersJsonSchema` that never aliases the tool set, and proves the declaration against the vendored FunctionDeclaration validator. The first call is timed on a tool set built just before it (the build not timed), against `structuredClone` of every inputSchema; the last row adds `buildToolSet` (MCP Tool validation, naming, collision and look-alike checks, parameter-name warnings), which genai does not do.',
      ],
    };
  } finally {
    await Promise.all(linked.map((link) => link.close()));
  }
}
