/**
 * Issue 38 (item 6, stdio half; integration tier: it starts a server process): a large stdio
 * line costs time linear in its size. The SDK's line buffer (which our stdio transport used)
 * concatenated every chunk onto the bytes before it, so a 32 MB line cost 8-10.5 s of CPU, 52-66
 * times a 4 MB one. The test counts the bytes copied while a line arrives (every
 * `Buffer.concat`), not time: a linear reader copies each byte a bounded number of times.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProcessGroupStdioTransport } from '../../src/runtime/mcp/transports/stdio.js';

/** A server that writes one JSON-RPC response of about `bytes` bytes, in pieces, then waits. */
function writer(bytes: number, result: string): string {
  return `
const pad = 'x'.repeat(${bytes});
const line = JSON.stringify({ jsonrpc: '2.0', id: 1, result: ${result} }) + '\\n';
let at = 0;
const next = () => {
  while (at < line.length) {
    const piece = line.slice(at, at + 65536);
    at += piece.length;
    if (!process.stdout.write(piece)) return process.stdout.once('drain', next);
  }
};
next();
setInterval(() => {}, 1000);
`;
}

async function readOne(
  bytes: number,
  result: string,
): Promise<{ message: unknown; copied: number }> {
  const concat = Buffer.concat;
  let copied = 0;
  const spy = vi.spyOn(Buffer, 'concat').mockImplementation((list, length) => {
    const joined = concat(list, length);
    copied += joined.byteLength;
    return joined;
  });
  const transport = new ProcessGroupStdioTransport({
    command: process.execPath,
    args: ['-e', writer(bytes, result)],
    stderr: 'ignore',
    maxBufferSize: 64 * 1024 * 1024,
  });
  try {
    const message = await new Promise((resolve, reject) => {
      transport.onmessage = resolve;
      transport.onerror = reject;
      transport.start().catch(reject);
    });
    return { message, copied };
  } finally {
    spy.mockRestore();
    await transport.close();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('issue 38 item 6: a large stdio line is read in linear time', () => {
  it('a 16 MB line arriving in 64 KB pieces is copied at most twice over, not once per piece', async () => {
    const size = 16 * 1024 * 1024;
    const { message, copied } = await readOne(size, '{ text: pad }');
    expect((message as { result: { text: string } }).result.text.length).toBe(size);
    // Quadratic: about size * pieces / 2 = 2 GiB. Linear: the line once (plus slack).
    expect(copied).toBeLessThanOrEqual(2 * size);
  }, 120_000);

  it('a large line whose result is not an object still reaches the client as a stand-in error', async () => {
    const { message } = await readOne(4 * 1024 * 1024, '[pad]');
    expect(message).toMatchObject({
      id: 1,
      error: { message: "the server's result is an array, not an object" },
    });
  }, 120_000);
});
