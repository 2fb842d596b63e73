/**
 * The example MCP server `gemini-mcp-kit tools`, `answer` and `chat` use when no server is given:
 * `hello(name)` and `bitcoin_price(currency)` over stdio, prices from a fixed offline snapshot
 * (no network). The same tools as examples/bitcoin-server.ts, written against the v2 SDK's
 * low-level `Server` (`@modelcontextprotocol/server`) with plain JSON Schemas so it ships
 * compiled in dist/. Served by `serveStdio`, it speaks both revisions: a client that probes with
 * `server/discover` gets 2026-07-28, one that opens with `initialize` the 2025 handshake. Run:
 * `node dist/cli/example-server.js`.
 */
import { Server, type Tool } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

/** Illustrative prices frozen here so the example runs offline; not live market data. */
const SNAPSHOT = {
  label: 'offline snapshot',
  asOf: '2026-11-01T00:00:00Z',
  prices: { USD: 98250.12, EUR: 90310.55, GBP: 77640.3, JPY: 14876000, CHF: 86490.8 } as Record<
    string,
    number
  >,
};

/** Both tools read a frozen snapshot: they change nothing and reach nothing outside. */
const READ_ONLY = { readOnlyHint: true, openWorldHint: false };

const TOOLS: Tool[] = [
  {
    name: 'hello',
    title: 'Hello',
    description: 'Greets a person by name.',
    annotations: READ_ONLY,
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The name of the person to greet.' } },
      required: ['name'],
    },
  },
  {
    name: 'bitcoin_price',
    title: 'Bitcoin price',
    description: 'The current price of one bitcoin in a currency.',
    annotations: READ_ONLY,
    inputSchema: {
      type: 'object',
      properties: {
        currency: { type: 'string', description: 'ISO 4217 currency code, e.g. USD or EUR.' },
      },
      required: ['currency'],
    },
    outputSchema: {
      type: 'object',
      properties: {
        currency: { type: 'string' },
        price: { type: 'number' },
        asOf: { type: 'string' },
        source: { type: 'string' },
      },
      required: ['currency', 'price', 'asOf', 'source'],
    },
  },
];

const text = (value: string, isError = false) => ({
  content: [{ type: 'text' as const, text: value }],
  ...(isError ? { isError: true } : {}),
});

/** Builds one instance of the example server (not yet connected); `serveStdio` makes one per era it serves. */
export function createExampleServer(): Server {
  const server = new Server(
    { name: 'gemini-mcp-kit-example', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler('tools/list', async () => ({ tools: TOOLS }));
  server.setRequestHandler('tools/call', async (request) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (request.params.name === 'hello') {
      if (typeof args.name !== 'string') return text('"name" must be a string.', true);
      return text(`Hello, ${args.name}!`);
    }
    if (request.params.name === 'bitcoin_price') {
      if (typeof args.currency !== 'string') return text('"currency" must be a string.', true);
      const code = args.currency.trim().toUpperCase();
      const price = Object.hasOwn(SNAPSHOT.prices, code) ? SNAPSHOT.prices[code] : undefined;
      if (price === undefined) {
        const known = Object.keys(SNAPSHOT.prices).sort().join(', ');
        return text(`Unknown currency "${args.currency}". Known currencies: ${known}.`, true);
      }
      const quote = { currency: code, price, asOf: SNAPSHOT.asOf, source: SNAPSHOT.label };
      const shown = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).format(
        price,
      );
      return {
        ...text(`1 BTC = ${shown} (${SNAPSHOT.label}, as of ${SNAPSHOT.asOf})`),
        structuredContent: quote,
      };
    }
    return text(`Unknown tool "${request.params.name}".`, true);
  });
  return server;
}

serveStdio(createExampleServer);
