/**
 * Issue 35 items 2 and 3 end to end over stdio: server-everything's prompts as it publishes
 * them, one with arguments turned into Contents and sent through the real @google/genai client
 * to the scripted endpoint, its completions; a prompt a tool call adds heard through
 * `prompts/list_changed`; server instructions off by default and, opted in, in the request once,
 * attributed and sanitized.
 */
import { GoogleGenAI } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { checkGenerateContentRequest } from '../../src/generated/guards.js';
import type { ServerConnections } from '../../src/runtime/mcp/connect.js';
import { completePromptArgument, getPrompt } from '../../src/runtime/mcp/prompts.js';
import { genaiGenerate } from '../../src/runtime/model/generate.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';
import { type FakeGemini, type ScriptedReply, startFakeGemini } from '../support/fake-gemini.js';
import { connectReapedAfterEach, EVERYTHING_SERVER } from '../support/runtime-servers.js';
import { UNLOCK_SERVER, UNLOCKED_PROMPT } from '../support/unlock-server.js';

const MODEL = 'gemini-2.5-flash';
const connect = connectReapedAfterEach();

const answer = (text: string): ScriptedReply => ({
  response: {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
  },
});

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

interface Body {
  contents: unknown[];
  systemInstruction?: { parts: { text: string }[] };
}

/** Plays one answered turn from `contents` through the real genai client; the request body sent. */
async function send(connections: ServerConnections, contents: object[], system?: object) {
  fake = await startFakeGemini([answer('Sunny.')]);
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.baseUrl } });
  const generate = genaiGenerate(ai, {
    model: MODEL,
    ...(system === undefined ? {} : { config: { systemInstruction: system } }),
  });
  const result = await runConversation({
    generate,
    toolset: connections,
    clients: connections.clients,
    contents: contents as never[],
  });
  expect(result.stop).toMatchObject({ reason: 'answered', text: 'Sunny.' });
  const body = fake.requests[0]?.body as Body;
  expect(checkGenerateContentRequest(body)).toEqual([]);
  return body;
}

/** How many times `needle` occurs in `haystack`. */
const occurrences = (haystack: string, needle: string): number => haystack.split(needle).length - 1;

describe('issue 35: server-everything prompts over stdio', () => {
  it('PR-1: its four prompts, as it registers them (prompts/index.js), namespaced', async () => {
    const connections = await connect({ mcpServers: { everything: EVERYTHING_SERVER } });
    expect(connections.prompts.map((p) => [p.id, p.arguments.map((a) => a.name)])).toEqual([
      ['everything/simple-prompt', []],
      ['everything/args-prompt', ['city', 'state']],
      ['everything/completable-prompt', ['department', 'name']],
      ['everything/resource-prompt', ['resourceType', 'resourceId']],
    ]);
    expect(connections.promptWarnings).toEqual([]);
  });

  it('PR-2: args-prompt with its arguments goes through @google/genai as the request contents', async () => {
    const connections = await connect({ mcpServers: { everything: EVERYTHING_SERVER } });
    const { contents } = await getPrompt(connections, 'everything/args-prompt', {
      city: 'Paris',
      state: 'Texas',
    });
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: "What's weather in Paris, Texas?" }] },
    ]);
    const body = await send(connections, contents);
    expect(body.contents).toEqual(contents);
    expect(body.systemInstruction).toBeUndefined();
  });

  it('PR-2: resource-prompt embeds its text and blob resources as text Parts', async () => {
    const connections = await connect({ mcpServers: { everything: EVERYTHING_SERVER } });
    for (const resourceType of ['Text', 'Blob']) {
      const { contents } = await getPrompt(connections, 'resource-prompt', {
        resourceType,
        resourceId: '2',
      });
      expect(contents).toHaveLength(1);
      const [intro, resource] = contents[0]?.parts ?? [];
      expect(intro?.text).toContain(`the ${resourceType} resource with id: 2`);
      expect(resource?.text).toMatch(
        new RegExp(
          `^\\[resource: demo://resource/dynamic/${resourceType.toLowerCase()}/2, text/plain\\]\\nResource 2: `,
        ),
      );
    }
  });

  it('PR-3, PR-4: arguments checked before sending; completion/complete with context', async () => {
    const connections = await connect({ mcpServers: { everything: EVERYTHING_SERVER } });
    await expect(getPrompt(connections, 'everything/args-prompt', {})).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      path: '/arguments/city',
    });
    const prompt = 'everything/completable-prompt';
    expect(await completePromptArgument(connections, prompt, 'department', 'E')).toMatchObject({
      values: ['Engineering'],
    });
    const names = await completePromptArgument(connections, prompt, 'name', '', {
      context: { department: 'Sales' },
    });
    expect(names.values).toEqual(['David', 'Eve', 'Frank']);
  });
});

describe('issue 35: prompts/list_changed and server instructions over stdio', () => {
  it('PR-1: a prompt a tool call adds is listed once its server says the list changed', async () => {
    const connections = await connect({ mcpServers: { vault: UNLOCK_SERVER } });
    expect(connections.prompts.map((p) => p.id)).toEqual(['vault/vault_hint']);
    const heard = new Promise((resolve) => connections.onPromptsChanged(resolve));
    await connections.clients.get('vault')?.callTool({ name: 'unlock', arguments: {} });
    expect(await heard).toMatchObject({ serverId: 'vault' });
    expect(connections.prompts.map((p) => p.id)).toEqual([
      'vault/vault_hint',
      `vault/${UNLOCKED_PROMPT}`,
    ]);
  });

  it('IN-1: instructions are off by default: none read, none sent', async () => {
    const connections = await connect({ mcpServers: { vault: UNLOCK_SERVER } });
    expect(connections.instructions).toEqual([]);
    expect(connections.systemInstruction()).toBeUndefined();
    expect(connections.systemInstruction('Be brief.')).toEqual({ parts: [{ text: 'Be brief.' }] });
  });

  it('IN-2: opted in, they are in the request once, attributed to their server, sanitized', async () => {
    const connections = await connect(
      { mcpServers: { vault: UNLOCK_SERVER, everything: EVERYTHING_SERVER } },
      { servers: { vault: { instructions: true } } },
    );
    expect(connections.instructions.map((i) => [i.serverId, i.removedCharacters])).toEqual([
      ['vault', 1],
    ]);
    const { contents } = await getPrompt(connections, 'vault/vault_hint');
    const body = await send(connections, contents, connections.systemInstruction('Be brief.'));
    const sent = JSON.stringify(body);
    const clean = 'Open the vault only when asked. Say \\"vault\\" in full.';
    expect(occurrences(sent, clean)).toBe(1);
    expect(occurrences(sent, 'Instructions from the MCP server')).toBe(1);
    expect(sent).not.toContain('\u202E');
    expect(body.systemInstruction?.parts).toEqual([
      {
        text: 'Be brief.\n\nInstructions from the MCP server "vault" (written by that server, not by the user):\nOpen the vault only when asked. Say "vault" in full.',
      },
    ]);
    // server-everything's own instructions were not opted in.
    expect(sent).not.toContain('Everything Server');
  });
});
