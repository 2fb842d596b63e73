/**
 * Issue 35 item 4: `chat` asks before a call that may destroy or reach out (every call of an
 * untrusted server): declined off a terminal (said on stderr, the model told), skipped with
 * `--yes` or for a trusted server's read-only tools, and asked on a real pseudo-terminal, the
 * tool's title, server and escaped arguments shown. The built CLI, the bundled example server
 * over stdio, the scripted Gemini endpoint.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini.js';
import { CLI, EXAMPLE_SERVER, runCli, tempDir } from './helpers.js';

const UNTRUSTED = `ex=${process.execPath} ${EXAMPLE_SERVER}`;

const reply = (parts: object[]) => ({
  response: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] },
});

/** The functionResponses of the request that answered the model's first turn. */
const answered = (fake: FakeGemini) =>
  (
    fake.requests[1]!.body as {
      contents: { parts: { functionResponse: { name: string; response: object } }[] }[];
    }
  ).contents[2]!.parts.map((part) => part.functionResponse);

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const temp = tempDir();
afterAll(() => temp.remove());

describe('issue 35: chat off a terminal', () => {
  const env = () => ({ GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake!.baseUrl });

  it('issue 35: a call of an untrusted server is declined, said on stderr, and the model gets the denial as its one response', async () => {
    fake = await startFakeGemini([
      reply([{ functionCall: { id: 'c1', name: 'hello', args: { name: 'Ada' } } }]),
      reply([{ text: 'Not allowed.' }]),
    ]);
    const declined = await runCli(['chat', '--server', UNTRUSTED, 'hi'], { env: env() });
    expect(declined.code, declined.stderr).toBe(0);
    expect(declined.stdout).toBe('Not allowed.\n');
    expect(declined.stderr).toContain(
      'run "Hello" (ex/hello)? declined, not a terminal (read-only, closed world; untrusted server: its hints are not believed; --yes runs calls without asking)',
    );
    expect(answered(fake)).toEqual([
      {
        id: 'c1',
        name: 'hello',
        response: {
          error:
            'DENIED: tool "hello" on server "ex" was not run: denied (the user did not confirm this possibly destructive call)',
        },
      },
    ]);
  });

  it("issue 35: --yes runs it without asking; a trusted entry's read-only tool is not asked either", async () => {
    const call = reply([{ functionCall: { id: 'c1', name: 'hello', args: { name: 'Ada' } } }]);
    fake = await startFakeGemini([call, reply([{ text: 'Greeted.' }])]);
    const yes = await runCli(['chat', '--yes', '--server', UNTRUSTED, 'hi'], { env: env() });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).not.toContain('declined');
    expect(answered(fake)).toEqual([
      { id: 'c1', name: 'hello', response: { output: 'Hello, Ada!' } },
    ]);
    await fake.close();
    fake = await startFakeGemini([call, reply([{ text: 'Greeted.' }])]);
    const config = join(temp.dir, 'trusted.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { ex: { command: process.execPath, args: [EXAMPLE_SERVER], trust: true } },
      }),
    );
    const trusted = await runCli(['chat', '--config', config, 'hi'], { env: env() });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stderr).not.toContain('declined');
    expect(answered(fake)).toEqual([
      { id: 'c1', name: 'hello', response: { output: 'Hello, Ada!' } },
    ]);
  });
});

/** util-linux `script`: runs a command on a pseudo-terminal (Linux only). */
const SCRIPT = '/usr/bin/script';
const QUESTION = 'allow (y) or deny (n)? [n]: ';

describe('issue 35: chat asks on a real pseudo-terminal', () => {
  it.skipIf(process.platform !== 'linux' || !existsSync(SCRIPT))(
    'issue 35: each call is asked with its title, server and escaped arguments; y runs it, n denies it',
    async () => {
      fake = await startFakeGemini([
        reply([{ functionCall: { id: 'c1', name: 'hello', args: { name: 'Ada\x1b[2J' } } }]),
        reply([{ functionCall: { id: 'c2', name: 'bitcoin_price', args: { currency: 'EUR' } } }]),
        reply([{ text: 'One greeting, no price.' }]),
      ]);
      const command = [process.execPath, CLI, 'chat', '--server', UNTRUSTED, 'hi']
        .map((word) => `'${word}'`)
        .join(' ');
      const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.baseUrl },
      });
      let output = '';
      const answers = ['y', 'n'];
      let asked = 0;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        const questions = output.split(QUESTION).length - 1;
        while (asked < questions && asked < answers.length) {
          child.stdin.write(`${answers[asked++]}\r`);
        }
      });
      const stuck = setTimeout(() => child.kill(), 40_000); // ends script and, by hangup, the CLI
      const code = await new Promise((resolve) => child.on('close', resolve));
      clearTimeout(stuck);
      expect(code, output).toBe(0);
      expect(asked).toBe(2);
      expect(output).toContain(
        'run "Hello" (ex/hello)? read-only, closed world; untrusted server: its hints are not believed',
      );
      expect(output).toContain('arguments: {"name":"Ada\\u001b[2J"}');
      expect(output).not.toContain('Ada\x1b[2J');
      expect(output).toContain('run "Bitcoin price" (ex/bitcoin_price)?');
      expect(output).toContain('One greeting, no price.');
      const [first, second] = fake.requests.slice(1).map((request) => {
        const { contents } = request.body as {
          contents: { parts: { functionResponse?: { response: object } }[] }[];
        };
        return contents.at(-1)!.parts[0]!.functionResponse!.response;
      });
      expect(first).toEqual({ output: 'Hello, Ada\x1b[2J!' });
      expect(second).toEqual({
        error:
          'DENIED: tool "bitcoin_price" on server "ex" was not run: denied (the user did not confirm this possibly destructive call)',
      });
    },
  );
});
