/**
 * Issue 35 item 4: the CLI's approval prompt driven through stand-in terminal streams (the real
 * pty is test/cli/approval-prompt.test.ts): one question at a time, shared with elicitation
 * forms; a call whose decision is no longer wanted, or an ended stdin, is declined.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { terminalApproval } from '../../src/cli/servers/approval-prompt.js';
import { terminalElicitation } from '../../src/cli/servers/elicit-prompt.js';
import type { ToolCallCheck } from '../../src/runtime/turn/approval.js';

function terminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stderr = Object.assign(new PassThrough(), { isTTY: true });
  let written = '';
  stderr.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
  });
  return { io: { stdin, stderr }, written: () => written };
}

const check = (name: string, signal = new AbortController().signal): ToolCallCheck => ({
  serverId: 'notes',
  name,
  exposedName: name,
  callId: null,
  annotations: {},
  trusted: false,
  arguments: { id: '1' },
  signal,
});

const QUESTION = 'allow (y) or deny (n)? [n]: ';
const count = (text: string, part: string) => text.split(part).length - 1;

describe('issue 35: the approval prompt on a terminal', () => {
  it('issue 35: two calls, and an elicitation form, are asked one after another, never together', async () => {
    const { io, written } = terminal();
    const approve = terminalApproval(io);
    const first = Promise.resolve(approve(check('delete_note')));
    const second = Promise.resolve(approve(check('post_note')));
    const form = Promise.resolve(
      terminalElicitation(io).onElicitation(
        { mode: 'url', message: 'Sign in', url: 'https://example.com/', elicitationId: 'e1' },
        { serverId: 'notes', signal: new AbortController().signal },
      ),
    );
    await expect.poll(() => count(written(), QUESTION)).toBe(1);
    expect(written()).toContain('run notes/delete_note? may destroy data, open world');
    expect(written()).not.toContain('post_note');
    io.stdin.write('y\n');
    await expect(first).resolves.toEqual({ action: 'allow' });
    await expect.poll(() => count(written(), QUESTION)).toBe(2);
    expect(written()).not.toContain('Sign in');
    io.stdin.write('n\n');
    await expect(second).resolves.toMatchObject({ action: 'deny' });
    await expect.poll(() => written().includes('server "notes" asks: Sign in')).toBe(true);
    io.stdin.write('d\n');
    await expect(form).resolves.toEqual({ action: 'decline' });
  });

  it('issue 35: the decision no longer wanted (its signal) declines the call, said on the terminal', async () => {
    const { io, written } = terminal();
    const controller = new AbortController();
    const answer = Promise.resolve(terminalApproval(io)(check('delete_note', controller.signal)));
    await expect.poll(() => written().includes(QUESTION)).toBe(true);
    controller.abort();
    await expect(answer).resolves.toMatchObject({ action: 'deny' });
    expect(written()).toContain('(declined)');
  });
});
