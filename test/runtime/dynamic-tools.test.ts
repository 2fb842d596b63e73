/**
 * Dynamic tool sets (issue 15, item 5): a tool call that makes its server add a tool
 * (`tools/list_changed`) is followed, in the very next request the real @google/genai client
 * sends, by the new tool, because runConversation waits (bounded) for the refresh in flight.
 * A real SDK McpServer over stdio (through connectServers) and in memory.
 */
import { GoogleGenAI } from '@google/genai';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import { LiveToolSet, type ToolSetSource } from '../../src/runtime/mcp/live-toolset.js';
import type { McpClient } from '../../src/runtime/mcp/mcp-client.js';
import { genaiGenerate } from '../../src/runtime/model/generate.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import type { ConversationResult } from '../../src/runtime/turn/conversation.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';
import { type FakeGemini, type ScriptedReply, startFakeGemini } from '../support/fake-gemini.js';
import { connectReapedAfterEach } from '../support/runtime-servers.js';
import { inMemoryUnlockClient, UNLOCK_SERVER, UNLOCKED_TOOL } from '../support/unlock-server.js';

const MODEL = 'gemini-2.5-flash';
const SLOW = 30_000;

const reply = (parts: object[]): ScriptedReply => ({
  response: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] },
});
/** unlock, then the tool it added, then an answer. */
const UNLOCK_SCRIPT = [
  reply([{ functionCall: { id: 'u1', name: 'unlock', args: {} } }]),
  reply([{ functionCall: { id: 'v1', name: UNLOCKED_TOOL, args: {} } }]),
  reply([{ text: 'The vault is open.' }]),
];

interface Body {
  tools?: { functionDeclarations?: { name: string }[] }[];
  contents: { parts?: { functionResponse?: { name: string; response: unknown } }[] }[];
}

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function play(
  toolset: ToolSet | (() => ToolSet) | ToolSetSource,
  clients: ReadonlyMap<string, McpClient>,
  options: { toolsRefreshTimeoutMs?: number } = {},
): Promise<{ declared: string[][]; bodies: Body[]; result: ConversationResult }> {
  fake = await startFakeGemini(UNLOCK_SCRIPT);
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.baseUrl } });
  const result = await runConversation({
    generate: genaiGenerate(ai, { model: MODEL }),
    toolset,
    clients,
    contents: [{ role: 'user', parts: [{ text: 'Open the vault.' }] }],
    maxTurns: 3,
    ...options,
  });
  const bodies = fake.requests.map((request) => request.body as Body);
  const declared = bodies.map((body) =>
    (body.tools?.[0]?.functionDeclarations ?? []).map((d) => d.name).sort(),
  );
  return { declared, bodies, result: result as unknown as ConversationResult };
}

/** The last functionResponse of a request. */
function lastResponse(body: Body | undefined): { name: string; response: unknown } | undefined {
  return body?.contents.at(-1)?.parts?.[0]?.functionResponse;
}

/**
 * An SDK McpServer in memory, followed as connectServers follows a server (a LiveToolSet
 * refreshed on list_changed), each re-list delayed by `delayMs` (a slow server): without the
 * wait, the next request would be built before the refresh lands.
 */
async function inMemoryUnlock(delayMs: number, hang = false) {
  const { client } = await inMemoryUnlockClient();
  const live = new LiveToolSet(new Map([['vault', await listAllTools(client)]]));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () =>
    live.replaceAndNotify('vault', async () => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (hang) await new Promise(() => {});
      return listAllTools(client);
    }),
  );
  return { live, clients: new Map([['vault', client]]), close: () => client.close() };
}

describe('issue 15: a tool a call unlocks is declared in the very next request', () => {
  const connect = connectReapedAfterEach();

  it(
    'EX-5: over stdio (connectServers): unlock, then open_vault is declared and answered',
    async () => {
      const connections = await connect({ mcpServers: { vault: UNLOCK_SERVER } });
      const { declared, bodies, result } = await play(connections, connections.clients);
      expect(declared[0]).toEqual(['report', 'unlock']);
      expect(declared[1]).toEqual([UNLOCKED_TOOL, 'report', 'unlock']);
      expect(lastResponse(bodies[2])).toEqual({
        id: 'v1',
        name: UNLOCKED_TOOL,
        response: { output: 'the vault is open' },
      });
      expect(result.stop).toMatchObject({ reason: 'answered', text: 'The vault is open.' });
    },
    SLOW,
  );

  it(
    'EX-5: over stdio the notification precedes the result: the refresh it starts is awaited by toolsSettled',
    async () => {
      const connections = await connect({ mcpServers: { vault: UNLOCK_SERVER } });
      const answer = await answerCalls(
        [{ functionCall: { id: 'u1', name: 'unlock', args: {} } }],
        connections.toolset,
        connections.clients,
      );
      expect(answer.parts?.[0]?.functionResponse?.response).toEqual({ output: 'unlocked' });
      // Whether the re-list is back when the result is read is a race (the child may answer it
      // within the same read), so only that the refresh ends with the tool is checked.
      expect(await connections.toolsSettled()).toBe(true);
      expect(connections.toolset.resolve(UNLOCKED_TOOL)?.serverId).toBe('vault');
    },
    SLOW,
  );

  it('EX-5: in memory, with a slow re-list: the request waits for the refresh in flight', async () => {
    const server = await inMemoryUnlock(300);
    try {
      const { declared, bodies } = await play(server.live, server.clients);
      expect(declared[1]).toEqual([UNLOCKED_TOOL, 'report', 'unlock']);
      expect(lastResponse(bodies[2])?.response).toEqual({ output: 'the vault is open' });
    } finally {
      await server.close();
    }
  });

  it('EX-5: a function as toolset does not wait: with the re-list still in flight, the next request lacks the tool', async () => {
    const server = await inMemoryUnlock(0, true);
    try {
      const { declared, bodies } = await play(() => server.live.toolset, server.clients);
      expect(declared[1]).toEqual(['report', 'unlock']);
      expect(lastResponse(bodies[2])?.response).toMatchObject({
        error: expect.stringContaining(UNLOCKED_TOOL),
      });
    } finally {
      await server.close();
    }
  });

  it('EX-5: the wait is bounded: a re-list that never ends costs toolsRefreshTimeoutMs, then the current set goes', async () => {
    const server = await inMemoryUnlock(0, true);
    try {
      const { declared } = await play(server.live, server.clients, { toolsRefreshTimeoutMs: 100 });
      expect(declared).toHaveLength(3);
      expect(declared[1]).toEqual(['report', 'unlock']);
    } finally {
      await server.close();
    }
  });

  it('EX-5: toolsRefreshTimeoutMs out of range is refused, typed, before any request', async () => {
    const server = await inMemoryUnlock(0);
    try {
      await expect(
        play(server.live, server.clients, { toolsRefreshTimeoutMs: 0 }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT', data: { option: 'toolsRefreshTimeoutMs' } });
      expect(fake?.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
