/**
 * Client capabilities (CC): elicitation, roots and the plug point they share, against the SDK's
 * McpServer in memory, over stdio and over Streamable HTTP on 127.0.0.1.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import type { StdioServerConfig } from '../../src/runtime/mcp/config/types.js';
import { connectServers, type ServerConnections } from '../../src/runtime/mcp/connect.js';
import { equipClient } from '../../src/runtime/mcp/features/capabilities.js';
import {
  type ElicitationAnswer,
  type ElicitationQuery,
  elicitationFeature,
  type FormField,
} from '../../src/runtime/mcp/features/elicitation.js';
import { createCapabilityServer } from '../support/capability-server.mjs';
import { EVERYTHING_SERVER } from '../support/runtime-servers.js';

const SLOW = 30_000;

const CAPABILITY_SERVER: StdioServerConfig = {
  command: process.execPath,
  args: [join(import.meta.dirname, '..', 'support', 'capability-server.mjs')],
};

/** Calls a tool of the capability server and returns its JSON answer (or the error text). */
async function call(
  connections: ServerConnections,
  tool: string,
  serverId = 'caps',
): Promise<{ isError: boolean; value: unknown }> {
  const result = await connections.clients.get(serverId)!.callTool({ name: tool });
  const text = (result.content as { text: string }[])[0]?.text ?? '';
  return result.isError === true
    ? { isError: true, value: text }
    : { isError: false, value: JSON.parse(text) };
}

/** The fields of a form-mode query. */
function fieldsOf(query: ElicitationQuery | undefined): readonly FormField[] {
  if (query?.mode !== 'form') throw new Error(`not a form query: ${JSON.stringify(query)}`);
  return query.fields;
}

