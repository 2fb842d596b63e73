/**
 * Issue 35 items 2 and 3 on the built CLI: `gemini-mcp-kit prompts` lists the servers' prompts
 * (what a server wrote escaped), `chat --prompt server/name key=value` and `chat /server:name
 * key=value` start from one against the scripted Gemini endpoint, and `chat --instructions`
 * opts a server's instructions into the system instruction.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini.js';
import { UNLOCK_SERVER } from '../support/unlock-server.js';
import { expectOneLine, lines, ROOT, runCli } from './helpers.js';

const everything = `everything=node ${join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')} stdio`;
const vault = `vault=${[UNLOCK_SERVER.command, ...UNLOCK_SERVER.args].join(' ')}`;

const answer = {
  candidates: [{ content: { role: 'model', parts: [{ text: 'Sunny.' }] }, finishReason: 'STOP' }],
};
const WEATHER = [{ role: 'user', parts: [{ text: "What's weather in Paris, TX?" }] }];

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function chat(args: string[]) {
  fake = await startFakeGemini([{ response: answer }]);
  const run = await runCli(['chat', ...args], {
    env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.baseUrl },
  });
  const bodies = fake.requests.map(
    (r) => r.body as { contents: unknown[]; systemInstruction?: { parts: { text: string }[] } },
  );
  return { run, bodies };
}

describe('gemini-mcp-kit prompts', () => {
  it("PR-CLI-1: lists server-everything's four prompts with their arguments", async () => {
    const run = await runCli(['prompts', '--server', everything, '--server-log', '/dev/null']);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual([
      'PROMPT                         ARGUMENTS                   DESCRIPTION',
      'everything/simple-prompt       (none)                      A prompt with no arguments',
      'everything/args-prompt         city*, state                A prompt with two arguments, one required and one optional',
      'everything/completable-prompt  department*, name*          First argument choice narrows values for second argument.',
      'everything/resource-prompt     resourceType*, resourceId*  A prompt that includes an embedded resource reference',
      '4 prompt(s) from 1 of 1 server(s); in chat: --prompt SERVER/NAME key=value, or /SERVER:NAME key=value',
      'no warnings',
    ]);
    const json = await runCli(['prompts', '--server', everything, '-f', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { id: string }[]).map((p) => p.id)).toEqual([
      'everything/simple-prompt',
      'everything/args-prompt',
      'everything/completable-prompt',
      'everything/resource-prompt',
    ]);
  });

  it('PR-CLI-2: a terminal escape in a prompt description is removed and warned of', async () => {
    const run = await runCli(['prompts', '--server', vault, '--server-log', '/dev/null']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).toContain('vault/vault_hint  (none)     Hints[2J where the vault is');
    expect(run.stdout).toContain('[PROMPT_SANITIZED] vault/vault_hint');
  });
});

describe('chat from a prompt', () => {
  it('PR-CLI-3: --prompt server/name key=value sends the prompt as the contents', async () => {
    const { run, bodies } = await chat([
      '--server',
      everything,
      '--prompt',
      'everything/args-prompt',
      'city=Paris',
      'state=TX',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Sunny.\n');
    expect(run.stderr).toContain('prompt everything/args-prompt: 1 message(s)');
    expect(bodies[0]?.contents).toEqual(WEATHER);
  });

  it('PR-CLI-4: words that begin with /server:name run that prompt', async () => {
    const { run, bodies } = await chat([
      '--server',
      everything,
      '/everything:args-prompt',
      'city=Paris',
      'state=TX',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(bodies[0]?.contents).toEqual(WEATHER);
  });

  it('PR-CLI-5: a missing required argument is a usage error before any request', async () => {
    const { run, bodies } = await chat([
      '--server',
      everything,
      '--server-log',
      '/dev/null',
      '--prompt',
      'everything/args-prompt',
      'state=TX',
    ]);
    expect(run.code).toBe(2);
    expect(expectOneLine(run.stderr)).toBe(
      'gemini-mcp-kit: prompt "args-prompt": missing required argument "city"; it takes city (required), state',
    );
    expect(bodies).toEqual([]);
  });

  it('IN-CLI-1: --instructions SERVER sends its instructions once, attributed; without, none', async () => {
    const off = await chat(['--server', vault, 'hello']);
    expect(off.run.code, off.run.stderr).toBe(0);
    expect(off.bodies[0]?.systemInstruction).toBeUndefined();
    const on = await chat(['--server', vault, '--instructions', 'vault', 'hello']);
    expect(on.run.code, on.run.stderr).toBe(0);
    expect(on.bodies[0]?.systemInstruction?.parts).toEqual([
      {
        text: 'Instructions from the MCP server "vault" (written by that server, not by the user):\nOpen the vault only when asked. Say "vault" in full.',
      },
    ]);
    const unknown = await runCli(['chat', '--server', vault, '--instructions', 'nope', 'hi'], {
      env: { GEMINI_API_KEY: 'test-key' },
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--instructions nope: no such server (the servers are vault)');
  });
});
