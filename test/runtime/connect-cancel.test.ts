/**
 * `connectServers`' `signal` (issue 33, item 6: Ctrl-C while the CLI is still connecting):
 * cancelling stops every connection attempt at once, closes what was opened and rejects with
 * the signal's reason. The servers here hang in place of answering.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectServers } from '../../src/runtime/mcp/connect.js';
import { exited, FAULT_SERVER } from '../support/runtime-servers.js';

async function pidFrom(file: string): Promise<number> {
  const deadline = Date.now() + 20_000;
  while (!existsSync(file) || readFileSync(file, 'utf8') === '') {
    if (Date.now() > deadline) throw new Error(`${file} was never written`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Number(readFileSync(file, 'utf8'));
}

/** An HTTP endpoint that takes every request and never answers; it counts the open ones. */
async function hangingEndpoint() {
  const open = new Set<IncomingMessage>();
  let received = 0;
  let arrived: () => void = () => undefined;
  const first = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = createServer((request) => {
    received++;
    open.add(request);
    request.socket.on('close', () => open.delete(request));
    arrived();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    first,
    received: () => received,
    open: () => open.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let endpoint: Awaited<ReturnType<typeof hangingEndpoint>> | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

describe('connectServers: signal cancels connecting', () => {
  it('aborted while a server hangs on initialize: rejects at once with the reason, its request closed', async () => {
    endpoint = await hangingEndpoint();
    const controller = new AbortController();
    const connecting = connectServers(
      { mcpServers: { stuck: { type: 'http', url: endpoint.url } } },
      { signal: controller.signal, timeoutMs: 60_000 },
    );
    await endpoint.first; // the initialize request is waiting for its answer
    const reason = new Error('stop');
    const cancelledAt = Date.now();
    controller.abort(reason);
    await expect(connecting).rejects.toBe(reason);
    expect(Date.now() - cancelledAt).toBeLessThan(5_000); // far below the 60 s timeout
    await expect.poll(() => endpoint?.open()).toBe(0);
  });

  it('every stdio server started is ended too, one that ignores stdin EOF included', async () => {
    endpoint = await hangingEndpoint();
    const dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-cancel-'));
    const pidFile = join(dir, 'fault.pid');
    try {
      const controller = new AbortController();
      const connecting = connectServers(
        {
          mcpServers: {
            faults: { ...FAULT_SERVER, env: { FAULT_IGNORE_EOF: '1', FAULT_PID_FILE: pidFile } },
            stuck: { type: 'http', url: endpoint.url },
          },
        },
        { signal: controller.signal, stderr: 'ignore' },
      );
      await endpoint.first;
      const server = await pidFrom(pidFile);
      controller.abort();
      const error = await connecting.catch((caught: unknown) => caught);
      expect((error as Error).name).toBe('AbortError');
      expect(await exited(server, 10_000), `fault server ${server} still running`).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('an aborted signal starts nothing', async () => {
    endpoint = await hangingEndpoint();
    const reason = new Error('already');
    await expect(
      connectServers(
        { mcpServers: { stuck: { type: 'http', url: endpoint.url } } },
        { signal: AbortSignal.abort(reason) },
      ),
    ).rejects.toBe(reason);
    expect(endpoint.received()).toBe(0);
  });
});
