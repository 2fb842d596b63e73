/**
 * Issue 15: what `validate` is given. Quoted globs expanded by gemini-mcp-kit itself (GitHub's bash
 * has no globstar), JSON arrays read as many payloads (what `gemini-mcp-kit tools` prints), the cap
 * on an array's length, and the progress line, shown only on a terminal.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runValidate, type ValidateOptions } from '../../src/cli/validate/command.js';
import { arrayElementStarts } from '../../src/cli/validate/locate.js';
import { loadFamily } from '../../src/generated/catalog.js';
import { ensureBuilt } from './build.js';
import { CLI, type CliRun, runCli, runProcess, tempDir } from './helpers.js';

const USER = { role: 'user', parts: [{ text: 'hi' }] };
const BAD_PART = { role: 'user', parts: [{ bogus: 1 }] };

let dir: string;
let remove: () => void;
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
};

beforeAll(() => {
  ({ dir, remove } = tempDir());
});
afterAll(() => remove());
beforeAll(ensureBuilt, 300_000);

interface Report {
  ok: boolean;
  counts: { inputs: number; payloads: number; valid: number; invalid: number; inputErrors: number };
  kinds: Record<string, number>;
  findings: { file: string; line: number; column?: number; pointer: string; message: string }[];
  inputErrors: { file: string; message: string }[];
}

/** `sh -c script` in `cwd`: a pipeline, or a command line as a user types it. */
const shell = (script: string, cwd: string): Promise<CliRun> =>
  runProcess('sh', ['-c', script], { cwd });

