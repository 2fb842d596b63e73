/**
 * Every request built over the whole corpus fits (issue 31 item 2), fast tier: geminiTools over
 * bench/corpus/tools.json (every tool of every server in one tool set) for each dialect and schema
 * mode, each request checked by checkRequest against the limits of its dialect; the negative
 * control builds the same without the budget and breaks them.
 */
import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../bench/corpus/format.js';
import type { ApiDialect } from '../../src/adapter/dialect.js';
import { resolveBudget } from '../../src/adapter/limits.js';
import type { SchemaMode } from '../../src/adapter/shapes.js';
import { type DeclarationWarning, geminiTools } from '../../src/adapter/tools/declarations.js';
import { isBudgetWarning } from '../../src/adapter/tools/fit.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import { checkRequest } from '../../src/adapter/turn/request-checks.js';

const corpus = readCorpus();
const { toolset } = buildToolSet(
  corpus.servers.map((server) => ({
    serverId: server.name.replace(/^@/, '').replace(/[^A-Za-z0-9_-]+/g, '-'),
    tools: server.tools,
  })),
);
const DIALECTS: readonly ApiDialect[] = ['gemini', 'vertex-v1', 'vertex-v1beta1'];

/** The request of one turn: the user's message and the tools. */
const request = (tools: unknown[]) => ({
  contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
  tools,
});

describe('issue 31 item 2: every request built over the corpus fits its dialect', () => {
  it('issue 31 item 2: the corpus is the whole of bench/corpus/tools.json', () => {
    expect(corpus.toolCount).toBeGreaterThan(2000);
    expect(corpus.servers.length).toBeGreaterThan(30);
    expect(toolset.entries.length).toBeGreaterThan(2000);
  });

  for (const schemaMode of ['json', 'openapi'] as const satisfies readonly SchemaMode[]) {
    for (const dialect of DIALECTS) {
      it(`issue 31 item 2: ${schemaMode} declarations for ${dialect}: the request passes every limit; every tool left out is reported`, () => {
        const declared = new Set<string>();
        let reported = 0;
        const onWarning = (warning: DeclarationWarning): void => {
          if (isBudgetWarning(warning)) reported++;
        };
        const tools = geminiTools(toolset, { schemaMode, budget: { dialect }, onWarning });
        for (const declaration of tools[0]?.functionDeclarations ?? [])
          declared.add(declaration.name);
        const errors = checkRequest(request(tools), { budget: { dialect }, toolset }).filter(
          (finding) => finding.severity === 'error',
        );
        expect(errors).toEqual([]);
        expect(declared.size).toBeGreaterThan(10);
        // every tool is declared or reported (conversion refusals aside, openapi only)
        if (schemaMode === 'json') expect(declared.size + reported).toBe(toolset.entries.length);
      });
    }
  }

  it('issue 31 item 2 (negative control): without the budget the same request breaks the limits of every dialect', () => {
    const tools = geminiTools(toolset, { budget: false });
    expect(tools[0]?.functionDeclarations.length).toBe(toolset.entries.length);
    for (const dialect of DIALECTS) {
      const rules = new Set(
        checkRequest(request(tools), { budget: { dialect } })
          .filter((finding) => finding.severity === 'error')
          .map((finding) => finding.keyword),
      );
      expect(rules, dialect).toContain('request/declarations-per-request');
      expect(rules, dialect).toContain('request/request-declaration-bytes');
      expect(rules, dialect).toContain('request/schema-depth');
      expect(toolset.entries.length).toBeGreaterThan(resolveBudget({ dialect }).maxDeclarations);
    }
  });
});