describe('CC-1: only configured capabilities are advertised', () => {
  it(
    'CC-1: none configured: the server sees {} and elicitation fails as before; configured ones are declared per server',
    async () => {
      const plain = await connectServers(
        { mcpServers: { caps: CAPABILITY_SERVER } },
        { stderr: 'ignore' },
      );
      try {
        expect(await call(plain, 'client_capabilities')).toEqual({ isError: false, value: {} });
        const asked = await call(plain, 'ask_defaults');
        expect(asked.isError).toBe(true);
        expect(asked.value).toMatch(/does not support form elicitation/);
      } finally {
        await plain.close();
      }
      const decline = async (): Promise<ElicitationAnswer> => ({ action: 'decline' });
      const connections = await connectServers(
        {
          mcpServers: { caps: CAPABILITY_SERVER, other: CAPABILITY_SERVER, url: CAPABILITY_SERVER },
        },
        {
          stderr: 'ignore',
          capabilities: { elicitation: { onElicitation: decline }, roots: [] },
          servers: {
            other: { capabilities: { elicitation: false } },
            url: {
              capabilities: { elicitation: { onElicitation: decline, url: true }, roots: false },
            },
          },
        },
      );
      try {
        expect((await call(connections, 'client_capabilities')).value).toEqual({
          elicitation: { form: {} },
          roots: { listChanged: true },
        });
        expect((await call(connections, 'client_capabilities', 'other')).value).toEqual({
          roots: { listChanged: true },
        });
        expect((await call(connections, 'client_capabilities', 'url')).value).toEqual({
          elicitation: { form: {}, url: {} },
        });
      } finally {
        await connections.close();
      }
    },
    SLOW,
  );

  it.each([
    [
      'onElicitation not a function',
      { capabilities: { elicitation: {} } },
      'capabilities.elicitation.onElicitation',
    ],
    [
      'maxRequestBytes 0',
      {
        capabilities: {
          elicitation: { onElicitation: () => ({ action: 'cancel' }), maxRequestBytes: 0 },
        },
      },
      'capabilities.elicitation.maxRequestBytes',
    ],
    ['roots not a list', { capabilities: { roots: 'file:///' } }, 'capabilities.roots'],
    [
      'a root without file://',
      { servers: { a: { capabilities: { roots: [{ uri: '/srv' }] } } } },
      'servers.a.capabilities.roots',
    ],
    [
      'a root name not text',
      { capabilities: { roots: [{ uri: 'file:///srv', name: 1 }] } },
      'capabilities.roots',
    ],
  ])('CC-1: refuses %s up front, naming the option', async (_name, options, option) => {
    const error = await connectServers(
      { mcpServers: { a: { command: 'never-started' } } },
      options as never,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect((error as GeminiMcpError).code).toBe('INVALID_INPUT');
    expect((error as GeminiMcpError).data.option).toBe(option);
  });
});

describe('CC-2..5: elicitation during a tool call (stdio)', () => {
  let connections: ServerConnections;
  let answer: ElicitationAnswer = { action: 'accept' };
  const seen: { query: ElicitationQuery; serverId: string; signal: AbortSignal }[] = [];
  beforeAll(async () => {
    connections = await connectServers(
      { mcpServers: { caps: CAPABILITY_SERVER } },
      {
        stderr: 'ignore',
        capabilities: {
          elicitation: {
            onElicitation: (query, { serverId, signal }) => {
              seen.push({ query, serverId, signal });
              return answer;
            },
            maxRequestBytes: 32 * 1024,
            // More elicitations in a minute than the default 10: each test asks one or two.
            requestsPerMinute: 100,
          },
        },
      },
    );
  }, SLOW);
  afterAll(async () => {
    await connections.close();
  });

  it('CC-2: accepted without content: every default of the form is sent (the conformance SEP-1034 form)', async () => {
    answer = { action: 'accept' };
    expect(await call(connections, 'ask_defaults')).toEqual({
      isError: false,
      value: {
        action: 'accept',
        content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
      },
    });
    const last = seen.at(-1)!;
    expect(last.serverId).toBe('caps');
    expect(last.signal).toBeInstanceOf(AbortSignal);
    expect(last.query).toMatchObject({ mode: 'form', message: 'Accept with defaults' });
    const fields = fieldsOf(last.query);
    expect(fields.map((f) => [f.name, f.kind, f.default])).toEqual([
      ['name', 'text', 'John Doe'],
      ['age', 'integer', 30],
      ['score', 'number', 95.5],
      ['status', 'choice', 'active'],
      ['verified', 'boolean', true],
    ]);
  });

  it('CC-2: accepted with some content: given values kept, defaults fill the rest, titled options read', async () => {
    answer = { action: 'accept', content: { city: 'Lyon', extras: ['parking'] } };
    expect(await call(connections, 'book')).toEqual({
      isError: false,
      value: { action: 'accept', content: { city: 'Lyon', nights: 1, extras: ['parking'] } },
    });
    const fields = fieldsOf(seen.at(-1)?.query);
    expect(fields).toEqual([
      { name: 'city', required: true, title: 'City', kind: 'text', minLength: 2 },
      {
        name: 'nights',
        required: true,
        title: 'Nights',
        kind: 'integer',
        minimum: 1,
        maximum: 30,
        default: 1,
      },
      {
        name: 'extras',
        required: false,
        title: 'Extras',
        kind: 'choices',
        options: [
          { value: 'breakfast', title: 'Breakfast' },
          { value: 'parking', title: 'Parking' },
        ],
      },
    ]);
  });

  it.each([
    ['decline', { action: 'decline' }],
    ['cancel', { action: 'cancel' }],
  ] as const)('CC-3: %s reaches the server without content', async (_name, given) => {
    answer = { ...given, content: { city: 'Paris' } } as unknown as ElicitationAnswer;
    expect(await call(connections, 'book')).toEqual({
      isError: false,
      value: { action: given.action },
    });
  });

  it.each([
    ['a required field missing', { nights: 2 }, '/content/city: a value (the field is required)'],
    ['text too short', { city: 'X' }, '/content/city: expected text of at least 2 characters'],
    [
      'a fraction for an integer',
      { city: 'Nice', nights: 1.5 },
      '/content/nights: expected a whole number',
    ],
    [
      'a number over its maximum',
      { city: 'Nice', nights: 31 },
      '/content/nights: expected a whole number <= 30',
    ],
    [
      'an unknown option',
      { city: 'Nice', extras: ['spa'] },
      '/content/extras: expected a list of: "breakfast", "parking"',
    ],
    [
      'a field the form does not have',
      { city: 'Nice', pets: true },
      '/content/pets: no such field',
    ],
  ])(
    'CC-4: content with %s is not sent: the server gets an error naming the field',
    async (_name, content, message) => {
      answer = { action: 'accept', content } as ElicitationAnswer;
      const result = await call(connections, 'book');
      expect(result.isError).toBe(true);
      expect(result.value).toContain('the answer does not fit the requested schema');
      expect(result.value).toContain(message);
    },
  );

  it('CC-5: a request over maxRequestBytes is refused (SCHEMA_TOO_LARGE) without asking the user', async () => {
    const before = seen.length;
    const result = await call(connections, 'ask_big');
    expect(result.isError).toBe(true);
    expect(result.value).toMatch(
      /elicitation request of \d+ bytes refused: the client takes at most 32768/,
    );
    expect(seen.length).toBe(before);
  });

  it('CC-6: URL mode is refused by the server when not declared', async () => {
    const result = await call(connections, 'ask_url');
    expect(result).toMatchObject({ isError: true });
    expect(result.value).toMatch(/does not support url elicitation/);
  });
});

/** The capability server over Streamable HTTP, one session per client, on 127.0.0.1. */
async function httpCapabilityServer(): Promise<{
  url: string;
  states: { rootsChanged: number }[];
  close(): Promise<void>;
}> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const states: { rootsChanged: number }[] = [];
  const http: Server = createServer((request, response) => {
    const id = request.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known !== undefined) {
      void known.handleRequest(request, response);
      return;
    }
    const { server, state } = createCapabilityServer();
    states.push(state);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    states,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

describe('CC-2, CC-6, CC-7 over Streamable HTTP', () => {
  it(
    'CC-2, CC-6: elicitation answered over HTTP: defaults in form mode, URL mode when declared',
    async () => {
      const web = await httpCapabilityServer();
      const queries: ElicitationQuery[] = [];
      const servers: string[] = [];
      const connections = await connectServers(
        { mcpServers: { caps: { url: web.url } } },
        {
          capabilities: {
            elicitation: {
              url: true,
              onElicitation: (query, { serverId }) => {
                queries.push(query);
                servers.push(serverId);
                // Content in URL mode is not sent; in form mode, none: the defaults are.
                return query.mode === 'url'
                  ? ({ action: 'accept', content: { dropped: 'yes' } } as ElicitationAnswer)
                  : { action: 'accept' };
              },
            },
          },
        },
      );
      try {
        expect((await call(connections, 'ask_url')).value).toEqual({ action: 'accept' });
        expect(queries[0]).toEqual({
          mode: 'url',
          message: 'Sign in',
          url: 'https://example.com/sign-in',
          elicitationId: 'e-1',
        });
        expect((await call(connections, 'ask_defaults')).value).toEqual({
          action: 'accept',
          content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
        });
        expect(servers).toEqual(['caps', 'caps']);
      } finally {
        await connections.close();
        await web.close();
      }
    },
    SLOW,
  );

  it(
    'CC-7: roots listed, replaced with setRoots (roots/list_changed sent), per server; bad lists refused',
    async () => {
      const web = await httpCapabilityServer();
      const connections = await connectServers(
        { mcpServers: { caps: { url: web.url }, plain: { url: web.url } } },
        {
          capabilities: { roots: [{ uri: 'file:///work/project', name: 'project' }] },
          servers: { plain: { capabilities: { roots: false } } },
        },
      );
      try {
        expect((await call(connections, 'roots')).value).toEqual({
          roots: [{ uri: 'file:///work/project', name: 'project' }],
        });
        const noRoots = await call(connections, 'roots', 'plain');
        expect(noRoots.isError).toBe(true);
        await connections.setRoots([{ uri: 'file:///work/other' }]);
        expect((await call(connections, 'roots')).value).toEqual({
          roots: [{ uri: 'file:///work/other' }],
        });
        expect((await call(connections, 'roots_changed')).value).toBe(1);
        await connections.setRoots([], 'caps');
        expect((await call(connections, 'roots')).value).toEqual({ roots: [] });
        expect((await call(connections, 'roots_changed')).value).toBe(2);
        await expect(connections.setRoots([], 'plain')).rejects.toMatchObject({
          code: 'INVALID_INPUT',
        });
        await expect(connections.setRoots([{ uri: 'https://x' }])).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          path: '/0/uri',
        });
        expect((await call(connections, 'roots_changed')).value).toBe(2);
      } finally {
        await connections.close();
        await web.close();
      }
    },
    SLOW,
  );
});

