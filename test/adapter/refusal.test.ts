/**
 * traceRefusal (issue 31 items 4 and 7), fast tier: every refusal of the corpus of the API's real
 * error texts (test/fixtures/refusals/api-errors.json) is parsed to its declaration, its server and
 * tool, or to what it is (too many declarations, a schema error naming none, not about them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import { traceRefusal } from '../../src/adapter/turn/refusal.js';

interface Fixture {
  cite: string;
  dialect: string;
  model?: string;
  thrown: { status?: number; body?: unknown; message?: string };
  request: {
    declarations: number;
    names?: Record<string, string>;
    parameters?: 'openapi';
    properties?: string[];
  };
  expect: {
    kind: string | null;
    limit?: number;
    rule?: string;
    declarations: { index: number; name?: string; path: string }[];
  };
}

const corpus = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'refusals', 'api-errors.json'), 'utf8'),
) as { refusals: Fixture[] };

/** What a client throws: @google/genai's ApiError (status, the body as its message), or a message. */
function thrown(fixture: Fixture): unknown {
  const { status, body, message } = fixture.thrown;
  const error = new Error(body === undefined ? message : JSON.stringify(body));
  if (body !== undefined) error.name = 'ApiError';
  return status === undefined ? error : Object.assign(error, { status });
}

/** The request the fixture describes: fn_0, fn_1, ... with the given names, in one Tool. */
function requestOf(fixture: Fixture) {
  const { declarations, names = {}, parameters, properties } = fixture.request;
  const keys = properties ?? Array.from({ length: 20 }, (_, i) => `p${i}`);
  return {
    tools: [
      {
        functionDeclarations: Array.from({ length: declarations }, (_, index) => ({
          name: names[String(index)] ?? `fn_${index}`,
          description: '',
          ...(parameters === 'openapi'
            ? {
                parameters: {
                  type: 'OBJECT',
                  properties: Object.fromEntries(keys.map((key) => [key, { type: 'STRING' }])),
                },
              }
            : { parametersJsonSchema: { type: 'object' } }),
        })),
      },
    ],
  };
}

/** The tool set the request was built from: each declaration a tool of server `srv`. */
function toolsetOf(fixture: Fixture) {
  const request = requestOf(fixture);
  const unique = [
    ...new Set(request.tools[0]!.functionDeclarations.map((declaration) => declaration.name)),
  ];
  return buildToolSet([
    { serverId: 'srv', tools: unique.map((name) => ({ name, inputSchema: { type: 'object' } })) },
  ]).toolset;
}

describe('traceRefusal: the corpus of the API’s refusals', () => {
  it('holds every refusal the limits cite, and more than 25 texts in all', () => {
    expect(corpus.refusals.length).toBeGreaterThan(25);
    const cites = new Set(corpus.refusals.map((fixture) => fixture.cite));
    for (const cite of [
      'google-gemini/gemini-cli #19083',
      'google-gemini/gemini-cli #5923',
      'zereight/gitlab-mcp #223',
      'bethington/ghidra-mcp #440',
      'agno-agi/agno #2112',
      'anomalyco/opencode #12784',
    ]) {
      expect(cites, cite).toContain(cite);
    }
  });

  for (const fixture of corpus.refusals) {
    const label = `${fixture.cite}${fixture.model ? ` (${fixture.model})` : ''}: ${fixture.expect.kind ?? 'not a refusal'}`;
    it(`issue 31 item 4: ${label}`, () => {
      const toolset = toolsetOf(fixture);
      const refusal = traceRefusal(thrown(fixture), requestOf(fixture), toolset);
      if (fixture.expect.kind === null) {
        expect(refusal).toBeUndefined();
        return;
      }
      expect(refusal?.kind).toBe(fixture.expect.kind);
      expect(refusal?.limit).toBe(fixture.expect.limit);
      expect(refusal?.rule).toBe(fixture.expect.rule);
      expect(refusal?.message.length).toBeGreaterThan(10);
      const request = requestOf(fixture);
      expect(refusal?.declarations.map(({ index, path, name }) => ({ index, path, name }))).toEqual(
        fixture.expect.declarations.map(({ index, path, name }) => ({
          index,
          path,
          name: name ?? request.tools[0]!.functionDeclarations[index]!.name,
        })),
      );
      for (const declaration of refusal?.declarations ?? []) {
        // mapped back to its server and tool, with the API's words about it
        expect(declaration.serverId).toBe('srv');
        expect(toolset.exposedName('srv', declaration.toolName!)).toBe(declaration.name);
        expect(declaration.reasons[0]?.length).toBeGreaterThan(10);
      }
    });
  }
});

describe('traceRefusal: what is not a refusal of declarations', () => {
  it('issue 31 item 4: a network error, a 500 and a 429 are no refusal', () => {
    const request = { tools: [] };
    expect(traceRefusal(new TypeError('fetch failed'), request)).toBeUndefined();
    const server = Object.assign(new Error('{"error":{"code":500,"message":"Internal error"}}'), {
      status: 500,
    });
    expect(traceRefusal(server, request)).toBeUndefined();
    expect(traceRefusal({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } }, request)).toBe(
      undefined,
    );
  });

  it('issue 31 item 7: a schema refusal of a request without declarations is about something else', () => {
    const error = Object.assign(new Error('Request contains an invalid argument.'), {
      status: 400,
    });
    expect(traceRefusal(error, { tools: [] })?.kind).toBe('other');
  });

  it('issue 31 item 4: a body given as an object, and a hostile message, are read within bounds', () => {
    const body = {
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: `* GenerateContentRequest.tools[0].function_declarations[1].name: bad\n${'x'.repeat(500_000)}`,
      },
    };
    const started = performance.now();
    const refusal = traceRefusal(body, {
      tools: [{ functionDeclarations: [{ name: 'a' }, { name: 'b' }] }],
    });
    expect(refusal?.declarations.map((d) => d.name)).toEqual(['b']);
    expect(refusal!.message.length).toBeLessThan(2100);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
