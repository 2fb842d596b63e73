/**
 * Issue 35 item 1 (resources), in memory: the catalog over several servers (every page, bounded,
 * namespaced, malformed entries left out, refreshed on list_changed), resources read into proven
 * Parts (text, inline media under a cap, other binaries described, each tagged with its URI and
 * server), templates expanded, matched and completed, subscriptions, and the model's own
 * resource functions in runConversation.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { expandUriTemplate, matchesUriTemplate } from '../../src/adapter/resources/uri-template.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import { GeminiMcpError } from '../../src/errors.js';
import { checkContent, checkPart } from '../../src/generated/guards.js';
import type { Content, GenerateContentResponse, Part } from '../../src/generated/types.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import { openResourceCatalog } from '../../src/runtime/mcp/resources/catalog.js';
import {
  completeResourceArgument,
  type ResourceServers,
  resourceParts,
} from '../../src/runtime/mcp/resources/read.js';
import type { GenerateRequest } from '../../src/runtime/model/generate.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const GZIP = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x00, 0x01]).toString('base64');

const opened: Client[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

async function connect(server: McpServer | Server): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'resources-test', version: '0.0.0' });
  await client.connect(clientSide);
  opened.push(client);
  return client;
}

/** A server with one resource of each kind, a template with completion, and a tool. */
function docsServer(): McpServer {
  const server = new McpServer({ name: 'docs', version: '1.0.0' });
  const text = (uri: string, mimeType: string, body: string) => ({
    contents: [{ uri, mimeType, text: body }],
  });
  const blob = (uri: string, mimeType: string, data: string) => ({
    contents: [{ uri, mimeType, blob: data }],
  });
  server.registerResource('readme', 'docs://readme', { mimeType: 'text/markdown' }, (uri) =>
    text(uri.href, 'text/markdown', '# Read me\nHello.'),
  );
  server.registerResource('logo', 'docs://logo.png', { mimeType: 'image/png' }, (uri) =>
    blob(uri.href, 'image/png', PNG),
  );
  server.registerResource('archive', 'docs://archive.gz', { mimeType: 'application/gzip' }, (uri) =>
    blob(uri.href, 'application/gzip', GZIP),
  );
  server.registerResource('notes', 'docs://notes.txt', { mimeType: 'text/plain' }, (uri) =>
    blob(uri.href, 'text/plain; charset=utf-8', Buffer.from('plain notes ✓').toString('base64')),
  );
  server.registerResource(
    'broken',
    'docs://broken',
    {},
    () => ({ contents: 'not a list' }) as never,
  );
  server.registerResource(
    'item',
    new ResourceTemplate('docs://items/{id}', {
      list: undefined,
      complete: { id: (value) => ['1', '12', '123'].filter((id) => id.startsWith(value)) },
    }),
    { mimeType: 'text/plain' },
    (uri, { id }) => text(uri.href, 'text/plain', `item ${String(id)}`),
  );
  server.registerTool(
    'gmk__read_resource',
    { description: 'A server tool with a reserved name' },
    () => ({
      content: [{ type: 'text', text: 'the server tool ran' }],
    }),
  );
  return server;
}

async function docsServers(): Promise<ResourceServers & { clients: Map<string, Client> }> {
  const clients = new Map([['docs', await connect(docsServer())]]);
  return { clients, resources: await openResourceCatalog(clients) };
}

/** A low-level server whose resources/list pages are given, one per cursor. */
function pagedServer(
  pages: readonly object[],
  options: { subscribe?: boolean } = {},
): {
  server: Server;
  requests: string[];
} {
  const requests: string[] = [];
  const server = new Server(
    { name: 'paged', version: '1.0.0' },
    { capabilities: { resources: { subscribe: options.subscribe ?? false, listChanged: true } } },
  );
  server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    requests.push(`list ${request.params?.cursor ?? ''}`);
    const index = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
    return pages[index] as never;
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => ({
    contents: [{ uri: request.params.uri, text: `paged ${request.params.uri}` }],
  }));
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    requests.push(`subscribe ${request.params.uri}`);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    requests.push(`unsubscribe ${request.params.uri}`);
    return {};
  });
  return { server, requests };
}

