/**
 * Issue 34 items 3, 4 and 8: the public API in tiers, and a light root. Each entry exports what
 * its tier holds and nothing else (the root about twenty values, no tuning constant anywhere);
 * every value has one home; `gemini-mcp-kit/genai` is the root, name for name. Importing the
 * built root (in a child process, as a user's program does) loads no transport, no
 * `node:child_process` or `node:http`, no JSON Schema compiler and no generated validator; each
 * loads with its first use.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import * as auth from '../src/auth.js';
import * as features from '../src/features.js';
import * as genai from '../src/genai.js';
import * as root from '../src/index.js';
import * as live from '../src/live.js';
import * as schemas from '../src/schemas.js';
import { ensureBuilt } from './cli/build.js';

const ROOT = join(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');

/** Each entry's values, as tier 3 of issue 34 places them. */
const TIERS = {
  '.': [
    'GeminiMcpError',
    'answerCalls',
    'buildToolSet',
    'connectServers',
    'executeToolCalls',
    'functionCalls',
    'functionDeclarations',
    'functionResponse',
    'gatherTurn',
    'geminiTools',
    'genaiGenerate',
    'genaiGenerateStream',
    'isToolError',
    'listAllTools',
    'mcpCallableTool',
    'parseServersConfig',
    'readServersConfig',
    'rejectionResponse',
    'runConversation',
    'toGeminiParameters',
    'toGeminiSchema',
    'toolSelection',
  ],
  './schemas': [
    'API_LIMITS',
    'SCHEMAS',
    'assertContent',
    'assertFunctionDeclaration',
    'assertGenerateContentRequest',
    'assertGenerateContentResponse',
    'assertMcpCallToolResult',
    'assertMcpTool',
    'assertPart',
    'assertTool',
    'checkContent',
    'checkFunctionDeclaration',
    'checkGenerateContentRequest',
    'checkGenerateContentResponse',
    'checkLiveBidiGenerateContentClientMessage',
    'checkMcpCallToolResult',
    'checkMcpTool',
    'checkPart',
    'checkRequest',
    'checkTool',
    'isBudgetWarning',
    'isReservedName',
    'readContent',
    'readGenerateContentResponse',
    'readLiveBidiGenerateContentServerMessage',
    'readMcpCallToolResult',
    'readMcpListToolsResult',
    'readMcpTool',
    'readPart',
    'resolveBudget',
    'traceRefusal',
  ],
  './auth': [
    'defaultTokenDir',
    'enterpriseAuthProvider',
    'fileTokenStore',
    'memoryTokenStore',
    'oauthFromConfig',
    'oauthProvider',
  ],
  './features': [
    'allowReadOnly',
    'chooseSamplingModel',
    'completePromptArgument',
    'completeResourceArgument',
    'composePolicies',
    'confirmDestructive',
    'confirmOpenWorld',
    'expandUriTemplate',
    'fieldProblem',
    'getPrompt',
    'listAllPrompts',
    'loadSkill',
    'modelByHints',
    'promptContents',
    'readSkillFile',
    'resourceParts',
    'samplingRequest',
    'samplingResult',
    'serveSampling',
  ],
  './live': ['liveTools'],
} as const;

const MODULES: Record<keyof typeof TIERS, Record<string, unknown>> = {
  '.': root,
  './schemas': schemas,
  './auth': auth,
  './features': features,
  './live': live,
};

const sorted = (names: Iterable<string>): string[] => [...names].sort();

