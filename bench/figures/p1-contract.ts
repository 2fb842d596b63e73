/** P1: what proving every declaration against the contract costs. */
import { compare, measured, ratioOf } from '../lib/compare.js';
import type { BenchContext } from '../lib/context.js';
import { type Figure, ratioCheck, rowOf } from '../lib/report.js';

export async function p1(ctx: BenchContext): Promise<Figure> {
  const { lib } = ctx;
  const { functionDeclarations } = lib;
  const count = ctx.quick ? 200 : 1000;
  const { toolset } = lib.buildToolSet(ctx.corpus(count));
  const names = {
    on: `functionDeclarations, checks on (${count} tools, json)`,
    off: `functionDeclarations, checks off (${count} tools, json)`,
    onOpenApi: `functionDeclarations, checks on (${count} tools, openapi)`,
    offOpenApi: `functionDeclarations, checks off (${count} tools, openapi)`,
  };
  const openapi = { schemaMode: 'openapi' } as const;
  ctx.log(`P1: ${count} tools, contract checks on vs off`);
  const result = await compare(
    [
      { name: names.on, fn: () => functionDeclarations(toolset) },
      { name: names.off, fn: () => lib.unchecked.functionDeclarations(toolset) },
      { name: names.onOpenApi, fn: () => functionDeclarations(toolset, openapi) },
      {
        name: names.offOpenApi,
        fn: () => lib.unchecked.functionDeclarations(toolset, openapi),
      },
    ],
    ctx.inProcess,
  );
  return {
    id: 'P1',
    title: 'contract checks: functionDeclarations with checks vs without',
    rows: Object.values(names).map((name) => rowOf(measured(result, name))),
    checks: [
      ratioCheck(
        `checks on / off, ${count} tools, default (json) mode`,
        ratioOf(result, names.on, names.off),
        { max: 1.25 },
        '<= 1.25',
      ),
      ratioCheck(
        `checks on / off, ${count} tools, openapi mode (declaration and converted Schema proven)`,
        ratioOf(result, names.onOpenApi, names.offOpenApi),
        { max: 1.25 },
        '<= 1.25',
      ),
    ],
    method: [
      `The same \`functionDeclarations(toolset)\` call over a tool set of ${count} real-shaped tools, from the build as shipped and from the benchmark's own second build, in which \`proveContract\` (src/json/contract.ts) is compiled out. In json mode each declaration is proven against the FunctionDeclaration validator; in openapi mode the converted parameter Schema is proven against the Schema validator too.`,
    ],
  };
}
