/** `gemini-mcp-kit tools`, `answer` and `chat` as child processes, against real stdio MCP servers. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkContent,
  checkTool,
  checkVertexV1Beta1Content,
  checkVertexV1Beta1GenerateContentRequest,
  checkVertexV1Content,
} from '../../src/generated/guards.js';
import type { VertexV1Beta1GenerateContentRequest } from '../../src/generated/types.js';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini.js';
import { ensureBuilt } from './build.js';
import {
  EXAMPLE_SERVER,
  expectOneLine,
  FIXTURES,
  lines,
  ROOT,
  runCli,
  tempDir,
} from './helpers.js';

const RECORDED = join(ROOT, 'examples', 'recorded-turn.json');
const ODD = `odd=node ${join(FIXTURES, 'odd-server.mjs')}`;
const example = (name: string): string => `${name}=node ${EXAMPLE_SERVER}`;
const everything = `everything=node ${join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')} stdio`;

let dir: string;
let remove: () => void;
const file = (name: string, value: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

beforeAll(() => {
  ({ dir, remove } = tempDir());
});
afterAll(() => remove());

beforeAll(ensureBuilt, 300_000);

describe('tools', () => {
  it('with no server: the bundled example server; json prints the tools array, valid for a request', async () => {
    const run = await runCli(['tools']);
    expect(run.code, run.stderr).toBe(0);
    const tools = JSON.parse(run.stdout) as unknown[];
    expect(tools).toHaveLength(1);
    for (const tool of tools) expect(checkTool(tool)).toEqual([]);
    const names = (
      tools[0] as { functionDeclarations: { name: string }[] }
    ).functionDeclarations.map((d) => d.name);
    expect(names).toEqual(['hello', 'bitcoin_price']);
    expect(run.stderr).toBe('');
  });

  it('table: one row per tool with its title, the servers, the revision each is spoken to in, and "no warnings"', async () => {
    const run = await runCli(['tools', '--format', 'table']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^NAME +SERVER +TOOL +TITLE +PARAMETERS$/m);
    expect(run.stdout).toMatch(
      /^bitcoin_price +example +bitcoin_price +Bitcoin price +currency\*$/m,
    );
    expect(run.stdout).toContain(
      '2 tool(s) from 1 server(s): example (the bundled example server); schema mode json',
    );
    // The example server serves both revisions (the v2 server package): it answers the probe.
    expect(run.stdout).toMatch(/^revisions: example 2026-07-28 \(modern, stdio\)$/m);
    expect(run.stdout).toContain('no warnings');
  });

  it('every warning: tools left out, renames and why, sanitized descriptions, schema losses with pointers', async () => {
    const run = await runCli(['tools', '--server', ODD, '--schema-mode', 'openapi']);
    expect(run.code, run.stderr).toBe(0);
    const tools = JSON.parse(run.stdout);
    expect(checkTool(tools[0])).toEqual([]);
    const declarations = tools[0].functionDeclarations;
    expect(declarations.map((d: { name: string }) => d.name)).toEqual([
      'get_weather',
      'whisper',
      'shapes',
    ]);
    expect(declarations[2].parameters).toBeDefined();
    const warnings = lines(run.stderr);
    expect(warnings).toContainEqual(
      expect.stringMatching(/^warning: \[TOOL_INVALID\] odd\/broken: .*inputSchema/),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^warning: \[TOOL_RENAMED\] odd\/get weather: .*"get_weather" \(why: characters Gemini refuses/,
      ),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(/^warning: \[DESCRIPTION_SANITIZED\] odd\/whisper: .*2 invisible/),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^warning: \[SCHEMA_DROPPED\] odd\/shapes inputSchema# \(additionalProperties\)/,
      ),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^warning: \[SCHEMA_WEAKENED\] odd\/shapes inputSchema#\/properties\/shape \(oneOf\)/,
      ),
    );
  });

  it('issue 37: --run-on gemini: which servers move into Tool.mcpServers and why the others cannot', async () => {
    const config = file('run-on.json', {
      mcpServers: {
        local: { command: 'node', args: [EXAMPLE_SERVER] },
        weather: { type: 'http', url: 'https://weather.example.com/mcp' },
      },
    });
    const run = await runCli(['tools', '--config', config, '--run-on', 'gemini']);
    expect(run.code, run.stderr).toBe(0);
    const tools = JSON.parse(run.stdout) as Record<string, unknown>[];
    for (const tool of tools) expect(checkTool(tool)).toEqual([]);
    expect(tools[1]).toEqual({
      mcpServers: [
        { name: 'weather', streamableHttpTransport: { url: 'https://weather.example.com/mcp' } },
      ],
    });
    expect(run.stderr).toContain('run-on: local: on the client: stdio: a local process');
    expect(run.stderr).toContain('run-on: weather: on Gemini (Tool.mcpServers)');
  });

  it('issue 37: a stdio entry asking to run on Gemini is refused naming why, exit 2', async () => {
    const config = file('run-on-stdio.json', {
      mcpServers: { local: { command: 'node', args: [EXAMPLE_SERVER], runOn: 'gemini' } },
    });
    const run = await runCli(['tools', '--config', config]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('server "local" cannot run on Gemini (stdio: a local process');
  });

  it('json mode keeps the inputSchema as parametersJsonSchema (no schema losses)', async () => {
    const run = await runCli(['tools', '--server', ODD]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('SCHEMA_');
    expect(
      JSON.parse(run.stdout)[0].functionDeclarations[2].parametersJsonSchema.additionalProperties,
    ).toBe(false);
  });

  it('colliding names across servers (--config and --server together): server__tool, with the reason', async () => {
    const config = file('mcp.json', {
      mcpServers: { a: { command: 'node', args: [EXAMPLE_SERVER] } },
    });
    const run = await runCli([
      'tools',
      '--config',
      config,
      '--server',
      example('b'),
      '--format',
      'table',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^a__hello +a +hello/m);
    expect(run.stdout).toMatch(/^b__bitcoin_price +b +bitcoin_price/m);
    expect(run.stdout).toContain(
      '[TOOL_RENAMED] a/hello: Tool "hello" of server "a" is exposed as "a__hello" (why: 2 servers have a tool "hello")',
    );
  });

  it('--prefix never with a collision: the typed error as one line, exit 2', async () => {
    const run = await runCli([
      'tools',
      '--server',
      example('a'),
      '--server',
      example('b'),
      '--prefix',
      'never',
    ]);
    expect(run.code).toBe(2);
    expect(expectOneLine(run.stderr)).toMatch(/^gemini-mcp-kit: .*hello/);
  });

  it('a config naming a command that does not exist: one line, exit 2', async () => {
    const config = file('missing-command.json', {
      mcpServers: { ghost: { command: 'gemini-mcp-no-such-command' } },
    });
    const run = await runCli(['tools', '--config', config]);
    expect(run.code).toBe(2);
    expect(expectOneLine(run.stderr)).toBe(
      'gemini-mcp-kit: server "ghost": command "gemini-mcp-no-such-command" not found (check its "command" and PATH)',
    );
  });

  it('a server that exits at once: one line, exit 2', async () => {
    const run = await runCli(['tools', '--server', 'quitter=node -e process.exit(3)']);
    expect(run.code).toBe(2);
    expect(expectOneLine(run.stderr)).toBe(
      'gemini-mcp-kit: server "quitter" exited before answering the MCP handshake (its own output above may say why)',
    );
  });

  it('bad configs: missing file, a directory, not JSON, no mcpServers, a malformed --server', async () => {
    const cases: [string[], string][] = [
      [
        ['--config', join(dir, 'none.json')],
        `gemini-mcp-kit: ${join(dir, 'none.json')}: no such file`,
      ],
      [
        ['--config', dir],
        `gemini-mcp-kit: ${dir}: is a directory, expected a server configuration file`,
      ],
      [['--config', file('bad.json', '{nope')], 'gemini-mcp-kit: '],
      [['--config', file('shape.json', { server: {} })], 'expected {"mcpServers"'],
      [['--config', file('empty.json', { servers: {} })], 'no servers (none, or all disabled)'],
      [
        ['--server', 'no-equals-sign'],
        'gemini-mcp-kit: --server expects name=command [args...], got "no-equals-sign"',
      ],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(['tools', ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(expectOneLine(run.stderr)).toContain(message);
    }
  });

  it('--debug prints the stack of a failure', async () => {
    const run = await runCli(['--debug', 'tools', '--config', join(dir, 'none.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\n\s+at /);
  });
});

describe('answer', () => {
  it('runs the saved turn on the example server and prints the next user Content, ids echoed', async () => {
    const run = await runCli(['answer', RECORDED]);
    expect(run.code, run.stderr).toBe(0);
    const content = JSON.parse(run.stdout);
    expect(checkContent(content)).toEqual([]);
    expect(content.role).toBe('user');
    expect(
      content.parts.map((p: { functionResponse: { id: string; name: string } }) => [
        p.functionResponse.id,
        p.functionResponse.name,
      ]),
    ).toEqual([
      ['call-bitcoin-eur', 'bitcoin_price'],
      ['call-hello-ada', 'hello'],
    ]);
    expect(content.parts[1].functionResponse.response).toEqual({ output: 'Hello, Ada!' });
    expect(content.parts[0].functionResponse.response.output).toMatchObject({
      currency: 'EUR',
      price: 90310.55,
    });
  });

  it('EX-3b: --dialect vertex-v1 answers without ids; an unknown function gets its error response (--allow-errors: exit 0)', async () => {
    const turn = file('unknown.json', {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { functionCall: { name: 'nope', args: {} } },
              { functionCall: { name: 'hello', args: { name: 'Bo' } } },
            ],
          },
        },
      ],
    });
    const run = await runCli(['answer', turn, '--dialect', 'vertex-v1', '--allow-errors']);
    expect(run.code, run.stderr).toBe(0);
    const content = JSON.parse(run.stdout);
    expect(checkVertexV1Content(content)).toEqual([]);
    expect(content.parts[0].functionResponse.response.error).toContain('nope');
    expect(content.parts[1].functionResponse).toEqual({
      name: 'hello',
      response: { output: 'Hello, Bo!' },
    });
  });

  it.each([['vertex-v1beta1'], ['vertex']])(
    'EX-3b: --dialect %s keeps the ids of a Vertex AI v1beta1 turn, reading its own fields without warnings',
    async (dialect) => {
      const turn = file(`v1beta1-${dialect}.json`, {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { id: 'vx-9', name: 'hello', args: { name: 'Bo' } } }],
            },
            finishReason: 'STOP',
          },
        ],
        createTime: '2026-11-30T10:00:00Z',
      });
      const run = await runCli(['answer', turn, '--dialect', dialect]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toContain('createTime');
      const content = JSON.parse(run.stdout);
      expect(checkVertexV1Beta1Content(content)).toEqual([]);
      expect(content.parts[0].functionResponse).toEqual({
        id: 'vx-9',
        name: 'hello',
        response: { output: 'Hello, Bo!' },
      });
    },
  );

  it('a turn without calls, or a file that is no model turn: exit 1; a missing file: exit 2', async () => {
    const noCalls = file('text.json', {
      candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] } }],
    });
    const none = await runCli(['answer', noCalls]);
    expect(none.code).toBe(1);
    expect(expectOneLine(none.stderr)).toContain('the model turn has no function call to answer');
    const bad = await runCli(['answer', file('bad-turn.json', { candidates: 'x' })]);
    expect(bad.code).toBe(1);
    expect(expectOneLine(bad.stderr)).toContain('not a GenerateContentResponse');
    const missing = await runCli(['answer', join(dir, 'none.json')]);
    expect(missing.code).toBe(2);
    expect(expectOneLine(missing.stderr)).toContain('no such file');
  });
});

describe('chat', () => {
  let fake: FakeGemini | undefined;
  afterAll(async () => {
    await fake?.close();
  });

  it('without GEMINI_API_KEY: says what to set, exit 2', async () => {
    const run = await runCli(['chat', 'hello'], { env: { GEMINI_API_KEY: undefined } });
    expect(run.code).toBe(2);
    expect(expectOneLine(run.stderr)).toBe(
      'gemini-mcp-kit: chat needs a Gemini API key: set GEMINI_API_KEY (get one at https://aistudio.google.com/apikey)',
    );
  });

  it('the live loop against a scripted Gemini endpoint: calls on stderr, the answer on stdout', async () => {
    const callTurn = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              {
                functionCall: { id: 'c1', name: 'hello', args: { name: 'Ada' } },
                thoughtSignature: 'U0lH',
              },
            ],
          },
          finishReason: 'STOP',
        },
      ],
    };
    const answer = {
      candidates: [
        { content: { role: 'model', parts: [{ text: 'I greeted Ada.' }] }, finishReason: 'STOP' },
      ],
    };
    fake = await startFakeGemini([{ response: callTurn }, { response: answer }]);
    const run = await runCli(['chat', '--model', 'gemini-2.5-flash', 'Say', 'hello', 'to', 'Ada'], {
      env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.baseUrl },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('I greeted Ada.\n');
    expect(run.stderr).toContain('-> hello({"name":"Ada"})');
    expect(run.stderr).toContain('<- hello: "Hello, Ada!"');
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    const second = fake.requests[1]!.body as { contents: { parts: unknown[] }[] };
    expect(second.contents).toHaveLength(3);
    expect(second.contents[1]!.parts[0]).toMatchObject({ thoughtSignature: 'U0lH' });
  });

  it("SA-6: serves a server's sampling request with its model (server-everything over stdio), shown on stderr", async () => {
    const reply = (parts: object[]) => ({
      response: {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }],
        modelVersion: 'gemini-2.5-flash',
      },
    });
    await fake?.close();
    fake = await startFakeGemini([
      reply([
        {
          functionCall: { id: 'c1', name: 'trigger-sampling-request', args: { prompt: 'a haiku' } },
        },
      ]),
      reply([{ text: 'Autumn moon rising' }]),
      reply([{ text: 'The server got its haiku.' }]),
    ]);
    const run = await runCli(['chat', '--yes', '--server', everything, 'haiku'], {
      env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.baseUrl },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('The server got its haiku.\n');
    expect(run.stderr).toContain(
      '<- sampling request from everything (1 message(s), maxTokens 100): Resource trigger-sampling-request context: a haiku',
    );
    expect(run.stderr).toContain('Autumn moon rising');
    expect(fake.requests).toHaveLength(3);
    const sampling = fake.requests[1]!.body as { generationConfig: unknown };
    expect(sampling.generationConfig).toEqual({ maxOutputTokens: 100, temperature: 0.7 });
  });

  it('--no-sampling: no sampling capability, so server-everything offers no sampling tool', async () => {
    await fake?.close();
    fake = await startFakeGemini([
      {
        response: {
          candidates: [
            { content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' },
          ],
        },
      },
    ]);
    const run = await runCli(['chat', '--no-sampling', '--server', everything, 'hi'], {
      env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.baseUrl },
    });
    expect(run.code, run.stderr).toBe(0);
    const body = fake.requests[0]!.body as {
      tools: { functionDeclarations: { name: string }[] }[];
    };
    const names = body.tools[0]!.functionDeclarations.map((d) => d.name);
    expect(names).not.toContain('trigger-sampling-request');
    expect(names).toContain('echo');
  });

  it('EX-3b: --dialect vertex-v1beta1 talks to Vertex AI through @google/genai (express mode), ids kept', async () => {
    const callTurn = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { id: 'vx-1', name: 'hello', args: { name: 'Ada' } } }],
          },
          finishReason: 'STOP',
        },
      ],
      createTime: '2026-11-30T10:00:00Z',
    };
    const answer = {
      candidates: [
        { content: { role: 'model', parts: [{ text: 'I greeted Ada.' }] }, finishReason: 'STOP' },
      ],
    };
    await fake?.close();
    fake = await startFakeGemini([{ response: callTurn }, { response: answer }]);
    const run = await runCli(['chat', '--dialect', 'vertex-v1beta1', 'Say', 'hello', 'to', 'Ada'], {
      env: {
        GEMINI_API_KEY: undefined,
        GOOGLE_API_KEY: 'vertex-key',
        GOOGLE_CLOUD_PROJECT: undefined,
        GOOGLE_CLOUD_LOCATION: undefined,
        GOOGLE_VERTEX_BASE_URL: fake.baseUrl,
      },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('I greeted Ada.\n');
    expect(run.stderr).not.toContain('createTime');
    expect(fake.requests.map((r) => [r.path, r.apiKey])).toEqual([
      ['/v1beta1/publishers/google/models/gemini-2.5-flash:generateContent', 'vertex-key'],
      ['/v1beta1/publishers/google/models/gemini-2.5-flash:generateContent', 'vertex-key'],
    ]);
    const second = fake.requests[1]!.body as VertexV1Beta1GenerateContentRequest;
    expect(checkVertexV1Beta1GenerateContentRequest(second)).toEqual([]);
    expect(second.contents[2]!.parts![0]!.functionResponse).toMatchObject({
      id: 'vx-1',
      name: 'hello',
    });
  });

  it('--max-turns reached: the history as JSON on stdout, why it stopped on stderr, exit 1', async () => {
    const callTurn = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { id: 'c1', name: 'hello', args: { name: 'Bo' } } }],
          },
          finishReason: 'STOP',
        },
      ],
    };
    await fake?.close();
    fake = await startFakeGemini([{ response: callTurn }]);
    const run = await runCli(['chat', '--max-turns', '1', '--format', 'json', 'hi'], {
      env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.baseUrl },
    });
    expect(run.code, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.stop).toEqual({ reason: 'max-turns', maxTurns: 1 });
    expect(result.contents).toHaveLength(3);
    expect(run.stderr).toContain(
      'gemini-mcp-kit chat: stopped after 1 model turns with calls still coming (--max-turns)',
    );
  });
});