describe('issue 35: the resource catalog', () => {
  it('lists every page of every server with resources, namespaced by server, and leaves malformed entries out with their pointer', async () => {
    const { server } = pagedServer([
      { resources: [{ uri: 'paged://a', name: 'a' }], nextCursor: '1' },
      {
        resources: [
          { uri: 'paged://b', name: 'b' },
          { name: 'no uri' },
          { uri: 'paged://c', name: 'c' },
        ],
      },
    ]);
    const toolsOnly = new McpServer({ name: 'tools-only', version: '1.0.0' });
    toolsOnly.registerTool('noop', {}, () => ({ content: [] }));
    const clients = new Map([
      ['paged', await connect(server)],
      ['docs', await connect(docsServer())],
      ['tools', await connect(toolsOnly)],
    ]);
    const catalog = await openResourceCatalog(clients);
    expect(catalog.resources.map((r) => `${r.serverId} ${r.resource.uri}`)).toEqual([
      'paged paged://a',
      'paged paged://b',
      'paged paged://c',
      'docs docs://readme',
      'docs docs://logo.png',
      'docs docs://archive.gz',
      'docs docs://notes.txt',
      'docs docs://broken',
    ]);
    expect(catalog.templates.map((t) => `${t.serverId} ${t.template.uriTemplate}`)).toEqual([
      'docs docs://items/{id}',
    ]);
    expect(catalog.warnings).toEqual([
      expect.objectContaining({
        code: 'RESOURCE_INVALID',
        serverId: 'paged',
        path: '/resources/1/uri',
      }),
    ]);
  });

  it('a server that repeats a cursor has no resources and a RESOURCES_UNAVAILABLE warning; its connection stands', async () => {
    const { server } = pagedServer([
      { resources: [{ uri: 'paged://a', name: 'a' }], nextCursor: '0' },
    ]);
    const catalog = await openResourceCatalog(new Map([['paged', await connect(server)]]));
    expect(catalog.resources).toEqual([]);
    expect(catalog.warnings).toEqual([
      expect.objectContaining({
        code: 'RESOURCES_UNAVAILABLE',
        serverId: 'paged',
        message: expect.stringContaining('repeated cursor'),
      }),
    ]);
  });

  it('a server that hands out cursors forever is read to 100 pages, then RESOURCES_CAPPED', async () => {
    const { server, requests } = pagedServer(
      Array.from({ length: 150 }, (_, page) => ({
        resources: [{ uri: `paged://${page}`, name: String(page) }],
        nextCursor: String(page + 1),
      })),
    );
    const catalog = await openResourceCatalog(new Map([['paged', await connect(server)]]));
    expect(catalog.resources).toHaveLength(100);
    expect(requests.filter((r) => r.startsWith('list'))).toHaveLength(100);
    expect(catalog.warnings).toEqual([
      expect.objectContaining({
        code: 'RESOURCES_CAPPED',
        message: expect.stringContaining('100 pages'),
      }),
    ]);
  });

  it('resources/list_changed lists the server again and tells the listeners', async () => {
    const server = docsServer();
    const clients = new Map([['docs', await connect(server)]]);
    const catalog = await openResourceCatalog(clients);
    const heard = new Promise<unknown>((resolve) => catalog.onChange(resolve));
    server.registerResource('added', 'docs://added', {}, (uri) => ({
      contents: [{ uri: uri.href, text: 'new' }],
    }));
    const change = (await heard) as {
      serverId: string;
      resources: { resource: { uri: string } }[];
    };
    expect(change.serverId).toBe('docs');
    expect(change.resources.map((r) => r.resource.uri)).toContain('docs://added');
    expect(catalog.resources.map((r) => r.resource.uri)).toContain('docs://added');
  });
});

