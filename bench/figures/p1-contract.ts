/** P1: what proving every declaration against the contract costs, on the real corpus. */
import type { BenchContext } from '../lib/context.js';
import { compareCpu, cpuRatio, cpuTask, loadNow } from '../lib/cpu.js';
import { cpuRowOf, type Figure, ratioCheck } from '../lib/report.js';
import { acceptedTools, openApiConvertible } from '../lib/valid-corpus.js';

export async function p1(ctx: BenchContext): Promise<Figure> {
  const loadStart = loadNow();
  const { lib } = ctx;
  const { functionDeclarations } = lib;
  const accepted = acceptedTools(lib, ctx.corpus.servers);
  const convertible = openApiConvertible(lib, accepted);
  const { toolset } = lib.buildToolSet(accepted);
  const openApiSet = lib.buildToolSet(convertible.servers).toolset;
  const count = toolset.entries.length;
  const openApiCount = openApiSet.entries.length;
  const names = {
    on: `functionDeclarations, checks on (${count} tools, json)`,
    off: `functionDeclarations, checks off (${count} tools, json)`,
    onOpenApi: `functionDeclarations, checks on (${openApiCount} tools, openapi)`,
    offOpenApi: `functionDeclarations, checks off (${openApiCount} tools, openapi)`,
  };
  const openapi = { schemaMode: 'openapi' } as const;
  ctx.log(`P1: ${count} real tools, contract checks on vs off`);
  const result = await compareCpu(
    [
      { name: names.on, run: () => functionDeclarations(toolset) },
      { name: names.off, run: () => lib.unchecked.functionDeclarations(toolset) },
      { name: names.onOpenApi, run: () => functionDeclarations(openApiSet, openapi) },
      {
        name: names.offOpenApi,
        run: () => lib.unchecked.functionDeclarations(openApiSet, openapi),
      },
    ],
    ctx.cpu,
  );
  return {
    id: 'P1',
    title: 'contract checks: functionDeclarations with checks vs without, real corpus',
    rows: Object.values(names).map((name) => cpuRowOf(cpuTask(result, name))),
    checks: [
      ratioCheck(
        `checks on / off, ${count} tools, default (json) mode`,
        cpuRatio(result, names.on, names.off),
        { max: 1.25 },
        '<= 1.25',
      ),
      ratioCheck(
        `checks on / off, ${openApiCount} tools, openapi mode (declaration and converted Schema proven)`,
        cpuRatio(result, names.onOpenApi, names.offOpenApi),
        { max: 1.25 },
        '<= 1.25',
      ),
    ],
    load: { start: loadStart, end: loadNow() },
    method: [
      `The same \`functionDeclarations(toolset)\` call over a tool set of the corpus tools \`buildToolSet\` accepts (${count} of ${ctx.corpus.tools.length}), from the build as shipped and from the benchmark's own second build, in which \`proveContract\` (src/json/contract.ts) is compiled out; CPU time in interleaved rounds, the ratio per round. In json mode each declaration is proven against the FunctionDeclaration validator; in openapi mode the converted parameter Schema is proven against the Schema validator too.${convertible.left.length > 0 ? ` The openapi rows leave out the ${convertible.left.length} tools whose inputSchema the converter refuses (the call throws for the whole set otherwise): ${convertible.left.join(', ')}.` : ''}`,
    ],
  };
}
