/** P3: toGeminiSchema vs the Vercel AI SDK's Gemini schema converter over the corpus. */
import { loadAiSdkConverter } from '../lib/ai-sdk-converter.js';
import { compare, measured, ratioOf } from '../lib/compare.js';
import type { BenchContext } from '../lib/context.js';
import { allTools } from '../lib/corpus.js';
import { type Figure, ratioCheck, rowOf } from '../lib/report.js';

export async function p3(ctx: BenchContext): Promise<Figure> {
  const count = ctx.quick ? 200 : 1000;
  const { toGeminiSchema } = ctx.lib;
  const schemas = allTools(ctx.corpus(count)).map((tool) => tool.inputSchema);
  const aiSdk = loadAiSdkConverter();
  const names = {
    ours: `toGeminiSchema (${count} inputSchemas)`,
    oursOff: `toGeminiSchema, contract checks off (${count} inputSchemas)`,
    aiSdk: `@ai-sdk/google ${aiSdk.version} convertJSONSchemaToOpenAPISchema (${count} inputSchemas)`,
  };
  const convertAll = (): unknown[] => schemas.map((schema) => toGeminiSchema(schema));
  ctx.log(`P3: ${count} schemas, toGeminiSchema vs @ai-sdk/google`);
  const result = await compare(
    [
      { name: names.ours, fn: convertAll },
      {
        name: names.oursOff,
        fn: () => schemas.map((schema) => ctx.lib.unchecked.toGeminiSchema(schema)),
      },
      { name: names.aiSdk, fn: () => schemas.map((schema) => aiSdk.convert(schema)) },
    ],
    ctx.inProcess,
  );
  return {
    id: 'P3',
    title: "toGeminiSchema vs the Vercel AI SDK's convertJSONSchemaToOpenAPISchema",
    rows: Object.values(names).map((name) => rowOf(measured(result, name))),
    checks: [
      ratioCheck(
        `toGeminiSchema / AI SDK converter, ${count} schemas`,
        ratioOf(result, names.ours, names.aiSdk),
        { max: 1 },
        '<= 1',
      ),
      ratioCheck(
        `toGeminiSchema with checks off / AI SDK converter, ${count} schemas`,
        ratioOf(result, names.oursOff, names.aiSdk),
        {},
        'none (information)',
      ),
    ],
    method: [
      `Both convert the \`inputSchema\` of each of the ${count} corpus tools, one call per schema, as each provider does per tool. The anchor, @ai-sdk/google ${aiSdk.version}'s \`convertJSONSchemaToOpenAPISchema\`, is not exported by the package (its \`.\` and \`./internal\` entries export only model classes and tool factories), so bench/lib/ai-sdk-converter.ts takes its module section out of the installed \`${aiSdk.source}\` unchanged and compiles it, with its one import (\`UnsupportedFunctionalityError\` from the provider's own @ai-sdk/provider) passed in: the code measured is the code the provider runs.`,
      'What each side does: the AI SDK converter copies type/description/required/format/enum/properties/items/anyOf/allOf/oneOf/minLength, inlines `$defs` references and nothing else: no output check, no loss report, no limits. toGeminiSchema surveys the schema (depth, size, `$ref` budget), converts every keyword Gemini takes (bounds, nullable, propertyOrdering, formats, ...), reports each loss with its JSON pointer, and proves the result against the vendored Schema validator (the second row shows it without that proof).',
      "The corpus holds the real servers' schemas only: zod-generated objects with `$schema` and `additionalProperties`, nested objects and arrays, enums, defaults; these servers publish no `$ref`.",
    ],
  };
}
