/**
 * Issue 38 item 5, the mechanism in process (unit tier, `npm test`): `limitPendingRequests`
 * counts a server's requests from arrival until their answer is written out or the server
 * cancels them; past the cap each is refused at once (-32010) and never reaches its handler.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ListRootsRequestSchema,
  ListRootsResultSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { equipClient } from '../../src/runtime/mcp/features/capabilities.js';
import { limitPendingRequests } from '../../src/runtime/mcp/server-request-limits.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A client whose roots handler answers only when told, capped at `max` pending requests. */
async function heldRoots(max: number) {
  const held: (() => void)[] = [];
  const client = new Client({ name: 'test', version: '0.0.0' });
  equipClient(client, 'mem', [
    {
      capabilities: { roots: {} },
      install: (registry) =>
        registry.handle(
          ListRootsRequestSchema,
          () => new Promise((resolve) => held.push(() => resolve({ roots: [] }))),
        ),
    },
  ]);
  const server = new Server({ name: 'flood', version: '1.0.0' }, { capabilities: {} });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(limitPendingRequests(clientSide, 'mem', max));
  close = async () => {
    await client.close();
    await server.close();
  };
  const ask = (signal?: AbortSignal) =>
    server.request({ method: 'roots/list' }, ListRootsResultSchema, signal ? { signal } : {});
  return { held, ask };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('issue 38 item 5: pending answers are capped per server', () => {
  it('3 held, the 4th and 5th refused -32010 at once without reaching the handler', async () => {
    const { held, ask } = await heldRoots(3);
    const asked = Array.from({ length: 5 }, () => ask().catch((e: unknown) => e));
    await settle();
    expect(held).toHaveLength(3);
    const refused = await Promise.all(asked.slice(3));
    for (const error of refused) {
      expect(error).toBeInstanceOf(McpError);
      expect(error).toMatchObject({ code: -32010, data: { limit: 'maxPendingServerRequests' } });
      expect((error as Error).message).toContain('at most 3 from server "mem"');
    }
    for (const answer of held) answer();
    expect(await Promise.all(asked.slice(0, 3))).toEqual([
      { roots: [] },
      { roots: [] },
      { roots: [] },
    ]);
  });

  it('an answer written out frees its place, and so does a request the server cancels', async () => {
    const { held, ask } = await heldRoots(1);
    const first = ask();
    await settle();
    held[0]!();
    await first;
    await settle(); // the place is freed once the answer's send has resolved
    const cancel = new AbortController();
    const second = ask(cancel.signal).catch((e: unknown) => e);
    await settle();
    expect(held).toHaveLength(2);
    cancel.abort('no longer needed');
    await second;
    const third = ask();
    await settle();
    expect(held).toHaveLength(3);
    held[2]!();
    expect(await third).toEqual({ roots: [] });
  });
});