describe('issue 34: the public API in tiers', () => {
  it('each entry exports the values of its tier, and the root stays near twenty', () => {
    for (const [entry, values] of Object.entries(TIERS)) {
      expect(sorted(Object.keys(MODULES[entry as keyof typeof TIERS])), entry).toEqual(
        sorted(values),
      );
    }
    expect(TIERS['.'].length).toBeLessThanOrEqual(22);
  });

  it('every value has one home: no value is exported by two entries', () => {
    const homes = new Map<string, string[]>();
    for (const [entry, values] of Object.entries(TIERS)) {
      for (const name of values) homes.set(name, [...(homes.get(name) ?? []), entry]);
    }
    expect([...homes].filter(([, entries]) => entries.length > 1)).toEqual([]);
  });

  it('no entry exports a tuning constant: every value is a function or a class, but the data of /schemas (SCHEMAS, API_LIMITS)', () => {
    for (const [entry, module] of Object.entries(MODULES)) {
      const notFunctions = Object.entries(module)
        .filter(([, value]) => typeof value !== 'function')
        .map(([name]) => `${entry} ${name}`)
        .sort();
      expect(notFunctions).toEqual(
        entry === './schemas' ? ['./schemas API_LIMITS', './schemas SCHEMAS'] : [],
      );
    }
  });

  it('package.json exports exactly the tiers (and ./genai), each to its built entry module', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, string | { types: string; default: string }>;
    };
    const entries = Object.entries(manifest.exports).filter(([key]) => key !== './package.json');
    expect(sorted(entries.map(([key]) => key))).toEqual(sorted([...Object.keys(TIERS), './genai']));
    for (const [key, target] of entries) {
      const name = key === '.' ? 'index' : key.slice(2);
      expect(target).toEqual({ types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` });
    }
  });

  it('every entry names its exports (no export *), and /genai exports every name the root does, types included', () => {
    const names = (entry: string): string[] => {
      const file = join(ROOT, 'src', `${entry}.ts`);
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
      const found: string[] = [];
      for (const statement of source.statements) {
        if (ts.isExportDeclaration(statement)) {
          const clause = statement.exportClause;
          expect(
            clause,
            `${entry}.ts: export * from ${statement.moduleSpecifier?.getText(source)}`,
          ).toBeDefined();
          if (clause !== undefined && ts.isNamedExports(clause)) {
            found.push(...clause.elements.map((element) => element.name.text));
          } else if (clause !== undefined) found.push(clause.name.text);
        } else if (
          (ts.isFunctionDeclaration(statement) || ts.isInterfaceDeclaration(statement)) &&
          statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) &&
          statement.name !== undefined
        ) {
          found.push(statement.name.text);
        }
      }
      return sorted(found);
    };
    for (const entry of ['index', 'schemas', 'auth', 'features'])
      expect(names(entry)).not.toEqual([]);
    // The five functions it retypes are its own; its two result types are genai's alone.
    expect(names('genai')).toEqual(
      sorted([...names('index'), 'GenAiParametersResult', 'GenAiSchemaResult']),
    );
    expect(sorted(Object.keys(genai))).toEqual(sorted(Object.keys(root)));
  });
});

/** What importing `modules` (in order) in a fresh Node.js process loaded. */
interface Loaded {
  /** Node.js built-in modules (`child_process`, `http`, ...). */
  builtins: string[];
  /** Files, relative to the repository: every module V8 parsed, imported or required. */
  files: string[];
}

/**
 * A child process that imports each of `modules` (then runs `setup`, a statement, with the last
 * module's namespace as `m`) and prints what was loaded: the built-ins from
 * `process.moduleLoadList`, and every script V8 parsed as the inspector reports it (imported,
 * required, or imported by a required ES module alike).
 */
function loadedBy(modules: readonly string[], setup = ''): Loaded {
  const script = `
    import { Session } from 'node:inspector';
    const parsed = [];
    const session = new Session();
    session.connect();
    session.on('Debugger.scriptParsed', ({ params }) => parsed.push(params.url));
    session.post('Debugger.enable');
    let m;
    for (const file of ${JSON.stringify(modules)}) m = await import(file);
    ${setup}
    const builtins = process.moduleLoadList.filter((e) => e.startsWith('NativeModule ')).map((e) => e.slice(13));
    const files = parsed.filter((url) => url.startsWith('file:')).map((url) => new URL(url).pathname);
    process.stdout.write(JSON.stringify({ builtins, files }));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const loaded = JSON.parse(out) as Loaded;
  return {
    builtins: loaded.builtins,
    files: [...new Set(loaded.files.map((file) => file.slice(ROOT.length + 1)))],
  };
}

/** What the light root must not load at import: each loads when first needed. */
const HEAVY = [
  /^dist\/generated\/validators-/,
  /^dist\/runtime\/mcp\/transports\/(stdio|http|sse)\.js$/,
  /^dist\/runtime\/mcp\/auth\/(authorize|provider|loopback)\.js$/,
  /^dist\/runtime\/mcp\/features\/(sampling|elicitation|roots)\.js$/,
  /^dist\/runtime\/mcp\/config\/jsonc\.js$/,
  // gemini-mcp-kit/live is its own entry: the root never loads it.
  /^dist\/(live\.js|runtime\/live\/)/,
  /^node_modules\/jsonc-parser\//,
  /^node_modules\/@modelcontextprotocol\/sdk\/dist\/esm\/client\/(index|auth|stdio|sse|streamableHttp)\.js$/,
  /^node_modules\/@modelcontextprotocol\/client\//,
  /^node_modules\/@modelcontextprotocol\/sdk\/dist\/esm\/shared\/protocol\.js$/,
  /^node_modules\/@modelcontextprotocol\/sdk\/dist\/esm\/validation\//,
  // The v2 client, which connectServers speaks with, loads with the first connection.
  /^node_modules\/@modelcontextprotocol\/client\/dist\//,
  /^node_modules\/ajv\/dist\/(ajv|2019|2020)\.js$/,
  /^node_modules\/re2js\//,
];
const heavy = (loaded: Loaded): string[] => [
  ...loaded.builtins.filter((name) => ['child_process', 'crypto', 'http', 'https'].includes(name)),
  ...loaded.files.filter((file) => HEAVY.some((pattern) => pattern.test(file))),
];

describe('issue 34: a light root', () => {
  beforeAll(ensureBuilt, 300_000);

  it("importing the built root loads no transport, the SDK's client (its protocol layer and ajv build load with the first connection), node:child_process, node:http(s), node:crypto, schema compiler or validator", () => {
    const loaded = loadedBy([join(DIST, 'index.js')]);
    expect(loaded.files).toContain('dist/generated/guards-gemini.js');
    expect(heavy(loaded)).toEqual([]);
  });

  it("the probe sees what loads later: a tool declared loads its families, a stdio transport node:child_process, a connection the v2 SDK's client", () => {
    const declared = loadedBy(
      [join(DIST, 'index.js')],
      `const { toolset } = m.buildToolSet([{ serverId: 's', tools: [{ name: 't', inputSchema: { type: 'object', properties: { id: { type: 'string', pattern: '^[a-z]+$' } } } }] }]);
       m.functionDeclarations(toolset);
       m.functionCalls({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 't', args: { id: 'x' } } }] } }] }, toolset, { validateArgs: true });`,
    );
    expect(sorted(heavy(declared))).toEqual([
      'crypto',
      'dist/generated/validators-gemini.js',
      'dist/generated/validators-mcp.js',
      'node_modules/ajv/dist/2020.js',
      'node_modules/re2js/build/index.cjs',
    ]);
    const stdio = loadedBy([join(DIST, 'runtime', 'mcp', 'transports', 'stdio.js')]);
    expect(stdio.builtins).toContain('child_process');
    // A server that exits at once: the connection fails, after the SDK's client has loaded.
    const connecting = loadedBy(
      [join(DIST, 'index.js')],
      `await m.connectServers({ mcpServers: { s: { command: process.execPath, args: ['-e', ''] } } }).catch(() => undefined);`,
    );
    expect(connecting.files).toContain('node_modules/@modelcontextprotocol/client/dist/index.mjs');
  });

  it('a Vertex AI family loads with its dialect, the other family not', () => {
    const loaded = loadedBy(
      [join(DIST, 'index.js')],
      `m.functionResponse('t', { content: [{ type: 'text', text: 'hi' }] }, { dialect: 'vertex-v1' });`,
    );
    const validators = loaded.files.filter((file) => file.includes('validators-vertex-'));
    expect(sorted(validators)).toEqual([
      'dist/generated/validators-vertex-common.js',
      'dist/generated/validators-vertex-v1.js',
    ]);
  });

  it('where Node.js cannot require an ES module, a guard is NOT_AVAILABLE naming the versions that can', () => {
    const script = `import('${join(DIST, 'schemas.js')}').then((m) => { try { m.checkPart({ text: 'hi' }); } catch (e) { process.stdout.write(JSON.stringify({ code: e.code, message: e.message })); } });`;
    const child = spawnSync(
      process.execPath,
      ['--no-experimental-require-module', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    const thrown = JSON.parse(child.stdout) as { code: string; message: string };
    expect(thrown.code).toBe('NOT_AVAILABLE');
    expect(thrown.message).toMatch(/validators-gemini\.js .* Node\.js 20\.19, 22\.12 or later/);
  });
});
