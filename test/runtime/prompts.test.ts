/**
 * Issue 35 items 2 and 3 in process: MCP prompts listed (paged, bounded, namespaced), fetched
 * as Gemini Contents with their arguments checked and completed, and server instructions read,
 * on the client of either SDK (v1 1.x, v2 2.x on both eras), each against a server of its own
 * SDK in memory.
 */
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { completable as completableV1 } from '@modelcontextprotocol/sdk/server/completable.js';
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  completable as completableV2,
  createMcpHandler,
  InMemoryTransport as InMemoryV2,
  McpServer as McpServerV2,
} from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/v4';
import { promptContents } from '../../src/adapter/prompts/contents.js';
import { checkContent } from '../../src/generated/guards.js';
import { instructionsContent, serverInstructions } from '../../src/runtime/mcp/instructions.js';
import type { McpClient } from '../../src/runtime/mcp/mcp-client.js';
import {
  completePromptArgument,
  getPrompt,
  LivePrompts,
  listAllPrompts,
  listPromptsOrWarn,
  type PromptServers,
} from '../../src/runtime/mcp/prompts.js';

const INFO = { name: 'gemini-mcp-tests', version: '0.0.0' };
/** A 1x1 PNG's first bytes, base64: what the `review` prompt shows. */
const PNG = 'iVBORw0KGgo=';
/** What both SDKs' servers say at connect: one zero-width space in it. */
const INSTRUCTIONS = 'Answer in French.\u200B Never guess a city.';
const CITIES = ['Paris', 'Padua', 'Berlin'];

const reviewMessages = [
  { role: 'user' as const, content: { type: 'text' as const, text: 'Review this chart.' } },
  {
    role: 'user' as const,
    content: { type: 'image' as const, mimeType: 'image/png', data: PNG },
  },
  {
    role: 'assistant' as const,
    content: {
      type: 'resource' as const,
      resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' },
    },
  },
  { role: 'user' as const, content: { type: 'text' as const, text: 'Go on.' } },
];

const weatherText = (city: string, state: string | undefined) =>
  `What's the weather in ${city}${state === undefined ? '' : `, ${state}`}?`;

function v1Server(): McpServerV1 {
  const server = new McpServerV1({ name: 'v1', version: '1.0.0' }, { instructions: INSTRUCTIONS });
  server.registerPrompt(
    'weather',
    {
      title: 'Weather\u202E',
      description: 'Asks for the weather',
      argsSchema: {
        city: completableV1(z.string().describe('The city'), (v) =>
          CITIES.filter((c) => c.startsWith(v)),
        ),
        state: z.string().optional(),
      },
    },
    ({ city, state }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: weatherText(city, state) } }],
    }),
  );
  server.registerPrompt('review', { description: 'A review' }, () => ({
    messages: reviewMessages,
  }));
  return server;
}

function v2Server(): McpServerV2 {
  const server = new McpServerV2({ name: 'v2', version: '2.0.0' }, { instructions: INSTRUCTIONS });
  server.registerPrompt(
    'weather',
    {
      title: 'Weather\u202E',
      description: 'Asks for the weather',
      argsSchema: z.object({
        city: completableV2(z.string().describe('The city'), (v) =>
          CITIES.filter((c) => c.startsWith(v)),
        ),
        state: z.string().optional(),
      }),
    },
    ({ city, state }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: weatherText(city, state) } }],
    }),
  );
  server.registerPrompt('review', { description: 'A review' }, () => ({
    messages: reviewMessages,
  }));
  return server;
}

async function v1Client(): Promise<McpClient> {
  const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
  await v1Server().connect(serverSide);
  const client = new ClientV1(INFO);
  await client.connect(clientSide);
  return client;
}

async function v2Client(): Promise<McpClient> {
  const [clientSide, serverSide] = InMemoryV2.createLinkedPair();
  await v2Server().connect(serverSide);
  const client = new ClientV2(INFO);
  await client.connect(clientSide);
  return client;
}

