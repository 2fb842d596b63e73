/**
 * Issue 38 item 4 (integration tier, `npm run test:integration`: it runs the built CLI): every
 * string from a server or the model that reaches the terminal goes through the CLI's one
 * escaping function (`terminalSafe`). `chat` printed the model's final answer raw (an OSC 52
 * clipboard write, a clear screen, a right-to-left override), notices about unknown fields
 * printed field names raw in `chat` and `answer`, the `tools --format table` summary printed
 * server ids raw, warning lines quoted a pointer of any length, and JSON output carried the C1
 * controls and bidirectional overrides JSON.stringify leaves as they are.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/build.js';
import { EXAMPLE_SERVER, runCli, tempDir } from '../cli/helpers.js';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini.js';

beforeAll(ensureBuilt, 300_000);
const work = tempDir();
let fake: FakeGemini | undefined;
afterAll(async () => {
  await fake?.close();
  work.remove();
});

/** What a terminal acts on: ESC, BEL, C1 controls, bidirectional overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const TERMINAL_CONTROLS = /[\u001b\u0007\u0080-\u009f\u202a-\u202e\u2066-\u2069]/u;

/** An OSC 52 clipboard write, a clear screen and a right-to-left override, between two lines. */
const HOSTILE_ANSWER = 'Done.\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x1b[H\nfile: \u202etxt.exe\tsize: 1';

const answerTurn = (text: string, extra: object = {}) => ({
  response: {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', ...extra }],
  },
});

async function chat(args: string[], reply: object) {
  await fake?.close();
  fake = await startFakeGemini([reply as { response: object }]);
  return runCli(['chat', ...args, 'hi'], {
    env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.baseUrl },
  });
}

describe('issue 38 item 4: chat escapes the final answer', () => {
  it('an answer with OSC 52, clear screen and RTL override: escaped on stdout, lines and tabs kept', async () => {
    const run = await chat([], answerTurn(HOSTILE_ANSWER));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stdout).toBe(
      'Done.\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[2J\\x1b[H\nfile: \\u202etxt.exe\tsize: 1\n',
    );
  });

  it('--raw: the answer as the model sent it, byte for byte', async () => {
    const run = await chat(['--raw'], answerTurn(HOSTILE_ANSWER));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${HOSTILE_ANSWER}\n`);
  });

  it("an unknown finish reason naming controls: the model's notice is escaped on stderr", async () => {
    const run = await chat([], answerTurn('ok', { finishReason: 'STOP\u202e\u0085' }));
    expect(run.stdout).toBe('ok\n');
    expect(run.stderr).toContain('is unknown to');
    expect(run.stderr).not.toMatch(TERMINAL_CONTROLS);
  });
});

describe('issue 38 item 4: answer escapes and bounds its notices', () => {
  it('an unknown field named with escapes, 5,000 characters long: escaped, pointer and message bounded', async () => {
    const field = `\x1b]52;c;ZXZpbA==\x07\u202e${'x'.repeat(5000)}`;
    const file = join(work.dir, 'turn.json');
    writeFileSync(
      file,
      JSON.stringify({
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { id: 'c1', name: 'hello', args: { name: 'Ada' } } }],
            },
            [field]: 1,
          },
        ],
      }),
    );
    const run = await runCli(['answer', file]);
    expect(run.code, run.stderr).toBe(0);
    const notice = run.stderr.split('\n').find((line) => line.includes(' at /candidates/0/'));
    expect(notice).toBeDefined();
    expect(notice).not.toMatch(TERMINAL_CONTROLS);
    expect(notice).toContain('\\x1b]52;c;ZXZpbA==\\x07\\u202e');
    expect(notice).toContain('more characters)');
    expect(notice!.length).toBeLessThan(1600);
  });
});

describe('issue 38 item 4: JSON output escapes what JSON.stringify leaves raw', () => {
  it("answer's Content: a tool's output with an RTL override and a C1 CSI is \\u-escaped, and reads back the same", async () => {
    const name = 'Ada\u202e\u009b2J';
    const file = join(work.dir, 'call.json');
    writeFileSync(
      file,
      JSON.stringify({
        role: 'model',
        parts: [{ functionCall: { id: 'c1', name: 'hello', args: { name } } }],
      }),
    );
    const run = await runCli(['answer', file]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stdout).toContain('Ada\\u202e\\u009b2J');
    const content = JSON.parse(run.stdout) as {
      parts: { functionResponse: { response: { output: string } } }[];
    };
    expect(content.parts[0]!.functionResponse.response.output).toBe(`Hello, ${name}!`);
  });
});

describe('issue 38 item 4: tools --format table escapes server ids in its summary', () => {
  it('a server id with an OSC title write and an RTL override: escaped in the table and the summary', async () => {
    const id = '\x1b]0;pwned\x07ev\u202eil';
    const config = join(work.dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { [id]: { command: process.execPath, args: [EXAMPLE_SERVER] } },
      }),
    );
    const run = await runCli(['tools', '--format', 'table', '--config', config]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stdout).toContain('server(s): \\x1b]0;pwned\\x07ev\\u202eil;');
  });
});