describe('issue 15: validate expands quoted globs itself', () => {
  let tree: string;
  beforeAll(() => {
    tree = join(dir, 'tree');
    const put = (name: string, value: unknown): string =>
      file(join('tree', name), JSON.stringify(value, null, 2));
    put('fixtures/b.json', USER);
    put('fixtures/a.json', BAD_PART);
    put('fixtures/deep/er/c.json', USER);
    put('fixtures/sub/z.json', BAD_PART);
    put('fixtures/.hidden/d.json', BAD_PART);
    file('tree/fixtures/notes.jsonl', `${JSON.stringify(BAD_PART)}\n`);
    put('fixtures/[id].json', USER);
  });

  it("'fixtures/**/*.json', quoted in a shell without globstar: every matching file, sorted", async () => {
    const run = await shell(
      `node '${CLI}' validate --format github 'fixtures/**/*.json'; echo "exit $?"`,
      tree,
    );
    expect(run.stdout).toContain('exit 1');
    // Two invalid files, in code-point order; dot directories and other extensions left out.
    const files = [...run.stdout.matchAll(/^::error file=([^,]+),/gm)].map((m) => m[1]);
    expect([...new Set(files)]).toEqual(['fixtures/a.json', 'fixtures/sub/z.json']);
    const json = await runCli(['validate', '--format', 'json', 'fixtures/**/*.json'], {
      cwd: tree,
    });
    const report = JSON.parse(json.stdout) as Report;
    expect(report.counts).toMatchObject({ inputs: 5, payloads: 5, valid: 3, invalid: 2 });
  });

  it('the same files whatever the order of the arguments; a file named twice is read once', async () => {
    const a = await runCli(['validate', 'fixtures/*.json', 'fixtures/**/c.json'], { cwd: tree });
    const b = await runCli(
      ['validate', 'fixtures/**/c.json', 'fixtures/a.json', 'fixtures/*.json'],
      {
        cwd: tree,
      },
    );
    expect(a.stdout).toContain('4 payloads in 4 inputs: 3 valid, 1 invalid');
    expect(b.stdout).toContain('4 payloads in 4 inputs: 3 valid, 1 invalid');
  });

  it('an absolute glob yields absolute paths; an existing file with glob characters is read as named', async () => {
    const run = await runCli(['validate', '--format', 'json', join(tree, 'fixtures', '*.json')]);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.findings.map((f) => f.file)).toEqual([
      join(tree, 'fixtures', 'a.json'),
      join(tree, 'fixtures', 'a.json'),
    ]);
    const literal = await runCli(['validate', 'fixtures/[id].json'], { cwd: tree });
    expect(literal.code).toBe(0);
    expect(literal.stdout).toContain('1 payload in 1 input: 1 valid');
  });

  it('a glob matching no file: exit 2 naming it, the other inputs still checked', async () => {
    const run = await runCli(['validate', 'fixtures/b.json', 'recorded/**/*.jsonl'], {
      cwd: tree,
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(
      `recorded/**/*.jsonl: no file matches the glob "recorded/**/*.jsonl" (in ${tree})`,
    );
    expect(run.stdout).toContain('1 payload in 1 input: 1 valid, 0 invalid, 1 input error');
    const github = await runCli(['validate', '-f', 'github', 'nothing/*.json'], { cwd: tree });
    expect(github.code).toBe(2);
    expect(github.stdout).toContain(
      '::error file=nothing/*.json,title=gemini-mcp-kit validate::no file matches the glob',
    );
  });
});

describe('issue 15: a JSON array is as many payloads, each named by its index', () => {
  it('a pretty-printed array: /i/... pointers and the lines they are on', async () => {
    const payloads = [USER, USER, { text: 'x' }, BAD_PART];
    const text = JSON.stringify(payloads, null, 2);
    const path = file('array.json', text);
    const run = await runCli(['validate', '--format', 'json', path]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.counts).toMatchObject({ payloads: 4, valid: 3, invalid: 1 });
    expect(report.kinds).toEqual({ content: 3, part: 1 });
    const bogus = report.findings.find((f) => f.pointer === '/3/parts/0/bogus');
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('"bogus"')) + 1;
    const column = lines[line - 1]!.indexOf('1') + 1; // where the value starts
    expect(bogus).toMatchObject({ line, column });
    const text2 = await runCli(['validate', path]);
    expect(text2.stdout).toContain(
      `${path}:${line}:${column}: content at /3/parts/0/bogus: unknown field`,
    );
  });

  it('an array on one JSONL line: its elements, named /i/... on that line', async () => {
    const path = file(
      'arrays.jsonl',
      `${JSON.stringify(USER)}\n${JSON.stringify([USER, BAD_PART])}\n`,
    );
    const run = await runCli(['validate', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${path}:2: content at /1/parts/0/bogus: unknown field`);
    expect(run.stdout).toContain('3 payloads in 1 input: 2 valid, 1 invalid');
  });

  it('the lines of findings deep in a large array are exact (one scan, not one per finding)', async () => {
    const payloads = Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? USER : BAD_PART));
    const text = JSON.stringify(payloads, null, 1);
    const path = file('large-array.json', text);
    const run = await runCli(['validate', '--format', 'json', '--max-errors', '100000', path]);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.counts).toMatchObject({ payloads: 10_000, valid: 5_000, invalid: 5_000 });
    const last = report.findings.find((f) => f.pointer === '/9999/parts/0/bogus');
    const lines = text.split('\n');
    let expected = 0;
    for (let i = lines.length - 1; i >= 0; i--) {
      if (lines[i]!.includes('"bogus"')) {
        expected = i + 1;
        break;
      }
    }
    expect(last?.line).toBe(expected);
  });

  it('an empty array holds no payload: not a pass; an array in an array is of no kind', async () => {
    const empty = await runCli(['validate', file('empty-array.json', '[]')]);
    expect(empty.code).toBe(1);
    expect(empty.stdout).toContain('no payload: an empty array');
    const nested = await runCli(['validate', file('nested.json', JSON.stringify([[USER]]))]);
    expect(nested.code).toBe(1);
    expect(nested.stdout).toContain(
      ': cannot tell the kind of this payload from its shape (a JSON array)',
    );
  });

  it('--kind applies to every element', async () => {
    const calls = [
      { name: 'f', args: {} },
      { id: 'c1', name: 'g', args: {} },
    ];
    const path = file('calls.json', JSON.stringify(calls));
    expect((await runCli(['validate', path])).code).toBe(0);
    const run = await runCli(['validate', '-k', 'vertex-v1-function-call', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${path}:1: function-call at /1/id: unknown field "id"`);
    expect(run.stdout).toContain('2 payloads in 1 input: 1 valid, 1 invalid');
  });

  it('bound: an array of more than 100,000 payloads (--max-items) is refused whole, exit 2; 100,000 are checked', async () => {
    const part = JSON.stringify({ text: 'x' });
    const many = (n: number): string => `[${Array(n).fill(part).join(',\n')}]`;
    const over = await runCli(['validate', file('over.json', many(100_001))]);
    expect(over.code).toBe(2);
    expect(over.stdout).toContain(
      'a JSON array of 100,001 payloads, more than 100,000 (--max-items): not checked; write one payload per line (JSONL) or raise --max-items',
    );
    expect(over.stdout).toContain('0 payloads in 1 input');
    const at = await runCli(['validate', file('at.json', many(100_000))]);
    expect(at.code).toBe(0);
    expect(at.stdout).toContain('100000 payloads in 1 input: 100000 valid, 0 invalid');
    const small = await runCli(['validate', '--max-items', '3', '-'], { input: many(4) });
    expect(small.code).toBe(2);
    expect(small.stdout).toContain('more than 3 (--max-items)');
  });

  it('a blank line before a pretty-printed document does not shift the lines reported', async () => {
    const text = `\n${JSON.stringify({ role: 'user', parts: [{ text: 5 }] }, null, 2)}`;
    const run = await runCli(['validate', file('blank-first.json', text)]);
    const line = text.split('\n').findIndex((l) => l.includes('5')) + 1;
    expect(run.stdout).toMatch(
      new RegExp(`blank-first\\.json:${line}:\\d+: content at /parts/0/text`),
    );
  });
});

describe('issue 15: arrayElementStarts, where each element of an array starts', () => {
  it.each([
    ['[]', []],
    ['  [ 1 ]', [[4, 1, 5]]],
    [
      '[\n  {"a": "],\\"[{"},\n  [1, [2]],\n  "x"\n]',
      [
        [4, 2, 3],
        [23, 3, 3],
        [35, 4, 3],
      ],
    ],
    ['{"a": 1}', []],
  ] as const)('%j', (text, want) => {
    const starts = arrayElementStarts(text).map((s) => [s.offset, s.line, s.column]);
    expect(starts).toEqual(want);
    for (const [offset] of starts) expect('[{"1'.includes(text[offset!]!)).toBe(true);
  });
});

describe('issue 15: gemini-mcp-kit tools | gemini-mcp-kit validate -', () => {
  it.each([[[]], [['--schema-mode', 'openapi', '--response-schema']]])(
    'what tools prints (the bundled example server, %j) passes',
    async (flags) => {
      const run = await shell(
        `node '${CLI}' tools ${flags.join(' ')} | node '${CLI}' validate -f json -`,
        dir,
      );
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as Report;
      expect(report.ok).toBe(true);
      expect(report.kinds).toEqual({ tool: 1 });
    },
  );
});

describe('issue 15: progress on stderr, only when it is a terminal', () => {
  // validate imports the validators of the kinds it may meet before it reads (issue 14): loaded
  // here once, so that each run below reads its input at once.
  beforeAll(() => Promise.all([loadFamily('gemini'), loadFamily('mcp')]));
  afterEach(() => {
    vi.useRealTimers();
  });

  const OPTIONS: ValidateOptions = {
    kind: 'auto',
    strict: false,
    dialect: 'gemini',
    format: 'text',
    request: false,
    input: 'auto',
    maxLineBytes: 1024 * 1024,
    maxItems: 100_000,
    maxErrors: 1000,
    debug: false,
  };

  /** Feeds `validate -` two lines, lets 3 s pass on the clock between them, and ends it. */
  async function slowRun(isTTY: boolean): Promise<{ code: number; stderr: string }> {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    stdout.resume();
    let stderr = '';
    const err = Object.assign(new PassThrough(), { isTTY });
    err.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const done = runValidate(['-'], OPTIONS, { stdin, stdout, stderr: err });
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    };
    stdin.write(`${JSON.stringify(USER)}\n${JSON.stringify(USER)}\n`);
    await settle();
    vi.advanceTimersByTime(3000);
    await settle();
    const during = stderr;
    stdin.end(`${JSON.stringify(BAD_PART)}\n`);
    const code = await done;
    await settle();
    return { code, stderr: `${during}|${stderr.slice(during.length)}` };
  }

  it('a terminal: a throttled counter after 2 s, erased at the end', async () => {
    const { code, stderr } = await slowRun(true);
    expect(code).toBe(1);
    const [during, after] = stderr.split('|');
    const line = '\r\x1b[Kvalidate: <stdin>: 2 lines, 2 payloads, 0.0 MB, 0 invalid';
    expect(during!.split(line).join('')).toBe('');
    expect(during).toContain(line);
    // One line every 500 ms once 2 s have passed: 2 or 3 in 3 s, never one per payload.
    expect(during!.split('\r').length - 1).toBeLessThanOrEqual(3);
    expect(after).toBe('\r\x1b[K');
  });

  it('not a terminal: silent', async () => {
    const { code, stderr } = await slowRun(false);
    expect(code).toBe(1);
    expect(stderr).toBe('|');
  });
});