describe('issue 35: resourceParts', () => {
  it('reads text as one text part tagged with its URI and server', async () => {
    const servers = await docsServers();
    const read = await resourceParts(servers, 'docs://readme');
    expect(read).toEqual({
      serverId: 'docs',
      uri: 'docs://readme',
      parts: [
        { text: '[resource "docs://readme" from server "docs", text/markdown]\n# Read me\nHello.' },
      ],
      warnings: [],
    });
  });

  it('sends an image as its tag and inlineData; each part passes the Gemini Part validator', async () => {
    const { parts } = await resourceParts(await docsServers(), 'docs://logo.png');
    expect(parts).toEqual([
      { text: '[resource "docs://logo.png" from server "docs", image/png, 70 bytes]' },
      { inlineData: { mimeType: 'image/png', data: PNG } },
    ]);
    for (const part of parts) expect(checkPart(part)).toEqual([]);
  });

  it('leaves an image over maxInlineBytes out, with a RESOURCE_TOO_LARGE warning and a tag that says so', async () => {
    const read = await resourceParts(await docsServers(), 'docs://logo.png', {
      maxInlineBytes: 69,
    });
    expect(read.parts).toEqual([
      {
        text: '[resource "docs://logo.png" from server "docs", image/png, 70 bytes, over the 69-byte cap: left out]',
      },
    ]);
    expect(read.warnings).toEqual([
      expect.objectContaining({ code: 'RESOURCE_TOO_LARGE', uri: 'docs://logo.png' }),
    ]);
  });

  it('describes another binary by type and size, never as base64 text; a textual blob is decoded', async () => {
    const servers = await docsServers();
    const archive = await resourceParts(servers, 'docs://archive.gz');
    expect(archive.parts).toEqual([
      {
        text: '[resource "docs://archive.gz" from server "docs", application/gzip, 8 bytes, binary: not shown]',
      },
    ]);
    expect(JSON.stringify(archive.parts)).not.toContain(GZIP);
    const notes = await resourceParts(servers, 'docs://notes.txt');
    expect(notes.parts).toEqual([
      { text: '[resource "docs://notes.txt" from server "docs", text/plain]\nplain notes ✓' },
    ]);
  });

  it('cuts text over maxTextBytes with a visible marker and a RESOURCE_TRUNCATED warning', async () => {
    const read = await resourceParts(await docsServers(), 'docs://readme', { maxTextBytes: 6 });
    expect(read.parts[0]?.text).toBe(
      '[resource "docs://readme" from server "docs", text/markdown]\n# Read\n[... cut: the text is longer than 6 bytes]',
    );
    expect(read.warnings).toEqual([expect.objectContaining({ code: 'RESOURCE_TRUNCATED' })]);
  });

  it('keeps at most maxContents items of a read, with a RESOURCE_TRUNCATED warning for the rest', async () => {
    const server = new Server(
      { name: 'many', version: '1.0.0' },
      { capabilities: { resources: {} } },
    );
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: [{ uri: 'many://x', name: 'x' }],
    }));
    server.setRequestHandler(ReadResourceRequestSchema, () => ({
      contents: Array.from({ length: 5 }, (_, i) => ({ uri: `many://x/${i}`, text: String(i) })),
    }));
    const clients = new Map([['many', await connect(server)]]);
    const read = await resourceParts(
      { clients, resources: await openResourceCatalog(clients) },
      'many://x',
      {
        maxContents: 2,
      },
    );
    expect(read.parts.map((part) => part.text)).toEqual([
      '[resource "many://x/0" from server "many", unknown type]\n0',
      '[resource "many://x/1" from server "many", unknown type]\n1',
    ]);
    expect(read.warnings).toEqual([
      expect.objectContaining({
        code: 'RESOURCE_TRUNCATED',
        uri: 'many://x',
        message: expect.stringContaining('3 content item(s)'),
      }),
    ]);
  });

  it('a malformed read result is INVALID_PAYLOAD with the pointer, naming the server', async () => {
    const error = await resourceParts(await docsServers(), 'docs://broken').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect(error).toMatchObject({
      code: 'INVALID_PAYLOAD',
      path: '/contents',
      message: expect.stringContaining('server "docs"'),
    });
  });

  it('tells the server from the listing, then the templates; a URI two servers could hold needs serverId', async () => {
    const clients = new Map([
      ['docs', await connect(docsServer())],
      [
        'paged',
        await connect(pagedServer([{ resources: [{ uri: 'paged://a', name: 'a' }] }]).server),
      ],
    ]);
    const servers = { clients, resources: await openResourceCatalog(clients) };
    expect((await resourceParts(servers, 'paged://a')).serverId).toBe('paged');
    expect((await resourceParts(servers, 'docs://items/12')).parts).toEqual([
      { text: '[resource "docs://items/12" from server "docs", text/plain]\nitem 12' },
    ]);
    await expect(resourceParts(servers, 'other://x')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('name the server (serverId)'),
    });
    expect(
      (await resourceParts(servers, 'other://x', { serverId: 'paged' })).parts[0]?.text,
    ).toContain('paged other://x');
    await expect(
      resourceParts(servers, 'docs://readme', { serverId: 'nope' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(resourceParts(servers, '')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      path: '/uri',
    });
  });
});

