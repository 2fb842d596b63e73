/**
 * How the built CLI fails, as a user meets it (issue 33, item 6): `chat` names the model
 * endpoint and the cause; `answer` exits 1 when a call was answered with an error; enum
 * violations name the value and the allowed ones; `--debug` adds what the README says to every
 * command; the README's `mcpServer` example holds; Ctrl-C while connecting stops the servers.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini.js';
import { exited } from '../support/runtime-servers.js';
import { ensureBuilt } from './build.js';
import {
  CLI,
  EXAMPLE_SERVER,
  expectOneLine,
  FIXTURES,
  lines,
  ROOT,
  runCli,
  tempDir,
} from './helpers.js';

const FAULT_SERVER = `faults=node ${join(ROOT, 'test', 'support', 'fault-server.mjs')}`;
const MUTE_SERVER = join(FIXTURES, 'mute-server.mjs');
/** `--debug`'s line of resource use. */
const DEBUG_LINE = /^debug: \d+ ms, CPU \d+ ms user \+ \d+ ms system; maxRSS \d+ KiB$/m;

let dir: string;
let remove: () => void;
const file = (name: string, value: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};
const turnOf = (...calls: { name: string; args?: object }[]) => ({
  candidates: [
    {
      content: {
        role: 'model',
        parts: calls.map((call, i) => ({ functionCall: { id: `c${i}`, ...call } })),
      },
    },
  ],
});

beforeAll(() => {
  ({ dir, remove } = tempDir());
});
afterAll(() => remove());
beforeAll(ensureBuilt, 300_000);