/** The v2 client on 2026-07-28 (`server/discover`), against the v2 SDK's HTTP entry in process. */
async function v2ModernClient(): Promise<McpClient> {
  const handler = createMcpHandler(() => v2Server());
  const transport = new StreamableHTTPClientTransport(new URL('http://in-process.test/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  const client = new ClientV2(INFO, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  return client;
}

async function serversOf(client: McpClient): Promise<PromptServers> {
  const { prompts } = await listAllPrompts(client, 'srv');
  return { prompts, clients: new Map([['srv', client]]) };
}

const clients = [
  { sdk: '@modelcontextprotocol/sdk 1.x', make: v1Client },
  { sdk: '@modelcontextprotocol/client 2.x (2025 handshake)', make: v2Client },
  { sdk: '@modelcontextprotocol/client 2.x (2026-07-28)', make: v2ModernClient },
];

describe('PR-1..PR-4: prompts and instructions on either SDK client', () => {
  for (const { sdk, make } of clients) {
    describe(sdk, () => {
      it('PR-1: lists every prompt namespaced as server/name, titles sanitized', async () => {
        const client = await make();
        try {
          const { prompts, warnings } = await listAllPrompts(client, 'srv');
          expect(prompts.map((p) => p.id)).toEqual(['srv/weather', 'srv/review']);
          const weather = prompts[0];
          expect(weather?.title).toBe('Weather');
          expect(weather?.arguments.map((a) => [a.name, a.required === true])).toEqual([
            ['city', true],
            ['state', false],
          ]);
          expect(warnings.map((w) => [w.code, w.promptName])).toEqual([
            ['PROMPT_SANITIZED', 'weather'],
          ]);
        } finally {
          await client.close();
        }
      });

      it('PR-2: a prompt with arguments becomes Contents; roles mapped, media inline', async () => {
        const client = await make();
        try {
          const servers = await serversOf(client);
          const weather = await getPrompt(servers, 'srv/weather', { city: 'Paris', state: 'TX' });
          expect(weather.contents).toEqual([
            { role: 'user', parts: [{ text: weatherText('Paris', 'TX') }] },
          ]);
          const review = await getPrompt(servers, 'review');
          expect(review.contents).toEqual([
            {
              role: 'user',
              parts: [
                { text: 'Review this chart.' },
                { inlineData: { mimeType: 'image/png', data: PNG } },
              ],
            },
            {
              role: 'model',
              parts: [{ text: '[resource: file:///notes.md, text/markdown]\n# Notes' }],
            },
            { role: 'user', parts: [{ text: 'Go on.' }] },
          ]);
          for (const content of review.contents) expect(checkContent(content)).toEqual([]);
        } finally {
          await client.close();
        }
      });

      it('PR-3: missing and unknown arguments are INVALID_INPUT at their pointer', async () => {
        const client = await make();
        try {
          const servers = await serversOf(client);
          await expect(getPrompt(servers, 'srv/weather', { state: 'TX' })).rejects.toMatchObject({
            code: 'INVALID_INPUT',
            path: '/arguments/city',
            message: expect.stringContaining('missing required argument "city"'),
          });
          await expect(
            getPrompt(servers, 'srv/weather', { city: 'Paris', zip: '75001' }),
          ).rejects.toMatchObject({ code: 'INVALID_INPUT', path: '/arguments/zip' });
          await expect(getPrompt(servers, 'srv/nope')).rejects.toMatchObject({
            code: 'INVALID_INPUT',
            message: expect.stringContaining('srv/weather, srv/review'),
          });
        } finally {
          await client.close();
        }
      });

      it('PR-4: completes an argument (completion/complete, ref/prompt)', async () => {
        const client = await make();
        try {
          const servers = await serversOf(client);
          const { values } = await completePromptArgument(servers, 'srv/weather', 'city', 'Pa');
          expect(values).toEqual(['Paris', 'Padua']);
          await expect(
            completePromptArgument(servers, 'srv/weather', 'zip', '7'),
          ).rejects.toMatchObject({ code: 'INVALID_INPUT', path: '/arguments/zip' });
        } finally {
          await client.close();
        }
      });

      it('IN-1: instructions read after connect, sanitized, attributed only when opted in', async () => {
        const client = await make();
        try {
          const map = new Map([['srv', client]]);
          expect(serverInstructions(map, () => false)).toEqual([]);
          const read = serverInstructions(map, (id) => id === 'srv');
          expect(read).toEqual([
            {
              serverId: 'srv',
              text: 'Answer in French. Never guess a city.',
              removedCharacters: 1,
              truncated: false,
            },
          ]);
          expect(instructionsContent(read, 'Be brief.')).toEqual({
            parts: [
              {
                text: 'Be brief.\n\nInstructions from the MCP server "srv" (written by that server, not by the user):\nAnswer in French. Never guess a city.',
              },
            ],
          });
        } finally {
          await client.close();
        }
      });
    });
  }
});

/** A low-level server whose prompts/list pages are `pages` (cursor = the next page's index). */
async function pagedClient(pages: readonly unknown[][], cursors?: readonly (string | undefined)[]) {
  const server = new ServerV1(
    { name: 'paged', version: '1.0.0' },
    { capabilities: { prompts: {} } },
  );
  server.setRequestHandler(ListPromptsRequestSchema, (request) => {
    const page = Number(request.params?.cursor ?? 0);
    const next =
      cursors === undefined
        ? page + 1 < pages.length
          ? String(page + 1)
          : undefined
        : cursors[page];
    return {
      prompts: pages[page] ?? [],
      ...(next === undefined ? {} : { nextCursor: next }),
    } as never;
  });
  server.setRequestHandler(GetPromptRequestSchema, () => ({ messages: 'none' }) as never);
  const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
  await server.connect(serverSide);
  const client = new ClientV1(INFO);
  await client.connect(clientSide);
  return client;
}

describe('PR-5: what a server lists is bounded and checked', () => {
  it('follows every page; a bad prompt and a repeated name are left out with warnings', async () => {
    const client = await pagedClient([
      [{ name: 'a' }, { name: 7 }],
      [{ name: 'b', arguments: [{ name: 'x', required: true }] }, { name: 'a' }],
    ]);
    try {
      const { prompts, warnings } = await listAllPrompts(client, 'paged');
      expect(prompts.map((p) => p.id)).toEqual(['paged/a', 'paged/b']);
      expect(warnings.map((w) => [w.code, w.path])).toEqual([
        ['PROMPT_DROPPED', '/pages/0/prompts/1/name'],
        ['PROMPT_DROPPED', '/pages/1/prompts/1'],
      ]);
    } finally {
      await client.close();
    }
  });

  it('a repeated cursor is INVALID_PAYLOAD, not an endless loop', async () => {
    const client = await pagedClient([[{ name: 'a' }], [{ name: 'b' }]], ['1', '1']);
    try {
      await expect(listAllPrompts(client, 'paged')).rejects.toMatchObject({
        code: 'INVALID_PAYLOAD',
        path: '/nextCursor',
      });
    } finally {
      await client.close();
    }
  });

  it('a listing that fails at connect is a PROMPTS_UNLISTED warning, not a failure', async () => {
    const client = await pagedClient([[{ name: 'a' }], [{ name: 'b' }]], ['1', '1']);
    try {
      expect(await listPromptsOrWarn(client, 'paged')).toMatchObject({
        prompts: [],
        warnings: [{ code: 'PROMPTS_UNLISTED', serverId: 'paged' }],
      });
    } finally {
      await client.close();
    }
  });

  it('a bare name two servers share is INVALID_INPUT naming both; server/name picks one', async () => {
    const one = await v1Client();
    const two = await v2Client();
    try {
      const servers: PromptServers = {
        prompts: [
          ...(await listAllPrompts(one, 'one')).prompts,
          ...(await listAllPrompts(two, 'two')).prompts,
        ],
        clients: new Map([
          ['one', one],
          ['two', two],
        ]),
      };
      await expect(getPrompt(servers, 'review')).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('name one of one/review, two/review'),
      });
      expect((await getPrompt(servers, 'two/review')).prompt.serverId).toBe('two');
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('a prompts/get result that is no prompt is INVALID_PAYLOAD with its pointer', async () => {
    const client = await pagedClient([[{ name: 'a' }]]);
    try {
      const servers = await serversOf(client);
      await expect(getPrompt(servers, 'a')).rejects.toMatchObject({
        code: 'INVALID_PAYLOAD',
        path: '/messages',
      });
    } finally {
      await client.close();
    }
  });

  it('a server without the prompts capability is not asked', async () => {
    const server = new McpServerV1({ name: 'tools-only', version: '1.0.0' });
    server.registerTool('t', {}, async () => ({ content: [] }));
    const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV1(INFO);
    await client.connect(clientSide);
    const request = vi.spyOn(client, 'request');
    try {
      expect(await listAllPrompts(client, 'tools-only')).toEqual({ prompts: [], warnings: [] });
      expect(request).not.toHaveBeenCalled();
    } finally {
      await client.close();
    }
  });
});

describe('PR-6: media over the cap', () => {
  it('an image over maxInlineBytes is a placeholder text and a MEDIA_DROPPED warning', () => {
    const { contents, warnings } = promptContents(
      {
        messages: [{ role: 'user', content: { type: 'image', mimeType: 'image/png', data: PNG } }],
      },
      { serverId: 's', promptName: 'p', maxInlineBytes: 4 },
    );
    expect(contents).toEqual([{ role: 'user', parts: [{ text: '[image: image/png, 8 bytes]' }] }]);
    expect(warnings).toMatchObject([{ code: 'MEDIA_DROPPED', path: '/messages/0/content/data' }]);
  });

  it('an embedded PDF goes inline; an embedded zip is described', () => {
    const { contents } = promptContents(
      {
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: { uri: 'file:///a.pdf', mimeType: 'application/pdf', blob: 'JVBERg==' },
            },
          },
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: { uri: 'file:///a.zip', mimeType: 'application/zip', blob: 'UEsDBA==' },
            },
          },
        ],
      },
      { serverId: 's', promptName: 'p' },
    );
    expect(contents[0]?.parts).toEqual([
      { inlineData: { mimeType: 'application/pdf', data: 'JVBERg==' } },
      { text: '[resource: file:///a.zip, application/zip, 4 bytes]' },
    ]);
  });
});