describe('issue 35: resource templates', () => {
  it('expands every RFC 6570 operator, and a value is percent-encoded as its operator says', () => {
    const args = { id: '4 2', path: 'a/b', list: ['x', 'y'], q: 'gemini mcp', empty: '' };
    expect(expandUriTemplate('docs://items/{id}', args)).toBe('docs://items/4%202');
    expect(expandUriTemplate('file:///{+path}', args)).toBe('file:///a/b');
    expect(expandUriTemplate('file:///{path}', args)).toBe('file:///a%2Fb');
    expect(expandUriTemplate('x{/list*}', args)).toBe('x/x/y');
    expect(expandUriTemplate('x{/list}', args)).toBe('x/x,y');
    expect(expandUriTemplate('s{?q,missing,empty}', args)).toBe('s?q=gemini%20mcp&empty=');
    expect(expandUriTemplate('s{?q}{&list*}', args)).toBe('s?q=gemini%20mcp&list=x&list=y');
    expect(expandUriTemplate('x{.list}{;id}{#path}', args)).toBe('x.x,y;id=4%202#a/b');
    expect(expandUriTemplate('x/{id:1}', args)).toBe('x/4');
  });

  it('refuses a malformed template with INVALID_INPUT', () => {
    for (const bad of ['x/{id', 'x/id}', 'x/{}', 'x/{a b}', `x/${'a'.repeat(3000)}`]) {
      expect(() => expandUriTemplate(bad, {}), bad).toThrow(GeminiMcpError);
    }
  });

  it('matches a URI against a template in one pass: literals exact, a simple expression never spanning a "/"', () => {
    expect(matchesUriTemplate('docs://items/{id}', 'docs://items/12')).toBe(true);
    expect(matchesUriTemplate('docs://items/{id}', 'docs://items/1/2')).toBe(false);
    expect(matchesUriTemplate('file:///{+path}', 'file:///a/b/c')).toBe(true);
    expect(matchesUriTemplate('docs://items/{id}.txt', 'docs://items/5.txt')).toBe(true);
    expect(matchesUriTemplate('docs://items/{id}.txt', 'docs://other/5.txt')).toBe(false);
    expect(matchesUriTemplate('docs://{', 'docs://x')).toBe(false);
  });

  it('completes a template argument with the values the server offers', async () => {
    const servers = await docsServers();
    await expect(
      completeResourceArgument(servers, {
        uriTemplate: 'docs://items/{id}',
        argument: { name: 'id', value: '12' },
      }),
    ).resolves.toEqual({ serverId: 'docs', values: ['12', '123'], total: 2, hasMore: false });
    await expect(
      completeResourceArgument(servers, {
        uriTemplate: 'docs://items/{id}',
        argument: { name: 'name', value: '' },
      }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', path: '/argument/name' });
  });
});

describe('issue 35: subscriptions', () => {
  it('the first listener subscribes, each hears resources/updated for its URI, the last unsubscribe unsubscribes', async () => {
    const { server, requests } = pagedServer([{ resources: [{ uri: 'paged://a', name: 'a' }] }], {
      subscribe: true,
    });
    const clients = new Map([['paged', await connect(server)]]);
    const catalog = await openResourceCatalog(clients);
    const first: unknown[] = [];
    const second: unknown[] = [];
    const stopFirst = await catalog.subscribe('paged://a', (update) => first.push(update));
    const stopSecond = await catalog.subscribe('paged://a', (update) => second.push(update));
    expect(requests.filter((r) => r.startsWith('subscribe'))).toEqual(['subscribe paged://a']);
    await server.sendResourceUpdated({ uri: 'paged://a' });
    await server.sendResourceUpdated({ uri: 'paged://other' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(first).toEqual([{ serverId: 'paged', uri: 'paged://a' }]);
    expect(second).toEqual([{ serverId: 'paged', uri: 'paged://a' }]);
    await stopFirst();
    expect(requests).not.toContain('unsubscribe paged://a');
    await stopSecond();
    expect(requests).toContain('unsubscribe paged://a');
    await server.sendResourceUpdated({ uri: 'paged://a' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(first).toHaveLength(1);
  });

  it('a server without resources.subscribe is refused with INVALID_INPUT, and nothing is sent', async () => {
    const { server, requests } = pagedServer([{ resources: [{ uri: 'paged://a', name: 'a' }] }]);
    const catalog = await openResourceCatalog(new Map([['paged', await connect(server)]]));
    await expect(catalog.subscribe('paged://a', () => undefined)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(requests.filter((r) => r.startsWith('subscribe'))).toEqual([]);
  });
});

describe('issue 35: the model reads resources (runConversation resources option)', () => {
  const call = (name: string, args: Record<string, unknown>, id: string): Part => ({
    functionCall: { id, name, args },
  });
  const reply = (parts: Part[]): GenerateContentResponse => ({
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
  });

  it('declares gmk__read_resource and gmk__list_resources first, answers each call here with one response, and a server tool named gmk__read_resource keeps its server prefix', async () => {
    const servers = await docsServers();
    const client = servers.clients.get('docs')!;
    const { toolset } = buildToolSet([{ serverId: 'docs', tools: await listAllTools(client) }]);
    expect(toolset.entries.map((e) => e.exposedName)).toEqual(['docs__gmk__read_resource']);
    const requests: GenerateRequest<unknown>[] = [];
    const script = [
      reply([
        call('gmk__list_resources', {}, 'l1'),
        call('gmk__read_resource', { uri: 'docs://logo.png' }, 'r1'),
        call('gmk__read_resource', { uri: 'docs://nowhere', server: 'docs' }, 'r2'),
      ]),
      reply([{ text: 'Done.' }]),
    ];
    const result = await runConversation({
      generate: async (request) => {
        requests.push(request);
        return script[requests.length - 1]!;
      },
      toolset,
      clients: servers.clients,
      contents: [{ role: 'user', parts: [{ text: 'What is in the docs?' }] }],
      resources: { servers },
      media: 'parts',
    });
    expect(result.stop).toEqual({ reason: 'answered', text: 'Done.', finishReason: 'STOP' });
    const names = requests[0]?.tools.flatMap((tool) =>
      tool.functionDeclarations.map((d) => d.name),
    );
    expect(names).toEqual([
      'gmk__read_resource',
      'gmk__list_resources',
      'docs__gmk__read_resource',
    ]);
    const answer = result.contents[2]!;
    expect(checkContent(answer)).toEqual([]);
    const responses = ((answer as Content).parts ?? []).map((part) => part.functionResponse);
    expect(responses.map((r) => [r?.id, r?.name])).toEqual([
      ['l1', 'gmk__list_resources'],
      ['r1', 'gmk__read_resource'],
      ['r2', 'gmk__read_resource'],
    ]);
    const list = JSON.stringify(responses[0]?.response);
    expect(list).toContain(
      'resource \\"docs://readme\\" (server \\"docs\\"): readme, text/markdown',
    );
    expect(list).toContain('template \\"docs://items/{id}\\" (server \\"docs\\"): item');
    expect(responses[1]?.response).toEqual({
      output:
        '[resource "docs://logo.png" from server "docs", image/png, 70 bytes]\n[image: image/png, 70 bytes, sent as function response part 1]',
    });
    expect(responses[1]?.parts).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG } }]);
    expect(JSON.stringify(responses[2]?.response)).toContain('The resource could not be read');
  });

  it("our resource functions never reach the approval hook; a server's tool of the same bare name does", async () => {
    const servers = await docsServers();
    const client = servers.clients.get('docs')!;
    const { toolset } = buildToolSet([{ serverId: 'docs', tools: await listAllTools(client) }]);
    const script = [
      reply([
        call('gmk__list_resources', {}, 'l1'),
        call('gmk__read_resource', { uri: 'docs://readme' }, 'r1'),
        call('docs__gmk__read_resource', {}, 't1'),
      ]),
      reply([{ text: 'Done.' }]),
    ];
    const asked: string[] = [];
    const result = await runConversation({
      generate: async () => script.shift()!,
      toolset,
      clients: servers.clients,
      contents: [{ role: 'user', parts: [{ text: 'What is in the docs?' }] }],
      resources: { servers },
      onToolCall: (check) => {
        asked.push(check.exposedName);
        return { action: 'deny', reason: 'not now' };
      },
    });
    expect(result.stop).toMatchObject({ reason: 'answered', text: 'Done.' });
    expect(asked).toEqual(['docs__gmk__read_resource']);
    const responses = ((result.contents[2] as Content).parts ?? []).map((p) => p.functionResponse);
    expect(responses.map((r) => r?.id)).toEqual(['l1', 'r1', 't1']);
    expect(JSON.stringify(responses[1]?.response)).toContain('docs://readme');
    expect(JSON.stringify(responses[2]?.response)).toContain('DENIED');
  });

  it('the resource functions count in the budget: with room for three declarations, one server tool is left out', async () => {
    const servers = await docsServers();
    const many = new McpServer({ name: 'many', version: '1.0.0' });
    for (const name of ['first', 'second']) many.registerTool(name, {}, () => ({ content: [] }));
    const { toolset } = buildToolSet([
      { serverId: 'many', tools: await listAllTools(await connect(many)) },
    ]);
    const requests: GenerateRequest<unknown>[] = [];
    const warnings: unknown[] = [];
    await runConversation({
      generate: async (request) => {
        requests.push(request);
        return reply([{ text: 'ok' }]);
      },
      toolset,
      clients: servers.clients,
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      resources: { servers },
      declarations: {
        budget: { maxDeclarations: 3 },
        onWarning: (warning) => warnings.push(warning),
      },
    });
    const names = requests[0]?.tools.flatMap((tool) =>
      tool.functionDeclarations.map((d) => d.name),
    );
    expect(names).toEqual(['gmk__read_resource', 'gmk__list_resources', 'first']);
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'TOOL_OVER_BUDGET', toolName: 'second' }),
    ]);
  });

  it('without the option, no resource function is declared and a call to one is rejected as unknown', async () => {
    const servers = await docsServers();
    const requests: GenerateRequest<unknown>[] = [];
    const script = [
      reply([call('gmk__read_resource', { uri: 'docs://readme' }, 'r1')]),
      reply([{ text: 'ok' }]),
    ];
    const result = await runConversation({
      generate: async (request) => {
        requests.push(request);
        return script[requests.length - 1]!;
      },
      toolset: buildToolSet([]).toolset,
      clients: servers.clients,
      contents: [{ role: 'user', parts: [{ text: 'read' }] }],
    });
    expect(requests[0]?.tools).toEqual([]);
    expect(JSON.stringify(result.contents[2])).toContain('error');
    expect(JSON.stringify(result.contents[2])).not.toContain('Read me');
  });
});
