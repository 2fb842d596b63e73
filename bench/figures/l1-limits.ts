/**
 * L1 (issue 31): every request built over the corpus fits the API's limits. For each dialect and
 * schema mode, `geminiTools` builds the request of each server alone and of all servers together
 * (the built package, as users run it), and `checkRequest` checks each against the limits of its
 * dialect; the negative control builds the same without the budget.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchContext } from '../lib/context.js';
import type { Figure, Row } from '../lib/report.js';

type Declarations = typeof import('../../src/adapter/tools/declarations.js');
type Checks = typeof import('../../src/adapter/turn/request-checks.js');

const DIALECTS = ['gemini', 'vertex-v1', 'vertex-v1beta1'] as const;
const MODES = ['json', 'openapi'] as const;
/** The codes of the tools a request leaves out (BudgetWarning). */
const budgetCodes = new Set(['TOOL_OVER_LIMIT', 'TOOL_OVER_BUDGET', 'TOOL_REFUSED']);

export async function l1Limits(ctx: BenchContext): Promise<Figure> {
  const load = async <T>(path: string): Promise<T> =>
    (await import(pathToFileURL(join(ctx.lib.dist, path)).href)) as T;
  const { geminiTools } = await load<Declarations>('adapter/tools/declarations.js');
  const { checkRequest } = await load<Checks>('adapter/turn/request-checks.js');
  const sets = [
    ...ctx.corpus.servers.map((server) => [server]),
    ctx.corpus.servers, // every server in one tool set
  ].map((servers) => ctx.lib.buildToolSet(servers).toolset);
  ctx.log(`L1: ${sets.length} tool sets x ${DIALECTS.length} dialects x ${MODES.length} modes`);
  const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
  const fits = (tools: unknown[], dialect: string): boolean =>
    checkRequest({ contents, tools }, { budget: { dialect: dialect as never } }).every(
      (finding) => finding.severity !== 'error',
    );
  const rows: Row[] = [];
  let built = 0;
  let fitting = 0;
  let controlFitting = 0;
  for (const dialect of DIALECTS) {
    for (const schemaMode of MODES) {
      let fit = 0;
      let declared = 0;
      let leftOut = 0;
      let control = 0;
      for (const toolset of sets) {
        const tools = geminiTools(toolset, {
          schemaMode,
          budget: { dialect },
          onWarning: (warning) => {
            if (budgetCodes.has(warning.code)) leftOut++;
          },
        });
        declared += tools[0]?.functionDeclarations.length ?? 0;
        if (fits(tools, dialect)) fit++;
        if (fits(geminiTools(toolset, { schemaMode, budget: false }), dialect)) control++;
      }
      built += sets.length;
      fitting += fit;
      controlFitting += control;
      rows.push({
        label: `${dialect}, ${schemaMode}: requests that fit (without the budget)`,
        value: `${fit} / ${sets.length} (${control} / ${sets.length})`,
        samples: `${declared} declarations declared, ${leftOut} tools left out and reported`,
      });
    }
  }
  const share = (n: number): string => `${((100 * n) / built).toFixed(1)}%`;
  return {
    id: 'L1',
    title: "Requests built over the corpus fit the API's limits (issue 31)",
    rows,
    checks: [
      {
        label: 'requests built by geminiTools that pass every limit of their dialect',
        value: share(fitting),
        spread: `${fitting} of ${built} requests`,
        target: '100%',
        met: fitting === built,
      },
      {
        label: 'the same requests without the budget (negative control)',
        value: share(controlFitting),
        spread: `${controlFitting} of ${built} requests`,
        target: 'none (reported)',
        met: undefined,
      },
    ],
    method: [
      `The request of each corpus server alone (${sets.length - 1}) and of all of them in one tool set, for each dialect (Gemini API, Vertex AI v1, v1beta1) and schema mode (json, openapi): \`geminiTools\` of the built package with the dialect's budget, then \`checkRequest\` with that dialect's limits (schemas/limits.json); a request fits when it has no error finding. The control is the same request with \`budget: false\`.`,
    ],
  };
}
