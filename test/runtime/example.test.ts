/** The example server (in memory and over stdio) and the `npm start` demo, run as users run it. */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type PriceSource, snapshotPriceSource } from '../../examples/price-source.js';
import { startFakeGemini } from '../support/fake-gemini.js';
import { inMemoryBitcoinClient } from '../support/runtime-servers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('example server', () => {
  it('hello greets; bitcoin_price labels the offline snapshot; an unknown currency is isError', async () => {
    const client = await inMemoryBitcoinClient();
    try {
      expect(await client.callTool({ name: 'hello', arguments: { name: 'Ada' } })).toEqual({
        content: [{ type: 'text', text: 'Hello, Ada!' }],
      });
      const price = await client.callTool({
        name: 'bitcoin_price',
        arguments: { currency: 'eur' },
      });
      expect(price.structuredContent).toEqual({
        currency: 'EUR',
        price: 90310.55,
        asOf: '2026-11-01T00:00:00Z',
        source: 'offline snapshot',
      });
      expect(price.content).toEqual([
        { type: 'text', text: '1 BTC = €90,310.55 (offline snapshot, as of 2026-11-01T00:00:00Z)' },
      ]);
      expect(
        await client.callTool({ name: 'bitcoin_price', arguments: { currency: 'XYZ' } }),
      ).toEqual({
        isError: true,
        content: [
          {
            type: 'text',
            text: 'Unknown currency "XYZ". Known currencies: CHF, EUR, GBP, JPY, USD.',
          },
        ],
      });
    } finally {
      await client.close();
    }
  });

  it('takes any price source', async () => {
    const fixed: PriceSource = {
      quote: async (currency) =>
        currency === 'SEK' ? { currency, price: 1, asOf: 'now', source: 'test source' } : undefined,
      currencies: async () => ['SEK'],
    };
    const client = await inMemoryBitcoinClient(fixed);
    try {
      const result = await client.callTool({
        name: 'bitcoin_price',
        arguments: { currency: 'SEK' },
      });
      expect(result.structuredContent).toMatchObject({ source: 'test source' });
    } finally {
      await client.close();
    }
  });

  it('the snapshot source rejects a malformed snapshot file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-snapshot-'));
    try {
      const file = join(dir, 'prices.json');
      await writeFile(file, JSON.stringify({ label: 'x', asOf: 'y', prices: { USD: 'lots' } }));
      await expect(snapshotPriceSource(file).quote('USD')).rejects.toThrow('expected {label');
      expect(await snapshotPriceSource().quote('constructor')).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

function runDemo(env: NodeJS.ProcessEnv): Promise<{ stdout: string }> {
  return promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', join(root, 'examples', 'demo.ts')],
    {
      cwd: root,
      env,
      timeout: 60_000,
    },
  );
}

describe('npm start', () => {
  it('without GEMINI_API_KEY plays the recorded turn on the real server, offline', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.GEMINI_API_KEY;
    const { stdout } = await runDemo(env);
    expect(stdout).toContain('Gemini tools (each declaration validated');
    expect(stdout).toContain('"name": "bitcoin_price"');
    expect(stdout).toContain(
      'Model turn 1 (recorded: examples/recorded-turn.json, not a live call)',
    );
    expect(stdout).toContain('"id": "call-bitcoin-eur"');
    expect(stdout).toContain('"source": "offline snapshot"');
    expect(stdout).toContain('"output": "Hello, Ada!"');
    expect(stdout).toContain('Next request: valid GenerateContentRequest (3 contents)');
    expect(stdout).toContain('The recorded turn ends here.');
  }, 60_000);

  it('with GEMINI_API_KEY plays the live turn through @google/genai (here against a local fake)', async () => {
    const recorded = JSON.parse(
      await readFile(join(root, 'examples', 'recorded-turn.json'), 'utf8'),
    ) as object;
    const fake = await startFakeGemini([
      { response: recorded },
      {
        response: {
          candidates: [
            { content: { role: 'model', parts: [{ text: 'Hello Ada! 1 BTC is €90,310.55.' }] } },
          ],
        },
      },
    ]);
    try {
      const { stdout } = await runDemo({
        ...process.env,
        GEMINI_API_KEY: 'test-key',
        GOOGLE_GEMINI_BASE_URL: fake.baseUrl,
      });
      expect(stdout).toContain('Model turn 1 (live, gemini-2.5-flash)');
      expect(stdout).toContain('"source": "offline snapshot"');
      expect(stdout).toContain('model: Hello Ada! 1 BTC is €90,310.55.');
      expect(fake.requests).toHaveLength(2);
      expect(fake.requests[0]?.apiKey).toBe('test-key');
    } finally {
      await fake.close();
    }
  }, 60_000);
});
