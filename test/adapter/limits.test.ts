/**
 * What the API enforces beyond its schemas (issue 31 items 1, 2, 5, 6), fast tier: the limits data
 * and its sources, the budget per dialect, the checks of one declaration, the choice of what fits,
 * checkRequest's findings with server and tool, the reserved namespace, sampling within budget.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  declarationProblems,
  measureDeclaration,
  resolveBudget,
} from '../../src/adapter/limits.js';
import { samplingRequest } from '../../src/adapter/sampling/request.js';
import {
  type DeclarationWarning,
  functionDeclarations,
  geminiTools,
} from '../../src/adapter/tools/declarations.js';
import { type BudgetWarning, isBudgetWarning } from '../../src/adapter/tools/fit.js';
import {
  EXPOSED_NAME_PATTERN,
  isReservedName,
  RESERVED_PREFIX,
} from '../../src/adapter/tools/names.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import { functionCalls } from '../../src/adapter/turn/calls.js';
import { checkRequest } from '../../src/adapter/turn/request-checks.js';
import { GeminiMcpError } from '../../src/errors.js';
import { API_LIMITS } from '../../src/generated/limits.js';
import { tool } from './helpers.js';

const root = join(import.meta.dirname, '..', '..');

/** A tool whose input schema nests `levels` object levels below its root. */
function nested(name: string, levels = 1) {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { x: schema } };
  return tool(name, { inputSchema: schema as never });
}

function budgetWarnings(run: (onWarning: (w: DeclarationWarning) => void) => void) {
  const warnings: BudgetWarning[] = [];
  run((warning) => {
    if (isBudgetWarning(warning)) warnings.push(warning);
  });
  return warnings;
}

