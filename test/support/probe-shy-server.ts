/**
 * A 2025 stdio server (the bitcoin example on the v1 SDK) that does not take the 2026-07-28
 * revision's `server/discover` probe as older servers are known to: with argument `exit` it
 * exits on any request before `initialize` (SDKs that terminate on it), with `ignore` it never
 * answers one. Run with `node --import tsx test/support/probe-shy-server.ts exit|ignore`.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createBitcoinServer } from '../../examples/bitcoin-server.js';

const mode = process.argv[2];
const transport = new StdioServerTransport();
await createBitcoinServer().connect(transport);
const deliver = transport.onmessage;
let initialized = false;
transport.onmessage = (message) => {
  const method = 'method' in message ? message.method : undefined;
  if (method === 'initialize') initialized = true;
  if (!initialized && method !== undefined && 'id' in message) {
    if (mode === 'exit') process.exit(0);
    return;
  }
  deliver?.(message);
};