/** A loopback port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('chat: a model endpoint that fails is named with the request and the cause', () => {
  let fake: FakeGemini | undefined;
  afterAll(async () => {
    await fake?.close();
  });

  it('an endpoint that refuses connections: method, URL and ECONNREFUSED in one line, exit 2, no key', async () => {
    const port = await closedPort();
    const run = await runCli(['chat', 'hello'], {
      env: { GEMINI_API_KEY: 'secret-key-123', GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}` },
    });
    expect(run.code, run.stderr).toBe(2);
    const line = expectOneLine(run.stderr);
    expect(line).toBe(
      `gemini-mcp-kit: cannot reach the model endpoint: POST http://127.0.0.1:${port}/v1beta/models/gemini-2.5-flash:generateContent: fetch failed: connect ECONNREFUSED 127.0.0.1:${port} (set by GOOGLE_GEMINI_BASE_URL)`,
    );
    expect(line).not.toContain('secret-key-123');
  });

  it('an endpoint that answers with an HTTP error: the request, the status and the API message', async () => {
    fake = await startFakeGemini([]); // every request gets HTTP 500 {"error": {"message": ...}}
    const run = await runCli(['chat', 'hello'], {
      env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.baseUrl },
    });
    expect(run.code, run.stderr).toBe(2);
    expect(expectOneLine(run.stderr)).toBe(
      `gemini-mcp-kit: the model endpoint refused the request: POST ${fake.baseUrl}/v1beta/models/gemini-2.5-flash:generateContent: HTTP 500: script exhausted`,
    );
  });
});

describe('answer: the exit status says whether every call was answered with its result', () => {
  const turn = () =>
    file(
      'mixed.json',
      turnOf(
        { name: 'echo', args: { text: 'hi' } },
        { name: 'nope', args: {} },
        { name: 'fail', args: {} },
        { name: 'echo', args: { text: 7 } },
      ),
    );

  it('a call answered with an error (unknown tool, tool failure, invalid arguments): the Content, one summary line, exit 1', async () => {
    const run = await runCli(['answer', turn(), '--server', FAULT_SERVER, '--validate-args']);
    expect(run.code, run.stderr).toBe(1);
    const content = JSON.parse(run.stdout);
    expect(content.parts).toHaveLength(4);
    expect(content.parts[0].functionResponse.response).toEqual({ output: 'hi' });
    expect(expectOneLine(run.stderr)).toBe(
      'gemini-mcp-kit answer: 3 of 4 call(s) answered with an error: nope (UNKNOWN_FUNCTION), fail, echo (INVALID_ARGUMENTS)',
    );
  });

  it('--allow-errors: the same Content and summary, exit 0', async () => {
    const run = await runCli([
      'answer',
      turn(),
      '--server',
      FAULT_SERVER,
      '--validate-args',
      '--allow-errors',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).parts).toHaveLength(4);
    expect(expectOneLine(run.stderr)).toContain('3 of 4 call(s) answered with an error');
  });

  it('a call that timed out counts as an error', async () => {
    const hang = file('hang.json', turnOf({ name: 'hang' }));
    const run = await runCli(['answer', hang, '--server', FAULT_SERVER, '--timeout', '1000']);
    expect(run.code, run.stderr).toBe(1);
    expect(expectOneLine(run.stderr)).toBe(
      'gemini-mcp-kit answer: 1 of 1 call(s) answered with an error: hang (TIMEOUT)',
    );
  });

  it('every call answered with its result: exit 0, nothing on stderr', async () => {
    const ok = file('ok.json', turnOf({ name: 'hello', args: { name: 'Ada' } }));
    const run = await runCli(['answer', ok]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
  });
});

describe('enum violations name the value found and the allowed values', () => {
  it('validate: a FunctionCallingConfig mode typo in a request', async () => {
    const request = file('request.json', {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      toolConfig: { functionCallingConfig: { mode: 'AUTOMATIC' } },
    });
    const run = await runCli(['validate', request]);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toContain(
      'generate-content-request at /toolConfig/functionCallingConfig/mode: must be one of "MODE_UNSPECIFIED", "AUTO", "ANY", "NONE", "VALIDATED"; found "AUTOMATIC"',
    );
  });

  it('validate: a case slip gets a did-you-mean; a long enum lists ten and counts the rest', async () => {
    const settings = file(
      'safety.jsonl',
      [
        JSON.stringify({ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'block_none' }),
        JSON.stringify({ category: 'HARM_CATEGORY_EVERYTHING', threshold: 'BLOCK_NONE' }),
      ].join('\n'),
    );
    const run = await runCli(['validate', '-k', 'safety-setting', settings]);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toContain(
      `${settings}:1: safety-setting at /threshold: must be one of "HARM_BLOCK_THRESHOLD_UNSPECIFIED", "BLOCK_LOW_AND_ABOVE", "BLOCK_MEDIUM_AND_ABOVE", "BLOCK_ONLY_HIGH", "BLOCK_NONE", "OFF"; found "block_none" (did you mean "BLOCK_NONE"?)`,
    );
    expect(run.stdout).toMatch(
      /:2: safety-setting at \/category: must be one of ("HARM_CATEGORY_[A-Z_]+", ){9}"HARM_CATEGORY_[A-Z_]+" and 2 more; found "HARM_CATEGORY_EVERYTHING"\n/,
    );
  });
});

describe('--debug: stack traces and causes of a failure, resource use on every run', () => {
  it('tools that fail: the message, its stack, and the debug line', async () => {
    const run = await runCli(['--debug', 'tools', '--config', join(dir, 'none.json')]);
    expect(run.code).toBe(2);
    const [first] = lines(run.stderr);
    expect(first).toBe(`gemini-mcp-kit: ${join(dir, 'none.json')}: no such file`);
    expect(run.stderr).toMatch(/^CliError: .*no such file\n\s+at /m);
    expect(run.stderr).toMatch(DEBUG_LINE);
  });

  it('answer with calls answered with an error: the summary and the debug line', async () => {
    const unknown = file('unknown.json', turnOf({ name: 'nope' }));
    const run = await runCli(['--debug', 'answer', unknown]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'gemini-mcp-kit answer: 1 of 1 call(s) answered with an error: nope (UNKNOWN_FUNCTION)',
    );
    expect(run.stderr).toMatch(DEBUG_LINE);
  });

  it('a run that succeeds gets the debug line too; without --debug there is none', async () => {
    const debug = await runCli(['--debug', 'tools']);
    expect(debug.code, debug.stderr).toBe(0);
    expect(expectOneLine(debug.stderr)).toMatch(DEBUG_LINE);
    const quiet = await runCli(['tools']);
    expect(quiet.stderr).toBe('');
  });

  it('an unexpected error with --debug shows its cause chain and does not ask for --debug', async () => {
    const port = await closedPort();
    const run = await runCli(['--debug', 'chat', 'hello'], {
      env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}` },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('run with --debug');
    expect(run.stderr).toMatch(/^cause: TypeError: fetch failed$/m);
    expect(run.stderr).toMatch(/^cause: Error: connect ECONNREFUSED/m);
    expect(run.stderr).toMatch(DEBUG_LINE);
  });
});

describe('README "Configuration files": a top-level mcpServer', () => {
  it('alone it configures nothing: an error with its pointer and a did-you-mean, exit 2', async () => {
    const path = file('typo.json', { mcpServer: { hi: { command: 'node' } } });
    const run = await runCli(['tools', '--config', path]);
    expect(run.code).toBe(2);
    expect(expectOneLine(run.stderr)).toBe(
      `gemini-mcp-kit: ${path}:1:14: /mcpServer: expected {"mcpServers": {...}} (Claude Desktop, Cursor, gemini-cli) or {"servers": {...}} (VS Code) (did you mean "mcpServers"?)`,
    );
  });

  it('next to mcpServers: a warning with a did-you-mean, and the servers run', async () => {
    const path = file('stray.json', {
      mcpServers: { example: { command: process.execPath, args: [EXAMPLE_SERVER] } },
      mcpServer: {},
    });
    const run = await runCli(['tools', '--config', path]);
    expect(run.code, run.stderr).toBe(0);
    expect(expectOneLine(run.stderr)).toBe(
      `warning: [CONFIG] ${path}#/mcpServer: unknown key, ignored (did you mean "mcpServers"?)`,
    );
  });
});

/** The pids the mute server wrote: its own and its parent's (the `sh -c` wrapper). */
async function pidsFrom(path: string): Promise<[number, number]> {
  const deadline = Date.now() + 30_000;
  while (!existsSync(path) || !readFileSync(path, 'utf8').includes(' ')) {
    if (Date.now() > deadline) throw new Error(`${path} was never written`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const [pid, ppid] = readFileSync(path, 'utf8').split(' ').map(Number);
  return [pid!, ppid!];
}

describe.skipIf(process.platform === 'win32')(
  'a signal while connecting: the servers started are stopped at once',
  () => {
    for (const [signal, code, what] of [
      ['SIGINT', 130, 'interrupted (Ctrl-C)'],
      ['SIGTERM', 143, 'terminated (SIGTERM)'],
    ] as const) {
      it(`${signal} while a server never answers initialize: one line, exit ${code}, the server and its wrapper gone`, async () => {
        const pidFile = join(dir, `mute-${signal}.pid`);
        const wrapped = `mute=sh -c '"${process.execPath}" "${MUTE_SERVER}" "${pidFile}"; :'`;
        const cli = spawn(process.execPath, [CLI, 'tools', '--server', wrapped], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        cli.stderr.setEncoding('utf8').on('data', (s: string) => {
          stderr += s;
        });
        const ended = new Promise<number | null>((resolve) => cli.on('close', resolve));
        // Started: the CLI is waiting for its handshake.
        const [server, wrapper] = await pidsFrom(pidFile);
        const sent = Date.now();
        cli.kill(signal);
        expect(await ended, stderr).toBe(code);
        // Closing waits 2 s for the server to leave after stdin closes, then signals its group.
        expect(Date.now() - sent).toBeLessThan(10_000);
        expect(expectOneLine(stderr)).toBe(
          `gemini-mcp-kit: ${what} while connecting to 1 server(s); every server started was stopped`,
        );
        expect(await exited(server, 5_000), `server ${server} still running`).toBe(true);
        expect(await exited(wrapper, 5_000), `wrapper ${wrapper} still running`).toBe(true);
      }, 60_000);
    }
  },
);