describe('PR-7: LivePrompts', () => {
  it('a failed refresh keeps the previous prompts, warns, and is heard', async () => {
    const client = await v1Client();
    try {
      const first = await listAllPrompts(client, 'srv');
      const live = new LivePrompts(new Map([['srv', first]]));
      const heard: string[] = [];
      live.onChange((change) => heard.push('error' in change ? 'error' : 'prompts'));
      await expect(live.refresh('srv', () => Promise.reject(new Error('gone')))).rejects.toThrow(
        'gone',
      );
      expect(live.prompts.map((p) => p.id)).toEqual(['srv/weather', 'srv/review']);
      expect(live.warnings.at(-1)).toMatchObject({ code: 'PROMPTS_UNLISTED', serverId: 'srv' });
      await live.refresh('srv', () => Promise.resolve({ prompts: [], warnings: [] }));
      expect(live.prompts).toEqual([]);
      expect(live.warnings).toEqual([]);
      expect(heard).toEqual(['error', 'prompts']);
    } finally {
      await client.close();
    }
  });

  it('a storm of list_changed refreshes costs at most two listings at a time', async () => {
    const live = new LivePrompts(new Map([['srv', { prompts: [], warnings: [] }]]));
    let listings = 0;
    const fetch = async () => {
      listings++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { prompts: [], warnings: [] };
    };
    await Promise.all(Array.from({ length: 50 }, () => live.refreshNotified('srv', fetch)));
    expect(listings).toBe(2);
    await live.refreshNotified('srv', () => Promise.reject(new Error('gone')));
    expect(live.warnings).toMatchObject([{ code: 'PROMPTS_UNLISTED' }]);
  });
});
