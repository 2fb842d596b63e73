/**
 * Issue 36 item 5: `gemini-mcp-kit live`, the built CLI against the scripted Live endpoint
 * (GOOGLE_GEMINI_BASE_URL), two MCP servers over stdio: a line of stdin is a turn, the model's
 * text goes to stdout (escaped), each tool call, progress notification and response to stderr as
 * it happens.
 */
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type LiveEndpoint, startLiveEndpoint } from '../support/live-endpoint.js';
import { ensureBuilt } from './build.js';
import { ROOT, runCli } from './helpers.js';

const SERVER = join(ROOT, 'test', 'support', 'live-server.mjs');

let endpoint: LiveEndpoint | undefined;
afterEach(async () => {
  await endpoint?.stop();
  endpoint = undefined;
});

describe('issue 36: gemini-mcp-kit live', () => {
  beforeAll(ensureBuilt, 300_000);

  it('text in, text out: tool calls, progress and responses on stderr as they happen, terminal strings escaped', async () => {
    let turn: unknown;
    endpoint = await startLiveEndpoint(async (c) => {
      await c.next();
      c.send({ setupComplete: {} });
      turn = await c.next();
      c.send({
        toolCall: {
          functionCalls: [
            { id: 's1', name: 'survey', args: { steps: 3, stepMs: 40 } },
            { id: 'f1', name: 'add', args: { a: 2, b: 3 } },
          ],
        },
      });
      for (let finals = 0; finals < 2; ) {
        const frame = await c.next();
        const responses =
          (frame.toolResponse as { functionResponses: { willContinue?: boolean }[] })
            ?.functionResponses ?? [];
        finals += responses.filter((r) => r.willContinue !== true).length;
      }
      c.send({
        serverContent: { modelTurn: { role: 'model', parts: [{ text: 'Five.\u001b[2K' }] } },
      });
      c.send({ serverContent: { turnComplete: true } });
    });
    const run = await runCli(
      [
        'live',
        '--server',
        `fast=${process.execPath} ${SERVER} fast`,
        '--server',
        `slow=${process.execPath} ${SERVER} slow`,
        '--progress-interval',
        '30',
      ],
      {
        input: 'Survey, and add 2 and 3.\n',
        env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: endpoint.baseUrl },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(turn).toEqual({
      clientContent: {
        turns: [{ role: 'user', parts: [{ text: 'Survey, and add 2 and 3.' }] }],
        turnComplete: true,
      },
    });
    expect(run.stdout).toBe('Five.\\x1b[2K\n');
    const lines = run.stderr.split('\n');
    const at = (line: string) => lines.indexOf(line);
    expect(at('-> survey (s1) non-blocking')).toBeGreaterThan(-1);
    expect(at('-> add (f1)')).toBeGreaterThan(-1);
    expect(at('<- add (f1)')).toBeGreaterThan(at('-> add (f1)'));
    expect(at('.. survey (s1) 1/3 step 1 of 3')).toBeGreaterThan(-1);
    expect(at('<- survey (s1) WHEN_IDLE')).toBeGreaterThan(at('<- add (f1)'));
    expect(endpoint.violations).toEqual([]);
  }, 60_000);
});
