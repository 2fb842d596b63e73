/**
 * CC-9: the CLI answers a server's request for input: declined when not on a terminal (the
 * built CLI, run as a user runs it, stdin a pipe), asked field by field on a terminal (the
 * prompt driven through stand-in TTY streams).
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { terminalElicitation } from '../../src/cli/servers/elicit-prompt.js';
import type {
  ElicitationAnswer,
  ElicitationQuery,
} from '../../src/runtime/mcp/features/elicitation.js';
import { formFields } from '../../src/runtime/mcp/features/elicitation.js';
import { BOOKING_FORM, DEFAULTS_FORM } from '../support/capability-server.mjs';
import { CLI, ROOT, runCli, tempDir } from './helpers.js';

const CAPABILITY_SERVER = join(ROOT, 'test', 'support', 'capability-server.mjs');

describe('CC-9: the CLI declines elicitation when not on a terminal', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  it('CC-9: answer: a tool that asks for input gets "decline" (not "Method not found"), said on stderr', async () => {
    const turn = join(temp.dir, 'turn.json');
    writeFileSync(
      turn,
      JSON.stringify({
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { id: 'c1', name: 'book', args: {} } }],
            },
          },
        ],
      }),
    );
    const run = await runCli([
      'answer',
      turn,
      '--server',
      `caps=${process.execPath} ${CAPABILITY_SERVER}`,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const content = JSON.parse(run.stdout);
    expect(content.parts[0].functionResponse).toMatchObject({
      id: 'c1',
      name: 'book',
      response: { output: '{"action":"decline"}' },
    });
    expect(run.stderr).toContain(
      'server "caps" asked for input (Where to?): declined, not a terminal',
    );
  });
});

/** util-linux `script`: runs a command on a pseudo-terminal (Linux only). */
const SCRIPT = '/usr/bin/script';

describe('CC-9: the CLI asks on a real pseudo-terminal', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  it.skipIf(process.platform !== 'linux' || !existsSync(SCRIPT))(
    'CC-9: answer on a TTY: the form is asked, answers typed ahead are kept, the tool gets them',
    async () => {
      const turn = join(temp.dir, 'turn.json');
      writeFileSync(
        turn,
        JSON.stringify({
          candidates: [
            { content: { role: 'model', parts: [{ functionCall: { name: 'book', args: {} } }] } },
          ],
        }),
      );
      const command = [process.execPath, CLI, 'answer', turn, '--server']
        .map((word) => `'${word}'`)
        .join(' ');
      const server = `'caps=${process.execPath} ${CAPABILITY_SERVER}'`;
      const child = spawn(SCRIPT, ['-qfec', `${command} ${server}`, '/dev/null'], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      let typed = false;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (!typed && output.includes('cancel (c)? [a]: ')) {
          typed = true;
          child.stdin.write('a\rLyon\r\r1,2\r'); // all at once: the form's lines typed ahead
        }
      });
      const stuck = setTimeout(() => child.kill(), 40_000); // ends script and, by hangup, the CLI
      const code = await new Promise((resolve) => child.on('close', resolve));
      clearTimeout(stuck);
      expect(code, output).toBe(0);
      expect(output).toContain('server "caps" asks: Where to?');
      expect(output).toContain('2) Parking');
      const json = output.slice(output.indexOf('{\r\n  "role"')).replaceAll('\r', '');
      expect(JSON.parse(json).parts[0].functionResponse.response.output).toBe(
        JSON.stringify({
          action: 'accept',
          content: { city: 'Lyon', nights: 1, extras: ['breakfast', 'parking'] },
        }),
      );
    },
  );
});