describe('CC-8: the plug point (equipClient) on an SDK client in memory', () => {
  async function connectInMemory(equip: (client: Client) => void) {
    const { server, state } = createCapabilityServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '0.0.0' });
    equip(client);
    await client.connect(clientSide);
    const ask = async (name: string) => {
      const result = await client.callTool({ name });
      const text = (result.content as { text: string }[])[0]?.text ?? '';
      return result.isError === true ? text : JSON.parse(text);
    };
    return { client, state, ask };
  }

  it('CC-8: a feature declares its capability and answers its requests, with the server id', async () => {
    const contexts: string[] = [];
    const { client, ask } = await connectInMemory((c) =>
      equipClient(c, 'mem', [
        {
          capabilities: { roots: {} },
          install: (registry) =>
            registry.handle(ListRootsRequestSchema, (_request, { serverId }) => {
              contexts.push(serverId);
              return { roots: [{ uri: 'file:///mem' }] };
            }),
        },
        elicitationFeature({
          onElicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
        }),
      ]),
    );
    try {
      expect(await ask('client_capabilities')).toEqual({ roots: {}, elicitation: { form: {} } });
      expect(await ask('roots')).toEqual({ roots: [{ uri: 'file:///mem' }] });
      expect(contexts).toEqual(['mem']);
      expect(await ask('ask_defaults')).toMatchObject({
        action: 'accept',
        content: { name: 'Ada', age: 30 },
      });
    } finally {
      await client.close();
    }
  });

  it('CC-8: no feature, no capability: roots/list is "Method not found"', async () => {
    const { client, ask } = await connectInMemory((c) => equipClient(c, 'mem', []));
    try {
      expect(await ask('client_capabilities')).toEqual({});
      expect(await ask('roots')).toMatch(/Method not found/);
    } finally {
      await client.close();
    }
  });

  it('CC-2: the abort signal fires when the connection closes while the user is asked', async () => {
    let signal: AbortSignal | undefined;
    const { client } = await connectInMemory((c) =>
      equipClient(c, 'mem', [
        elicitationFeature({
          onElicitation: (_query, context) => {
            signal = context.signal;
            return new Promise<ElicitationAnswer>(() => undefined);
          },
        }),
      ]),
    );
    const pending = client.callTool({ name: 'ask_defaults' });
    await expect.poll(() => signal !== undefined).toBe(true);
    expect(signal?.aborted).toBe(false);
    await client.close();
    await expect(pending).rejects.toThrow(/Connection closed/);
    expect(signal?.aborted).toBe(true);
  });
});

