/** The example server (in memory and over stdio) and the `npm start` demo, run as users run it. */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { type PriceSource, snapshotPriceSource } from '../../examples/price-source.js';
import { startFakeGemini } from '../support/fake-gemini.js';
import { EUR_QUOTE, inMemoryBitcoinClient } from '../support/runtime-servers.js';

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

/** The two example servers, each run over stdio as its users run it (through tsx's loader). */
const STDIO_EXAMPLES = [
  {
    name: 'examples/bitcoin-server.ts (npm start)',
    script: join(root, 'examples', 'bitcoin-server.ts'),
  },
  {
    name: 'src/cli/example-server.ts (the CLI default)',
    script: join(root, 'src', 'cli', 'example-server.ts'),
  },
];

const CLIENT_INFO = { name: 'gemini-mcp-tests', version: '0.0.0' };

/**
 * A client of either SDK on the example server: v1 opens with the 2025 `initialize` (the
 * server's name arrives in its result), v2 with `versionNegotiation: {mode: 'auto'}` probes with
 * `server/discover` first (and says which revision it got).
 */
function exampleClient(script: string, sdk: 'v1' | 'v2') {
  const params = { command: process.execPath, args: ['--import', 'tsx', script], cwd: root };
  if (sdk === 'v1') {
    const client = new ClientV1(CLIENT_INFO);
    return {
      client,
      connect: () => client.connect(new StdioV1(params)),
      handshake: () => ({ serverName: client.getServerVersion()?.name }),
    };
  }
  const client = new ClientV2(CLIENT_INFO, { versionNegotiation: { mode: 'auto' } });
  return {
    client,
    connect: () => client.connect(new StdioV2(params)),
    handshake: () => ({
      era: client.getProtocolEra(),
      revision: client.getNegotiatedProtocolVersion(),
    }),
  };
}

describe('the example servers serve both revisions over stdio', () => {
  for (const { name, script } of STDIO_EXAMPLES) {
    it(`${name}: a v1 client gets the 2025 handshake, a v2 client 2026-07-28, and both get the same quote`, async () => {
      for (const [sdk, handshake] of [
        ['v1', { serverName: expect.stringMatching(/example/) }],
        ['v2', { era: 'modern', revision: '2026-07-28' }],
      ] as const) {
        const opened = exampleClient(script, sdk);
        const { client } = opened;
        await opened.connect();
        try {
          expect(opened.handshake()).toEqual(handshake);
          const { tools } = await client.listTools();
          expect(tools.map((tool) => tool.name).sort()).toEqual(['bitcoin_price', 'hello']);
          const quote = await client.callTool({
            name: 'bitcoin_price',
            arguments: { currency: 'EUR' },
          });
          expect(quote.structuredContent).toEqual(EUR_QUOTE);
        } finally {
          await client.close();
        }
      }
    }, 60_000);
  }
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
