/** `gemini-mcp-kit validate`, run as a child process: every format, exit code and bad input. */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './build.js';
import { CLI, expectOneLine, lines, ROOT, runCli, tempDir } from './helpers.js';

const RECORDED = join(ROOT, 'examples', 'recorded-turn.json');
const USER = { role: 'user', parts: [{ text: 'hi' }] };
const BAD_PART = { role: 'user', parts: [{ bogus: 1 }] };

let dir: string;
let remove: () => void;
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(() => {
  ({ dir, remove } = tempDir());
});
afterAll(() => remove());

beforeAll(ensureBuilt, 300_000);

describe('validate: kinds and formats', () => {
  it('a valid GenerateContentResponse file: exit 0, and says which kind auto picked', async () => {
    const run = await runCli(['validate', RECORDED]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 valid, 0 invalid');
    expect(run.stdout).toContain('kind picked by shape (--kind auto): generate-content-response 1');
  });

  it('auto picks each kind from the shape, line by line', async () => {
    const payloads = [
      USER,
      { candidates: [] },
      { contents: [USER] },
      { tools: [] },
      { name: 't', inputSchema: { type: 'object' } },
      { content: [{ type: 'text', text: 'x' }] },
      { functionDeclarations: [] },
      { name: 'f', args: {} },
      { name: 'f', response: {} },
      { name: 'f', description: 'd' },
      { text: 'x' },
    ];
    const path = file('kinds.jsonl', `${payloads.map((p) => JSON.stringify(p)).join('\n')}\n`);
    const run = await runCli(['validate', '--format', 'json', path]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.kinds).toEqual({
      'call-tool-result': 1,
      content: 1,
      'function-call': 1,
      'function-declaration': 1,
      'function-response': 1,
      'generate-content-request': 1,
      'generate-content-response': 1,
      'list-tools-result': 1,
      'mcp-tool': 1,
      part: 1,
      tool: 1,
    });
  });

  it('a shape no kind fits is invalid, with a hint to pass --kind', async () => {
    const run = await runCli(['validate', file('odd.json', '{"foo": 1}')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'cannot tell the kind of this payload from its shape (fields: foo); pass --kind',
    );
  });

  it('text: file:line, kind, JSON pointer and message for each violation (JSONL)', async () => {
    const path = file(
      'mixed.jsonl',
      [USER, BAD_PART, USER].map((p) => JSON.stringify(p)).join('\n'),
    );
    const run = await runCli(['validate', '--kind', 'content', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `${path}:2: content at /parts/0/bogus: unknown field "bogus" (not in the schema)`,
    );
    expect(run.stdout).toContain(
      '3 payloads in 1 input: 2 valid, 1 invalid; kind content (Content)',
    );
  });

  it('text: a pretty-printed file reports the line the pointer names', async () => {
    const text = JSON.stringify({ role: 'user', parts: [{ text: 'a' }, { text: 5 }] }, null, 2);
    const path = file('pretty.json', text);
    const run = await runCli(['validate', path]);
    expect(run.code).toBe(1);
    const line = text.split('\n').findIndex((l) => l.includes('5')) + 1;
    expect(run.stdout).toMatch(
      new RegExp(`pretty\\.json:${line}:\\d+: content at /parts/1/text: must be string`),
    );
  });

  it('github: ::error workflow annotations with file and line, escaped', async () => {
    const path = file('gh.jsonl', `${JSON.stringify(USER)}\n${JSON.stringify(BAD_PART)}\n`);
    const run = await runCli(['validate', '--format', 'github', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `::error file=${path},line=2,title=content /parts/0/bogus::unknown field "bogus" (not in the schema)`,
    );
    const weird = file('a,b:c.jsonl', `${JSON.stringify(BAD_PART)}\n`);
    const escaped = await runCli(['validate', '--format', 'github', weird]);
    expect(escaped.stdout).toContain(
      `file=${weird.replace(/:/g, '%3A').replace(/,/g, '%2C')},line=1`,
    );
  });

  it('json: one machine-readable report', async () => {
    const path = file('j.jsonl', `${JSON.stringify(USER)}\n${JSON.stringify(BAD_PART)}\n`);
    const run = await runCli(['validate', '-f', 'json', path]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      ok: false,
      counts: { inputs: 1, payloads: 2, valid: 1, invalid: 1, warnings: 0, inputErrors: 0 },
      auto: true,
      kinds: { content: 2 },
      omitted: 0,
    });
    expect(report.findings).toContainEqual({
      severity: 'error',
      file: path,
      line: 2,
      kind: 'content',
      schema: 'Content',
      pointer: '/parts/0/bogus',
      message: 'unknown field "bogus" (not in the schema)',
      keyword: 'additionalProperties',
    });
  });

  it('stdin (-): JSONL and a pretty-printed document', async () => {
    const jsonl = await runCli(['validate', '-'], {
      input: `${JSON.stringify(USER)}\n${JSON.stringify(BAD_PART)}\n`,
    });
    expect(jsonl.code).toBe(1);
    expect(jsonl.stdout).toContain('<stdin>:2: content at /parts/0');
    const pretty = await runCli(['validate', '-k', 'generate-content-response', '-'], {
      input: readFileSync(RECORDED, 'utf8'),
    });
    expect(pretty.code).toBe(0);
    expect(pretty.stdout).toContain('1 payload in 1 input: 1 valid');
  });

  it('EX-3b: --dialect vertex-v1beta1 accepts a call with an id; vertex-v1 reports it (its reference has none)', async () => {
    const call = file('call.json', JSON.stringify({ id: 'c1', name: 'f', args: {} }));
    expect((await runCli(['validate', '-k', 'function-call', call])).code).toBe(0);
    const beta = await runCli([
      'validate',
      '-k',
      'function-call',
      '--dialect',
      'vertex-v1beta1',
      call,
    ]);
    expect(beta.code, beta.stdout).toBe(0);
    const v1 = await runCli(['validate', '-k', 'function-call', '--dialect', 'vertex-v1', call]);
    expect(v1.code).toBe(1);
    expect(v1.stdout).toContain('function-call at /id: unknown field "id"');
    // kinds that name the version fix the dialect; `vertex` is the v1beta1 alias
    expect((await runCli(['validate', '-k', 'vertex-v1-function-call', call])).code).toBe(1);
    expect((await runCli(['validate', '-k', 'vertex-v1beta1-function-call', call])).code).toBe(0);
    expect((await runCli(['validate', '-k', 'VertexV1Beta1FunctionCall', call])).code).toBe(0);
    expect((await runCli(['validate', '-k', 'vertex-function-call', call])).code).toBe(0);
    expect(
      (await runCli(['validate', '-k', 'function-call', '--dialect', 'vertex', call])).code,
    ).toBe(0);
  });

  it('EX-3b: a whole Vertex AI v1beta1 request with ids, kind picked by shape, is valid in v1beta1 only', async () => {
    const request = file(
      'vertex-request.json',
      JSON.stringify({
        contents: [
          { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
          {
            role: 'model',
            parts: [{ functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } } }],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { id: 'c1', name: 'get_weather', response: { output: '12 C' } } },
            ],
          },
        ],
        labels: { team: 'search' },
      }),
    );
    const beta = await runCli(['validate', '--dialect', 'vertex-v1beta1', request]);
    expect(beta.code, beta.stdout).toBe(0);
    const v1 = await runCli(['validate', '--dialect', 'vertex-v1', '--format', 'json', request]);
    expect(v1.code).toBe(1);
    expect(JSON.parse(v1.stdout).findings.map((f: { pointer: string }) => f.pointer)).toEqual([
      '/contents/1/parts/0/functionCall/id',
      '/contents/2/parts/0/functionResponse/id',
    ]);
    // `labels` is Vertex AI's, not the Gemini API's
    const gemini = await runCli(['validate', request]);
    expect(gemini.code).toBe(1);
    expect(gemini.stdout).toContain('unknown field "labels"');
  });

  it("EX-3b: a Vertex AI Part holds exactly one data field (the descriptor's oneof, as the Gemini rule)", async () => {
    const two = file('two.json', JSON.stringify({ text: 'a', functionCall: { name: 'f' } }));
    const run = await runCli(['validate', '-k', 'part', '--dialect', 'vertex-v1', two]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('must hold exactly one of text, inlineData');
  });

  it('EX-3b: a Gemini API kind a Vertex AI version lacks is a usage error there', async () => {
    const feedback = file('feedback.json', JSON.stringify({ blockReason: 'SAFETY' }));
    expect((await runCli(['validate', '-k', 'prompt-feedback', feedback])).code).toBe(0);
    const run = await runCli([
      'validate',
      '-k',
      'prompt-feedback',
      '--dialect',
      'vertex-v1',
      feedback,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('vertex-v1 has no prompt-feedback');
  });

  it('MCP kinds: list-tools-result, call-tool-result, mcp-tool', async () => {
    const list = file(
      'list.json',
      JSON.stringify({ tools: [{ name: 't', inputSchema: { type: 'object' } }] }),
    );
    expect((await runCli(['validate', '-k', 'list-tools-result', list])).code).toBe(0);
    const result = file('result.json', JSON.stringify({ content: [{ type: 'text' }] }));
    const run = await runCli(['validate', '-k', 'call-tool-result', result]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('call-tool-result at /content/0');
    expect((await runCli(['validate', '-k', 'mcp-tool', list])).code).toBe(1);
  });

  it('--list-kinds lists every schema with its Vertex AI versions, and the Vertex-only shapes', async () => {
    const run = await runCli(['validate', '--list-kinds']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^content +Content \(vertex-v1: VertexV1Content, vertex-v1beta1: VertexV1Beta1Content\)$/m,
    );
    expect(run.stdout).toMatch(/^vertex-v1-partial-arg +VertexV1PartialArg$/m);
    expect(run.stdout).toMatch(
      /^list-tools-result +McpListToolsResult +also: mcp-list-tools-result +\(received: read contract\)$/m,
    );
    expect(lines(run.stdout).length).toBeGreaterThan(100);
  });

  it('--max-errors caps what is printed, the counts stay exact', async () => {
    const path = file('many.jsonl', `${Array(20).fill(JSON.stringify(BAD_PART)).join('\n')}\n`);
    const run = await runCli(['validate', '--max-errors', '5', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('more problems not shown (--max-errors 5)');
    expect(run.stdout).toContain('20 payloads in 1 input: 0 valid, 20 invalid');
  });

  it('several files: counted together; no progress line when stderr is not a terminal', async () => {
    const a = file('m1.json', JSON.stringify(USER));
    const b = file('m2.jsonl', `${JSON.stringify(USER)}\n${JSON.stringify(USER)}\n`);
    const run = await runCli(['validate', a, b]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('3 payloads in 2 inputs: 3 valid, 0 invalid');
    expect(run.stderr).toBe('');
  });
});

describe('issue 14: what validate loads, and the depth bound it keeps', () => {
  const LOADED = join(ROOT, 'test', 'cli', 'fixtures', 'loaded-validators.mjs');
  const loaded = (stderr: string): string =>
    /validators loaded: (.*)/.exec(stderr)?.[1] ?? `(not reported: ${stderr})`;

  it('loads the validators of the family of its kind alone; auto those of every kind it may pick', async () => {
    const path = file('one.jsonl', `${JSON.stringify({ candidates: [] })}\n`);
    const cases: [string[], string][] = [
      [['--kind', 'generate-content-response'], 'validators-gemini.js'],
      [['--kind', 'call-tool-result'], 'validators-mcp.js'],
      // A Vertex version's validators import those it shares with the other version.
      [
        ['--dialect', 'vertex-v1beta1', '--kind', 'content'],
        'validators-vertex-common.js, validators-vertex-v1beta1.js',
      ],
      [['--kind', 'vertex-v1-partial-arg'], 'validators-vertex-common.js, validators-vertex-v1.js'],
      [[], 'validators-gemini.js, validators-mcp.js'],
      [
        ['--dialect', 'vertex-v1'],
        'validators-mcp.js, validators-vertex-common.js, validators-vertex-v1.js',
      ],
    ];
    for (const [options, modules] of cases) {
      const run = await runCli(['validate', ...options, path], { nodeArgs: ['--import', LOADED] });
      expect(loaded(run.stderr), options.join(' ')).toBe(modules);
    }
  });

  it('the depth bound at its edge: 512 levels checked, 513 too deep; brackets in strings do not count as nesting', async () => {
    /** A response whose call arguments nest down to `level` (the response is level 0). */
    const nested = (level: number): object => {
      let args: object = {};
      for (let l = level; l > 7; l--) args = { a: args };
      return {
        candidates: [
          { content: { role: 'model', parts: [{ functionCall: { name: 'f', args } }] } },
        ],
      };
    };
    const inString = { candidates: [{ content: { parts: [{ text: '{['.repeat(600) }] } }] };
    const payloads = [nested(512), nested(513), inString];
    const path = file('edge.jsonl', `${payloads.map((p) => JSON.stringify(p)).join('\n')}\n`);
    for (const input of [path, file('edge.json', JSON.stringify(payloads))]) {
      const run = await runCli([
        'validate',
        '--format',
        'json',
        '--kind',
        'generate-content-response',
        input,
      ]);
      const report = JSON.parse(run.stdout) as {
        counts: Record<string, number>;
        findings: { keyword?: string; message: string; pointer: string }[];
      };
      expect(report.counts, input).toMatchObject({ payloads: 3, valid: 2, invalid: 1 });
      expect(report.findings.map((f) => f.keyword)).toEqual(['too-deep']);
      expect(report.findings[0]?.message).toMatch(/^nested deeper than 512 levels/);
      const at = input.endsWith('.json') ? '/1' : '';
      expect(report.findings[0]?.pointer).toBe(
        `${at}/candidates/0/content/parts/0/functionCall/args${'/a'.repeat(506)}`,
      );
    }
  });
});

describe('validate: bad input, one line each, no stack trace', () => {
  it('a missing file: exit 2', async () => {
    const run = await runCli(['validate', join(dir, 'nope.json')]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`${join(dir, 'nope.json')}: no such file`);
    expect(run.stdout).not.toMatch(/\n\s+at /);
  });

  it('a directory: exit 2', async () => {
    const sub = join(dir, 'sub');
    mkdirSync(sub, { recursive: true });
    const run = await runCli(['validate', sub]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`${sub}: is a directory`);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file (mode 000): exit 2', async () => {
    const path = file('secret.json', JSON.stringify(USER));
    chmodSync(path, 0o000);
    const run = await runCli(['validate', path]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`${path}: permission denied`);
  });

  it.skipIf(process.platform !== 'linux')(
    'a file that fails while being read (/proc/self/mem): exit 2',
    async () => {
      const run = await runCli(['validate', '/proc/self/mem']);
      expect(run.code).toBe(2);
      expect(run.stdout).toMatch(/\/proc\/self\/mem: cannot read/);
    },
  );

  it('invalid JSON on line N of a JSONL: an invalid payload, exit 1, file:line', async () => {
    const path = file(
      'broken.jsonl',
      `${JSON.stringify(USER)}\n${JSON.stringify(USER)}\n{"role": "user",\n`,
    );
    const run = await runCli(['validate', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/broken\.jsonl:3(:\d+)?: invalid JSON: /);
    expect(run.stdout).toContain('3 payloads in 1 input: 2 valid, 1 invalid');
  });

  it('invalid JSON on line 1 of a JSONL is still read as JSONL', async () => {
    const path = file('first-broken.jsonl', `{oops\n${JSON.stringify(USER)}\n`);
    const run = await runCli(['validate', '--input', 'auto', '-'], {
      input: readFileSync(path, 'utf8'),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/<stdin>:1(:\d+)?: invalid JSON/);
    expect(run.stdout).toContain('2 payloads in 1 input: 1 valid, 1 invalid');
  });

  it('an empty file is not a pass', async () => {
    const run = await runCli(['validate', file('empty.json', '')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('no payload: the input is empty');
  });

  it('a 100 MB single line: exit 2, "line 1: longer than 64 MiB", memory bounded by the cap', async () => {
    const path = join(dir, 'huge.jsonl');
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(path);
      out.on('error', reject);
      out.write('{"role":"user","parts":[{"text":"');
      const block = 'a'.repeat(1024 * 1024);
      for (let i = 0; i < 100; i++) out.write(block);
      out.end('"}]}\n', resolve);
    });
    const run = await runCli(['--debug', 'validate', path]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`${path}: line 1: longer than 64 MiB (--max-line-bytes)`);
    const rss = Number(/maxRSS (\d+) KiB/.exec(run.stderr)?.[1]);
    expect(rss).toBeLessThan(400 * 1024);
  });

  it('a line over --max-line-bytes in a JSONL is skipped, the others checked', async () => {
    const long = JSON.stringify({ role: 'user', parts: [{ text: 'x'.repeat(5000) }] });
    const path = file(
      'long.jsonl',
      `${JSON.stringify(USER)}\n${long}\n${JSON.stringify(BAD_PART)}\n`,
    );
    const run = await runCli(['validate', '--max-line-bytes', '1KiB', path]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`${path}: line 2: longer than 1 KiB (--max-line-bytes)`);
    expect(run.stdout).toContain(`${path}:3: content at /parts/0`);
    expect(run.stdout).toContain('2 payloads in 1 input: 1 valid, 1 invalid, 1 input error');
  });

  it('an unknown kind: exit 2, with suggestions', async () => {
    const run = await runCli(['validate', '--kind', 'contnt', RECORDED]);
    expect(run.code).toBe(2);
    expect(expectOneLine(run.stderr)).toBe(
      'gemini-mcp-kit: unknown kind "contnt" (did you mean content?); gemini-mcp-kit validate --list-kinds lists them',
    );
  });

  it('an unknown flag: exit 2', async () => {
    const run = await runCli(['validate', '--frmat', 'json', RECORDED]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option '--frmat'");
    expect(run.stderr).toContain('--format');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('a bad --format value and no FILE: exit 2', async () => {
    const bad = await runCli(['validate', '--format', 'xml', RECORDED]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'xml' is invalid");
    const none = await runCli(['validate']);
    expect(none.code).toBe(2);
    expect(expectOneLine(none.stderr)).toContain(
      'validate needs at least one FILE (or - for stdin)',
    );
  });
});

const call = (id: string, name: string, signature?: string) => ({
  functionCall: { id, name, args: {} },
  ...(signature === undefined ? {} : { thoughtSignature: signature }),
});
const reply = (id: string, name: string) => ({
  functionResponse: { id, name, response: { output: 'ok' } },
});
const declaration = (name: string, extra: object = {}) => ({ name, description: '', ...extra });

describe('validate --request', () => {
  const request = (body: object): string =>
    file(`req-${Math.random().toString(36).slice(2)}.json`, JSON.stringify(body, null, 2));

  it('a well-formed conversation passes', async () => {
    const path = request({
      contents: [
        USER,
        { role: 'model', parts: [call('a', 'f', 'c2ln'), call('b', 'g')] },
        { role: 'user', parts: [reply('a', 'f'), reply('b', 'g')] },
      ],
      tools: [{ functionDeclarations: [declaration('f'), declaration('g')] }],
    });
    const run = await runCli(['validate', '--request', '--model', 'gemini-3-pro-preview', path]);
    expect(run.stdout).toContain('1 valid, 0 invalid');
    expect(run.code).toBe(0);
  });

  it('function names colliding across tools, and both parameter forms', async () => {
    const path = request({
      contents: [USER],
      tools: [
        {
          functionDeclarations: [
            declaration('f', { parameters: { type: 'OBJECT' }, parametersJsonSchema: {} }),
          ],
        },
        { functionDeclarations: [declaration('f')] },
      ],
    });
    const run = await runCli(['validate', '--request', '-f', 'json', path]);
    expect(run.code).toBe(1);
    const rules = JSON.parse(run.stdout).findings.map((f: { keyword: string; pointer: string }) => [
      f.keyword,
      f.pointer,
    ]);
    expect(rules).toContainEqual([
      'request/function-name-collision',
      '/tools/1/functionDeclarations/0/name',
    ]);
    expect(rules).toContainEqual(['request/both-schema-forms', '/tools/0/functionDeclarations/0']);
    // The schema's own "not both" violation is not reported twice.
    expect(rules.filter(([, p]: string[]) => p === '/tools/0/functionDeclarations/0')).toHaveLength(
      1,
    );
  });

  it('a functionResponse count that does not match the functionCall turn, and ids that do not match', async () => {
    const path = request({
      contents: [
        USER,
        { role: 'model', parts: [call('a', 'f'), call('b', 'f')] },
        { role: 'user', parts: [reply('a', 'f'), reply('z', 'f'), reply('a', 'f')] },
      ],
    });
    const run = await runCli(['validate', '--request', '--model', 'gemini-2.5-flash', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '3 functionResponse part(s) answer 2 functionCall part(s) of /contents/1',
    );
    expect(run.stdout).toContain(
      'functionResponse id "z" matches no functionCall id of /contents/1 (a, b)',
    );
    expect(run.stdout).toContain(
      'functionCall id "b" (/contents/1/parts/1) has no functionResponse',
    );
  });

  it('a model turn with calls followed by no functionResponse, and responses after no calls', async () => {
    const path = request({
      contents: [
        USER,
        { role: 'model', parts: [call('a', 'f', 's')] },
        USER,
        { role: 'user', parts: [reply('a', 'f')] },
      ],
    });
    const run = await runCli(['validate', '--request', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'at /contents/2: the model turn /contents/1 made 1 function call(s), but this turn holds no functionResponse',
    );
    expect(run.stdout).toContain(
      'at /contents/3: functionResponse parts must follow a model turn with function calls',
    );
  });

  it('thought signatures: error for Gemini 3, warning for an unknown model, nothing for 2.5, earlier turns ignored', async () => {
    const old = [
      USER,
      { role: 'model', parts: [call('x', 'f')] },
      { role: 'user', parts: [reply('x', 'f')] },
      { role: 'model', parts: [{ text: 'done' }] },
    ];
    const current = [
      USER,
      {
        role: 'model',
        parts: [{ text: 'thinking', thought: true }, call('a', 'f'), call('b', 'f')],
      },
      { role: 'user', parts: [reply('a', 'f'), reply('b', 'f')] },
    ];
    const path = request({ contents: [...old, ...current] });
    const strict = await runCli([
      'validate',
      '--request',
      '--model',
      'gemini-3-flash-preview',
      path,
    ]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain(
      'at /contents/5/parts/1: the first functionCall ("f") of this model step in the current turn has no thoughtSignature; gemini-3-flash-preview refuses that with HTTP 400',
    );
    expect(strict.stdout).not.toContain('/contents/1/parts/0');
    const unknown = await runCli(['validate', '--request', path]);
    expect(unknown.code).toBe(0);
    expect(unknown.stdout).toContain('warning: generate-content-request at /contents/5/parts/1');
    expect(unknown.stdout).toContain('1 valid, 0 invalid, 1 warning');
    const relaxed = await runCli([
      'validate',
      '--request',
      '--model',
      'models/gemini-2.5-flash',
      path,
    ]);
    expect(relaxed.code).toBe(0);
    expect(relaxed.stdout).not.toContain('warning');
    const fromBody = request({
      model: 'models/gemini-3-pro-preview',
      contents: [...old, ...current],
    });
    expect((await runCli(['validate', '--request', fromBody])).code).toBe(1);
  });

  it('--request with another --kind is a usage error', async () => {
    const run = await runCli(['validate', '--request', '--kind', 'content', RECORDED]);
    expect(run.code).toBe(2);
    expect(expectOneLine(run.stderr)).toContain('--request checks a generate-content-request');
    const model = await runCli(['validate', '--model', 'gemini-3-pro-preview', RECORDED]);
    expect(model.code).toBe(2);
    expect(expectOneLine(model.stderr)).toContain('--model only applies with --request');
  });
});

const hasScript = existsSync('/usr/bin/script') && process.platform === 'linux';

describe('validate progress', () => {
  it.skipIf(!hasScript)(
    'a progress line on stderr when it is a terminal and the run is long',
    () => {
      // script(1) gives the CLI a terminal; stdin stays open (and empty) for 4 s.
      const command = `sh -c 'sleep 4' | ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} validate -`;
      const run = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8' });
      expect(run.status).toBe(1); // the empty input
      expect(run.stdout).toContain(
        '\r\x1b[Kvalidate: <stdin>: 0 lines, 0 payloads, 0.0 MB, 0 invalid',
      );
    },
  );
});
