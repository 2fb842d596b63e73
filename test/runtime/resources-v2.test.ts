/**
 * Issue 35 items 1 and 6 on the v2 SDK's client: the resource catalog registers its
 * notification handlers by method name there, and on a 2026-07-28 connection (the v2 client
 * negotiating with the v2 SDK's HTTP entry, its fetch face called in process) the list changes
 * and a subscription's updates come over `subscriptions/listen` streams, which the unsubscribe
 * closes.
 */
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createMcpHandler,
  InMemoryTransport as InMemoryV2,
  McpServer as McpServerV2,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  openResourceCatalog,
  type ResourceUpdate,
} from '../../src/runtime/mcp/resources/catalog.js';
import { resourceParts } from '../../src/runtime/mcp/resources/read.js';

const URI = 'v2://notes';

/** A v2 server with one text resource; it may subscribe and says when its list changes. */
function notesServer(): McpServerV2 {
  const server = new McpServerV2(
    { name: 'v2-notes', version: '2.0.0' },
    { capabilities: { resources: { subscribe: true, listChanged: true } } },
  );
  server.registerResource('notes', URI, { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'v2 notes' }],
  }));
  return server;
}

describe('issue 35: resources on the v2 SDK client', () => {
  it('the 2025 handshake: lists and reads, and hears resources/updated through a handler registered by method name', async () => {
    const server = notesServer();
    // On the 2025 protocol, a v2 server answers resources/subscribe with a handler of its own.
    server.server.setRequestHandler('resources/subscribe', () => ({}));
    const [clientSide, serverSide] = InMemoryV2.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV2({ name: 'gemini-mcp-tests', version: '0.0.0' });
    await client.connect(clientSide);
    try {
      expect(client.getProtocolEra()).toBe('legacy');
      const clients = new Map([['v2', client]]);
      const resources = await openResourceCatalog(clients);
      expect(resources.resources.map((r) => r.resource.uri)).toEqual([URI]);
      const read = await resourceParts({ clients, resources }, URI);
      expect(read.parts).toEqual([
        { text: '[resource "v2://notes" from server "v2", text/plain]\nv2 notes' },
      ]);
      let heard: (update: ResourceUpdate) => void = () => undefined;
      const update = new Promise<ResourceUpdate>((resolve) => {
        heard = resolve;
      });
      await resources.subscribe(URI, (u) => heard(u));
      await server.server.sendResourceUpdated({ uri: URI });
      await expect(update).resolves.toEqual({ serverId: 'v2', uri: URI });
    } finally {
      await client.close();
    }
  });

  it('2026-07-28: list changes and a subscription come over subscriptions/listen streams; the unsubscribe closes its stream', async () => {
    const handler = createMcpHandler(() => notesServer());
    const transport = new StreamableHTTPClientTransport(new URL('http://in-process.test/mcp'), {
      fetch: (url, init) => handler.fetch(new Request(url, init)),
    });
    const client = new ClientV2(
      { name: 'gemini-mcp-tests', version: '0.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(transport);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const clients = new Map([['v2', client]]);
      const resources = await openResourceCatalog(clients);
      expect(resources.resources.map((r) => r.resource.uri)).toEqual([URI]);
      // List changes come over the stream the catalog opened at connect.
      const changed = new Promise((resolve) => resources.onChange(resolve));
      handler.notify.resourcesChanged();
      await expect(changed).resolves.toMatchObject({
        serverId: 'v2',
        resources: [{ serverId: 'v2' }],
      });
      const heard: ResourceUpdate[] = [];
      let arrived: () => void = () => undefined;
      const first = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const unsubscribe = await resources.subscribe(URI, (update) => {
        heard.push(update);
        arrived();
      });
      handler.notify.resourceUpdated(URI);
      await first;
      expect(heard).toEqual([{ serverId: 'v2', uri: URI }]);
      await unsubscribe();
      handler.notify.resourceUpdated(URI);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toHaveLength(1);
    } finally {
      await client.close();
      await handler.close();
    }
  });
});
