/**
 * The blog's MCP server in TypeScript: `hello(name)` and `bitcoin_price(currency)`, built with
 * the MCP SDK's v2 server package. Run it over stdio with `npx tsx examples/bitcoin-server.ts`
 * (`serveStdio`: 2026-07-28 for a client that probes with `server/discover`, the 2025 handshake
 * for one that sends `initialize`), or embed it with {@link createBitcoinServer} and any
 * transport.
 */
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { type PriceSource, snapshotPriceSource } from './price-source.js';

/** Options of {@link createBitcoinServer}. */
export interface BitcoinServerOptions {
  /** Where prices come from; default: the offline snapshot shipped with the example. */
  prices?: PriceSource;
}

function formatPrice(price: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(price);
}

/**
 * Builds the example server (not yet connected to a transport).
 *
 * @example
 * ```ts
 * serveStdio(() => createBitcoinServer()); // both revisions over stdio
 * ```
 */
export function createBitcoinServer(options: BitcoinServerOptions = {}): McpServer {
  const prices = options.prices ?? snapshotPriceSource();
  const server = new McpServer({ name: 'bitcoin-example', version: '1.0.0' });

  server.registerTool(
    'hello',
    {
      description: 'Greets a person by name.',
      inputSchema: z.object({ name: z.string().describe('The name of the person to greet.') }),
    },
    async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  );

  server.registerTool(
    'bitcoin_price',
    {
      description: 'The current price of one bitcoin in a currency.',
      inputSchema: z.object({
        currency: z.string().describe('ISO 4217 currency code, e.g. USD or EUR.'),
      }),
      outputSchema: z.object({
        currency: z.string(),
        price: z.number(),
        asOf: z.string(),
        source: z.string(),
      }),
    },
    async ({ currency }) => {
      const quote = await prices.quote(currency);
      if (quote === undefined) {
        const known = (await prices.currencies()).join(', ');
        return {
          isError: true,
          content: [
            { type: 'text', text: `Unknown currency "${currency}". Known currencies: ${known}.` },
          ],
        };
      }
      const text = `1 BTC = ${formatPrice(quote.price, quote.currency)} (${quote.source}, as of ${quote.asOf})`;
      return { content: [{ type: 'text', text }], structuredContent: { ...quote } };
    },
  );

  return server;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  serveStdio(() => createBitcoinServer());
}
