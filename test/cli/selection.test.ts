/**
 * Issue 31: tool selection from the command line, the built CLI against real stdio servers:
 * `tools --budget --dialect` reports what a dialect's request accepts, and `chat --max-tools N`
 * with more tools than N lets the model search them (gmk__search_tools), declaring what it found
 * from the next request.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini.js';
import { ensureBuilt } from './build.js';
import { EXAMPLE_SERVER, runCli } from './helpers.js';

const example = (name: string): string => `${name}=node ${EXAMPLE_SERVER}`;

beforeAll(ensureBuilt, 300_000);

describe('issue 31: tools --budget', () => {
  it('issue 31: --budget --dialect vertex-v1 names the dialect limits and how many tools its request declares', async () => {
    const run = await runCli([
      'tools',
      '--server',
      example('a'),
      '--server',
      example('b'),
      '--budget',
      '--dialect',
      'vertex-v1',
      '--format',
      'table',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('budget for vertex-v1: 128 declarations');
    expect(run.stdout).toMatch(/declared: 4 of 4 tool\(s\), \d+ bytes; left out: 0/);
  });
});

describe('issue 31: chat --max-tools', () => {
  let fake: FakeGemini | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('issue 31: with more tools than --max-tools, the first request declares gmk__search_tools alone and the next one the tool found', async () => {
    const turn = (parts: object[]) => ({
      response: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] },
    });
    fake = await startFakeGemini([
      turn([
        { functionCall: { id: 's1', name: 'gmk__search_tools', args: { query: 'bitcoin price' } } },
      ]),
      turn([{ functionCall: { id: 'c1', name: 'a__bitcoin_price', args: { currency: 'EUR' } } }]),
      turn([{ text: 'A bitcoin costs a lot.' }]),
    ]);
    const run = await runCli(
      [
        'chat',
        '--yes',
        '--server',
        example('a'),
        '--server',
        example('b'),
        '--max-tools',
        '2',
        'bitcoin?',
      ],
      { env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.baseUrl } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('A bitcoin costs a lot.\n');
    expect(run.stderr).toContain('4 tools, more than the 2 a request declares here');
    const declared = fake.requests.map((request) =>
      (
        (request.body as { tools?: { functionDeclarations: { name: string }[] }[] }).tools?.[0]
          ?.functionDeclarations ?? []
      ).map((d) => d.name),
    );
    expect(declared).toEqual([
      ['gmk__search_tools'],
      ['gmk__search_tools', 'a__bitcoin_price'],
      ['gmk__search_tools', 'a__bitcoin_price'],
    ]);
    expect(run.stderr).toContain('<- a__bitcoin_price');
  });

  it('issue 31: --max-tools 1 is a usage error', async () => {
    const run = await runCli(['chat', '--max-tools', '1', 'hi'], {
      env: { GEMINI_API_KEY: 'test-key' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('must be at least 2');
  });
});