/** Stand-in terminal streams: lines typed on stdin, everything written to stderr kept. */
function fakeTerminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stderr = Object.assign(new PassThrough(), { isTTY: true });
  let written = '';
  let all = '';
  stderr.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
    all += chunk.toString('utf8');
  });
  return {
    io: { stdin, stderr },
    /** Types `line` once the prompt has written `waitFor` (since the last type). */
    async type(waitFor: string, line: string): Promise<void> {
      await expect.poll(() => written.includes(waitFor), { timeout: 5000 }).toBe(true);
      written = written.slice(written.indexOf(waitFor) + waitFor.length);
      stdin.write(`${line}\n`);
    },
    written: () => written,
    all: () => all,
  };
}

const context = () => ({ serverId: 'caps', signal: new AbortController().signal });

function formQuery(message: string, schema: Record<string, unknown>): ElicitationQuery {
  return { mode: 'form', message, fields: formFields(schema), requestedSchema: schema };
}

describe('CC-9: the CLI asks on a terminal', () => {
  it('CC-9: one question per field, defaults shown and taken on an empty line, bad answers asked again', async () => {
    const terminal = fakeTerminal();
    const { onElicitation } = terminalElicitation(terminal.io);
    const answer = Promise.resolve(onElicitation(formQuery('Where to?', BOOKING_FORM), context()));
    await terminal.type('answer (a), decline (d) or cancel (c)? [a]: ', '');
    await terminal.type('City*: ', '');
    await terminal.type('a value is required', 'X');
    await terminal.type('expected text of at least 2 characters', 'Lyon');
    await terminal.type('Nights* (whole number >= 1 <= 30) [1]: ', '40');
    await terminal.type('expected a whole number <= 30', '3');
    await terminal.type('Extras (numbers or values, comma-separated): ', '2, spa');
    await terminal.type('expected a list of: "breakfast", "parking"', '2, breakfast');
    await expect(answer).resolves.toEqual({
      action: 'accept',
      content: { city: 'Lyon', nights: 3, extras: ['parking', 'breakfast'] },
    } satisfies ElicitationAnswer);
  });

  it('CC-9: empty lines keep every default (the defaults form); yes/no and choices by number', async () => {
    const terminal = fakeTerminal();
    const { onElicitation } = terminalElicitation(terminal.io);
    const answer = Promise.resolve(onElicitation(formQuery('Defaults', DEFAULTS_FORM), context()));
    await terminal.type('[a]: ', 'a');
    await terminal.type('[John Doe]: ', '');
    await terminal.type('[30]: ', '');
    await terminal.type('[95.5]: ', '');
    await terminal.type('[active]: ', '3');
    await terminal.type('(y/n) [true]: ', 'n');
    await expect(answer).resolves.toEqual({
      action: 'accept',
      content: { status: 'pending', verified: false },
    });
  });

  it.each([
    ['d', { action: 'decline' }],
    ['c', { action: 'cancel' }],
  ])('CC-9: "%s" at the first question answers without a form', async (typed, expected) => {
    const terminal = fakeTerminal();
    const { onElicitation } = terminalElicitation(terminal.io);
    const answer = Promise.resolve(onElicitation(formQuery('Where to?', BOOKING_FORM), context()));
    await terminal.type('[a]: ', typed);
    await expect(answer).resolves.toEqual(expected);
  });

  it('CC-9: the server giving up (its signal) cancels the form; server text is shown escaped', async () => {
    const terminal = fakeTerminal();
    const { onElicitation } = terminalElicitation(terminal.io);
    const controller = new AbortController();
    const answer = Promise.resolve(
      onElicitation(formQuery('evil\x1b[2J', BOOKING_FORM), {
        serverId: 'caps',
        signal: controller.signal,
      }),
    );
    await terminal.type('[a]: ', '');
    await expect.poll(() => terminal.written().includes('City*')).toBe(true);
    controller.abort();
    await expect(answer).resolves.toEqual({ action: 'cancel' });
    expect(terminal.written()).toContain('(cancelled)');
    expect(terminal.all()).toContain('server "caps" asks: evil\\x1b[2J');
    expect(terminal.all()).not.toContain('evil\x1b');
  });
});