describe('issue 31 item 1: the limits, as cited data', () => {
  const ids = Object.keys(API_LIMITS);

  it('issue 31 item 1: every limit the issue names is recorded, per dialect, with its scope and sources', () => {
    expect(ids).toEqual(
      expect.arrayContaining([
        'declarations-per-request',
        'function-declarations-not-empty',
        'function-name',
        'parameter-name',
        'schema-depth',
        'object-properties-not-empty',
        'enum-strings',
        'parameters-exclusive',
        'declaration-bytes',
        'request-declaration-bytes',
      ]),
    );
    for (const [id, limit] of Object.entries(API_LIMITS)) {
      expect(Object.keys(limit.value).sort(), id).toEqual([
        'gemini',
        'vertex-v1',
        'vertex-v1beta1',
      ]);
      expect(limit.scope, id).toMatch(/\S/);
      expect(limit.sources.length, id).toBeGreaterThan(0);
      for (const source of limit.sources) {
        // a reference the synced revision still states, or a tracker cited as owner/repo #N
        if (source.kind === 'reference') expect(source.found, `${id} ${source.at}`).toBe(true);
        else expect(source.cite, id).toMatch(/\S/);
      }
    }
  });

  it('issue 31 item 5: each limit keeps the scope its source states (512 and 128 on Tool.functionDeclarations)', () => {
    const count = API_LIMITS['declarations-per-request'];
    expect(count.scope).toBe('Tool.functionDeclarations');
    expect(count.value).toEqual({ gemini: 512, 'vertex-v1': 128, 'vertex-v1beta1': 128 });
    expect(count.applied).toContain('never splits declarations over several Tools');
    expect(API_LIMITS['parameter-name'].scope).toBe('FunctionDeclaration.parameters');
  });

  it('issue 31 item 1: the safe function name is the exposed-name pattern; the size budget is the cited estimate', () => {
    expect(API_LIMITS['function-name'].value.gemini).toBe(EXPOSED_NAME_PATTERN.source);
    expect(API_LIMITS['request-declaration-bytes'].value.gemini).toBe(49_152);
    const cited = API_LIMITS['request-declaration-bytes'].sources.map((s) =>
      'cite' in s ? s.cite : '',
    );
    expect(cited).toContain('receptron/MulmoChat #123');
    expect(cited).toContain('bethington/ghidra-mcp #440');
  });

  it('issue 31 item 1: the README says what the API enforces beyond its schema: every limit, its values and sources', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const start = readme.indexOf('### What the API enforces beyond its schemas');
    const section = readme.slice(start, readme.indexOf('\n### ', start + 1));
    const rows = new Map(
      section
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .map((line) => [/^\| `([^`]+)`/.exec(line)![1]!, line] as const),
    );
    expect([...rows.keys()].sort()).toEqual(Object.keys(API_LIMITS).sort());
    const shown = (value: unknown): string =>
      typeof value === 'number' ? value.toLocaleString('en-US') : String(value);
    for (const [id, limit] of Object.entries(API_LIMITS)) {
      const row = rows.get(id)!;
      const [, gemini, vertex] = row.split(' | ');
      if (limit.value.gemini !== true) expect(gemini, id).toContain(shown(limit.value.gemini));
      if (typeof limit.value['vertex-v1'] === 'number') {
        expect(vertex, id).toContain(shown(limit.value['vertex-v1']));
      }
      for (const source of limit.sources) {
        if (source.kind === 'api-error') {
          const [repo, number] = source.cite.split(' ');
          expect(row, `${id}: ${source.cite}`).toContain(repo!.split('/').at(-1)!);
          expect(row, `${id}: ${source.cite}`).toContain(number!);
        }
      }
    }
  });

  it('issue 31 item 1: schemas/limits.json is in the manifest with its sha256 and gives src/generated/limits.ts', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'schemas', 'manifest.json'), 'utf8'));
    expect(manifest.limits).toMatchObject({ file: 'limits.json' });
    const limits = JSON.parse(readFileSync(join(root, 'schemas', 'limits.json'), 'utf8'));
    expect(limits.limits).toEqual(JSON.parse(JSON.stringify(API_LIMITS)));
  });
});

describe('issue 31 item 2: the budget per dialect', () => {
  it('issue 31 item 2: resolves each dialect and takes overrides; a bad figure is a typed INVALID_INPUT', () => {
    expect(resolveBudget()).toMatchObject({
      dialect: 'gemini',
      maxDeclarations: 512,
      maxRequestBytes: 49_152,
      maxDeclarationBytes: 49_152,
      maxDepth: 7,
    });
    expect(resolveBudget({ dialect: 'vertex' }).maxDeclarations).toBe(128);
    expect(resolveBudget({ dialect: 'vertex-v1', maxRequestBytes: 1e6 }).maxRequestBytes).toBe(1e6);
    expect(resolveBudget({ maxDeclarations: Number.POSITIVE_INFINITY }).maxDeclarations).toBe(
      Number.POSITIVE_INFINITY,
    );
    for (const bad of [0, -1, 1.5, Number.NaN, '10']) {
      const attempt = () => resolveBudget({ maxDepth: bad as number });
      expect(attempt).toThrow(GeminiMcpError);
      try {
        attempt();
      } catch (error) {
        expect(error).toMatchObject({ code: 'INVALID_INPUT', path: '/maxDepth' });
      }
    }
  });

  it('issue 31 item 1: measures a declaration in bytes and JSON levels of its schemas', () => {
    const declaration = {
      name: 'f',
      description: '',
      parametersJsonSchema: { type: 'object', properties: { a: { type: 'array', items: {} } } },
    };
    expect(measureDeclaration(declaration)).toEqual({
      bytes: Buffer.byteLength(JSON.stringify(declaration)),
      depth: 4,
      deepest: '/parametersJsonSchema/properties/a/items',
    });
  });

  it('issue 31 item 1: one declaration checked against every per-declaration limit, with pointers', () => {
    const budget = resolveBudget();
    const problems = declarationProblems(
      {
        name: 'files.read',
        description: '',
        parameters: {
          type: 'OBJECT',
          properties: {
            'a-b': { type: 'STRING', enum: ['x', 1] },
            meta: { type: 'OBJECT' },
            nested: { type: 'OBJECT', properties: { 'c.d': { type: 'STRING' } } },
          },
        },
      },
      budget,
    );
    expect(problems.map(({ rule, severity, path }) => [rule, severity, path])).toEqual(
      expect.arrayContaining([
        ['function-name', 'warning', '/name'],
        ['parameter-name', 'error', '/parameters/properties/a-b'],
        ['parameter-name', 'warning', '/parameters/properties/nested/properties/c.d'],
        ['object-properties-not-empty', 'error', '/parameters/properties/meta'],
        ['enum-strings', 'error', '/parameters/properties/a-b/enum/1'],
      ]),
    );
    expect(
      declarationProblems({ name: '9-lives', description: '' }, budget).map((p) => p.severity),
    ).toEqual(['error']);
    const deep = declarationProblems(
      functionDeclarations(
        buildToolSet([{ serverId: 's', tools: [nested('deep', 5)] }]).toolset,
      )[0],
      budget,
    );
    expect(deep.map((p) => p.rule)).toEqual(['schema-depth']);
  });
});

describe('issue 31 item 2: geminiTools fits the budget; what does not fit is chosen and reported', () => {
  const set = buildToolSet([
    { serverId: 'a', tools: [nested('a1'), nested('deep', 6), nested('a2')] },
    { serverId: 'b', tools: [nested('b1'), nested('b2'), nested('b3')] },
  ]).toolset;

  it('issue 31 item 2: keeps tool-set order, leaves out what breaks a limit, then what the count leaves no room for', () => {
    const warnings = budgetWarnings((onWarning) => {
      const tools = geminiTools(set, { budget: { maxDeclarations: 3 }, onWarning });
      expect(tools[0]?.functionDeclarations.map((d) => d.name)).toEqual(['a1', 'a2', 'b1']);
    });
    expect(warnings.map((w) => [w.code, w.serverId, w.toolName, w.data?.rule])).toEqual([
      ['TOOL_OVER_LIMIT', 'a', 'deep', 'schema-depth'],
      ['TOOL_OVER_BUDGET', 'b', 'b2', 'declarations-per-request'],
      ['TOOL_OVER_BUDGET', 'b', 'b3', 'declarations-per-request'],
    ]);
    expect(warnings[0]?.path).toMatch(/^\/parametersJsonSchema\/properties\/x/);
  });

  it('issue 31 item 2: a declaration too large for the rest of the request is skipped; smaller ones after it still fit', () => {
    const sizes = buildToolSet([
      {
        serverId: 's',
        tools: [tool('small1'), tool('big', { description: 'x'.repeat(3000) }), tool('small2')],
      },
    ]).toolset;
    const [small] = functionDeclarations(sizes);
    const room = 2 * measureDeclaration(small!).bytes + 10;
    const warnings = budgetWarnings((onWarning) => {
      const tools = geminiTools(sizes, { budget: { maxRequestBytes: room }, onWarning });
      expect(tools[0]?.functionDeclarations.map((d) => d.name)).toEqual(['small1', 'small2']);
    });
    expect(warnings.map((w) => [w.toolName, w.data?.rule])).toEqual([
      ['big', 'request-declaration-bytes'],
    ]);
  });

  it('issue 31 item 2: budget false declares everything (as before); functionDeclarations is every declaration', () => {
    expect(geminiTools(set, { budget: false })[0]?.functionDeclarations).toHaveLength(6);
    expect(functionDeclarations(set)).toHaveLength(6);
  });

  it('issue 31 item 2: sampling declares a request’s tools within the budget of its dialect', () => {
    const request = samplingRequest(
      {
        messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
        maxTokens: 10,
        tools: Array.from({ length: 130 }, (_, i) => tool(`t${i}`)),
      },
      { serverId: 'srv', dialect: 'vertex-v1' },
    );
    expect(request.tools[0]?.functionDeclarations).toHaveLength(128);
    const over = request.warnings.filter(
      (w) => (w.data?.warning as { code?: string } | undefined)?.code === 'TOOL_OVER_BUDGET',
    );
    expect(over.map((w) => w.code)).toEqual(['TOOL_CHANGED', 'TOOL_CHANGED']);
  });
});

describe('issue 31 item 1: checkRequest checks the limits and names server and tool', () => {
  const toolset = buildToolSet([
    {
      serverId: 'fs',
      tools: [
        tool('read_file', {
          inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
        }),
      ],
    },
  ]).toolset;

  it('issue 31 item 1: 600 declarations, a property named a-b, an over-budget schema: each with pointer, server and tool', () => {
    const declarations = [
      {
        name: 'read_file',
        description: '',
        parameters: { type: 'OBJECT', properties: { 'a-b': { type: 'STRING' } } },
      },
      ...Array.from({ length: 599 }, (_, i) => ({ name: `fn_${i}`, description: '' })),
    ];
    declarations[1] = { name: 'fn_0', description: 'x'.repeat(60_000) } as never;
    const findings = checkRequest(
      {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        tools: [{ functionDeclarations: declarations }],
      },
      { toolset },
    );
    const by = (keyword: string) => findings.filter((f) => f.keyword === keyword);
    expect(by('request/declarations-per-request')).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: '/tools/0/functionDeclarations/512',
        declaration: 'fn_511',
      }),
    ]);
    expect(by('request/declarations-per-request')[0]?.message).toContain(
      '600 function declarations',
    );
    expect(by('request/parameter-name')).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: '/tools/0/functionDeclarations/0/parameters/properties/a-b',
        declaration: 'read_file',
        serverId: 'fs',
        toolName: 'read_file',
      }),
    ]);
    expect(by('request/declaration-bytes')[0]).toMatchObject({
      path: '/tools/0/functionDeclarations/1',
      declaration: 'fn_0',
    });
    expect(by('request/request-declaration-bytes')[0]).toMatchObject({
      path: '/tools/0/functionDeclarations/1',
    });
  });

  it('issue 31 item 1: an empty functionDeclarations list, and the Vertex AI count', () => {
    const findings = checkRequest(
      {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        tools: [
          { functionDeclarations: [] },
          {
            functionDeclarations: Array.from({ length: 129 }, (_, i) => ({
              name: `f${i}`,
              description: '',
            })),
          },
        ],
      },
      { budget: { dialect: 'vertex-v1beta1' } },
    );
    expect(findings.map((f) => [f.keyword, f.path])).toEqual([
      ['request/function-declarations-not-empty', '/tools/0/functionDeclarations'],
      ['request/declarations-per-request', '/tools/1/functionDeclarations/128'],
    ]);
  });
});

describe('issue 31 item 6: the reserved namespace', () => {
  it('issue 31 item 6: no exposed name starts with gmk__; a tool named so is exposed under its server', () => {
    expect(RESERVED_PREFIX).toBe('gmk__');
    const { toolset, warnings } = buildToolSet([
      { serverId: 'evil', tools: [tool('gmk__search_tools'), tool('GMK__read')] },
      { serverId: 'ok', tools: [tool('search')] },
    ]);
    const names = toolset.entries.map((entry) => entry.exposedName);
    expect(names).toEqual(['evil__gmk__search_tools', 'evil__GMK__read', 'search']);
    expect(names.some(isReservedName)).toBe(false);
    expect(warnings.filter((w) => w.code === 'TOOL_SHADOWS').map((w) => w.message)).toEqual([
      expect.stringContaining("gemini-mcp-kit's reserved prefix (gmk__)"),
      expect.stringContaining("gemini-mcp-kit's reserved prefix (gmk__)"),
    ]);
    const never = buildToolSet([{ serverId: 'evil', tools: [tool('gmk__x'), tool('y')] }], {
      prefix: 'never',
    });
    expect(never.toolset.entries.map((entry) => entry.exposedName)).toEqual(['y']);
  });

  it('issue 31 item 6: a server id that takes the namespace is refused', () => {
    for (const serverId of ['gmk', 'GMK', 'gmk__x']) {
      expect(() => buildToolSet([{ serverId, tools: [] }])).toThrow(GeminiMcpError);
    }
    expect(() => buildToolSet([{ serverId: 'gmk-tools', tools: [] }])).not.toThrow();
  });

  it('issue 31 item 6: a call to a reserved name never resolves to a server tool', () => {
    const { toolset } = buildToolSet([{ serverId: 'evil', tools: [tool('gmk__search_tools')] }]);
    const read = functionCalls(
      [{ functionCall: { name: 'gmk__search_tools', args: {} } }],
      toolset,
    );
    expect(read.calls).toEqual([]);
    expect(read.rejected).toHaveLength(1);
  });
});