describe('CC-2, CC-7 with server-everything (a third-party server, over stdio)', () => {
  it(
    'CC-2, CC-7: its elicitation tool gets every default it asks with; it lists our roots and follows setRoots',
    async () => {
      const connections = await connectServers(
        { mcpServers: { everything: EVERYTHING_SERVER } },
        {
          stderr: 'ignore',
          capabilities: {
            elicitation: { onElicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) },
            roots: [{ uri: 'file:///work/first', name: 'first' }],
          },
        },
      );
      const client = connections.clients.get('everything')!;
      const text = async (name: string) => {
        const result = await client.callTool({ name });
        return (result.content as { text: string }[]).map((c) => c.text).join('\n');
      };
      try {
        const asked = await text('trigger-elicitation-request');
        const raw = JSON.parse(asked.slice(asked.indexOf('{')));
        expect(raw).toEqual({
          action: 'accept',
          content: {
            name: 'Ada',
            firstLine: 'It was a dark and stormy night.',
            integer: 42,
            number: 3.14,
            untitledSingleSelectEnum: 'Monica',
            untitledMultipleSelectEnum: ['Guitar'],
            titledSingleSelectEnum: 'hero-1',
            titledMultipleSelectEnum: ['fish-1'],
            legacyTitledEnum: 'pet-1',
          },
        });
        expect(await text('get-roots-list')).toContain('URI: file:///work/first');
        await connections.setRoots([{ uri: 'file:///work/second', name: 'second' }]);
        await expect.poll(() => text('get-roots-list')).toContain('URI: file:///work/second');
      } finally {
        await connections.close();
      }
    },
    SLOW,
  );
});
