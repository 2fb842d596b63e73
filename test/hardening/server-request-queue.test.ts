/**
 * Issue 38 item 5 (integration tier, `npm run test:integration`: it starts a server process):
 * the answers a server's requests wait for are bounded per server. A server that stops reading
 * its stdin and sends 5,000 `roots/list` requests used to make the client hold every answer
 * (about 500 MiB with 1,000 roots); now at most `maxPendingServerRequests` (default 64) wait,
 * and each request past them is refused at once with JSON-RPC error -32010. Every request still
 * gets exactly one answer.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { connectReapedAfterEach } from '../support/runtime-servers.js';

const connectServers = connectReapedAfterEach();

const STALLING_SERVER = join(import.meta.dirname, 'children', 'stalling-server.mjs');

/** 1,000 roots: each `roots/list` answer is about 60 KB, a pipe's worth. */
const ROOTS = Array.from({ length: 1000 }, (_, i) => ({
  uri: `file:///home/user/projects/project-${i}`,
  name: `project ${i}`,
}));

interface Answers {
  results: number;
  errors: Record<string, number>;
}

async function flood(method: string, options: { maxPendingServerRequests?: number } = {}) {
  const c = await connectServers(
    {
      mcpServers: {
        stalling: {
          command: process.execPath,
          args: [STALLING_SERVER],
          env: { COUNT: '5000', METHOD: method, STALL_MS: '1500' },
        },
      },
    },
    { capabilities: { roots: ROOTS }, ...options },
  );
  // The tool call is read once the server reads again, after every flooded request's answer.
  const result = await c.clients.get('stalling')!.callTool({ name: 'answers', arguments: {} });
  return JSON.parse((result.content as { text: string }[])[0]!.text) as Answers;
}

describe('issue 38 item 5: a server that stops reading cannot make the client hold its answers', () => {
  it('5,000 roots/list: about 64 answered with the roots, the rest refused -32010, each once', async () => {
    const answers = await flood('roots/list');
    expect(answers.results + (answers.errors['-32010'] ?? 0)).toBe(5000);
    // The 64 waiting, plus the few whose answers the pipe took before it filled.
    expect(answers.results).toBeGreaterThanOrEqual(64);
    expect(answers.results).toBeLessThan(100);
    expect(Object.keys(answers.errors)).toEqual(['-32010']);
  }, 60_000);

  it('pings count too, and maxPendingServerRequests sets the cap', async () => {
    const answers = await flood('ping', { maxPendingServerRequests: 8 });
    expect(answers.results + (answers.errors['-32010'] ?? 0)).toBe(5000);
    expect(answers.errors['-32010']).toBeGreaterThan(0);
  }, 60_000);

  it('maxPendingServerRequests out of range: INVALID_INPUT naming the option, nothing started', async () => {
    const refused = await connectServers(
      { mcpServers: { stalling: { command: process.execPath, args: [STALLING_SERVER] } } },
      { maxPendingServerRequests: 0 },
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GeminiMcpError);
    expect(refused).toMatchObject({ code: 'INVALID_INPUT' });
    expect((refused as Error).message).toContain('maxPendingServerRequests');
  });
});
