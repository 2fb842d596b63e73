/**
 * Issue 11 through the runtime: the "future API" fixtures (test/conformance/future-api) played
 * as whole conversation turns by the real @google/genai client against the local scripted
 * Gemini endpoint, and MCP tools and results of each protocol version served by a raw
 * in-memory server. Turns complete, novelties are reported as notices, and the model's Content
 * goes back in the next request unchanged.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Content as GenAiContent, GoogleGenAI } from '@google/genai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { geminiTools } from '../../src/adapter/tools/declarations.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import { functionResponse } from '../../src/adapter/turn/responses.js';
import type { ReadNotice } from '../../src/generated/guards.js';
import type { Content, GenerateContentResponse } from '../../src/generated/types.js';
import { connectServers } from '../../src/runtime/mcp/connect.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import {
  genaiGenerate,
  genaiGenerateStream,
  readGenerateContentResponse,
} from '../../src/runtime/model/generate.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';
import { executeToolCalls } from '../../src/runtime/turn/execute.js';
import { type FakeGemini, type ScriptedReply, startFakeGemini } from '../support/fake-gemini.js';
import { FAULT_SERVER, inMemoryBitcoinClient } from '../support/runtime-servers.js';

const MODEL = 'gemini-2.5-flash';
const conformance = join(import.meta.dirname, '..', 'conformance');
const futureDir = join(conformance, 'future-api', 'gemini');
const expectedNotices: Record<string, string[]> = JSON.parse(
  readFileSync(join(conformance, 'future-api', 'expected-notices.json'), 'utf8'),
);
const FUTURE = readdirSync(futureDir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({
    name: file.replace(/\.json$/, ''),
    response: JSON.parse(readFileSync(join(futureDir, file), 'utf8')) as GenerateContentResponse,
  }));

/**
 * Fields @google/genai itself drops from a response before anyone sees them: it copies only the
 * Candidate fields it knows (Content, Part and usage fields it passes on as they came).
 */
const DROPPED_BY_GENAI = new Set(['/candidates/0/futureGroundingScore']);

const USER: GenAiContent = { role: 'user', parts: [{ text: 'Say hello to Ada.' }] };
const finalResponse = (finishReason = 'STOP') => ({
  candidates: [{ content: { role: 'model', parts: [{ text: 'Hello, Ada!' }] }, finishReason }],
});
const finalText = (finishReason = 'STOP'): ScriptedReply => ({
  response: finalResponse(finishReason),
});

let bitcoin: Client;
let toolset: ToolSet;
let fake: FakeGemini | undefined;
beforeAll(async () => {
  bitcoin = await inMemoryBitcoinClient();
  toolset = buildToolSet([{ serverId: 'bitcoin', tools: await listAllTools(bitcoin) }]).toolset;
});
afterAll(async () => {
  await bitcoin.close();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function play(
  script: ScriptedReply[],
  stream: boolean,
  tools = toolset,
  clients = { bitcoin },
) {
  fake = await startFakeGemini(script);
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.baseUrl } });
  const notices: ReadNotice[] = [];
  const result = await runConversation({
    generate: (stream ? genaiGenerateStream : genaiGenerate)(ai, { model: MODEL }),
    toolset: tools,
    clients,
    contents: [USER],
    onNotice: (notice) => notices.push(notice),
  });
  const bodies = fake.requests.map((request) => request.body as { contents: Content[] });
  return { result, notices, bodies };
}

describe('issue 11: a turn with novelties completes through runConversation and @google/genai', () => {
  it('has a fixture for each kind of novelty', () => {
    expect(FUTURE.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        'new-finish-reason',
        'new-harm-category',
        'new-modality',
        'new-part-field',
        'new-part-kind',
        'new-candidate-field',
        'new-usage-field',
      ]),
    );
  });

  for (const { name, response } of FUTURE) {
    const model = response.candidates?.[0]?.content;
    const expected = (expectedNotices[name] ?? []).filter((path) => !DROPPED_BY_GENAI.has(path));

    it(`${name}: generateContent: answered, notices reported, the model's Content sent back byte for byte`, async () => {
      const { result, notices, bodies } = await play([{ response }, finalText()], false);
      expect(result.stop).toMatchObject({ reason: 'answered', text: 'Hello, Ada!' });
      expect(notices.map((n) => n.path).sort()).toEqual([...expected].sort());
      for (const notice of notices)
        expect(notice.message).toContain('unknown to revision 20260325');
      expect(JSON.stringify(bodies[1]?.contents[1])).toBe(JSON.stringify(model));
      expect(bodies[1]?.contents[2]?.parts?.[0]?.functionResponse).toMatchObject({
        id: 'c1',
        name: 'hello',
        response: { output: 'Hello, Ada!' },
      });
    });

    it(`${name}: generateContentStream: the same, the chunks gathered into one Content`, async () => {
      const { candidates, ...rest } = response;
      const [candidate] = candidates ?? [];
      const parts = candidate?.content?.parts ?? [];
      const { parts: _parts, ...contentFields } = candidate?.content ?? {};
      // The parts one per chunk; the candidate's and the response's other fields on the last.
      const chunks = parts.map((part, index) => ({
        candidates: [
          index < parts.length - 1
            ? { content: { ...contentFields, parts: [part] } }
            : { ...candidate, content: { ...contentFields, parts: [part] } },
        ],
        ...(index < parts.length - 1 ? {} : rest),
      }));
      const { result, notices, bodies } = await play(
        [{ chunks }, { chunks: [finalResponse()] }],
        true,
      );
      expect(result.stop).toMatchObject({ reason: 'answered' });
      // A chunk's notices point into that chunk: compare what they say, not where.
      const whole: ReadNotice[] = [];
      readGenerateContentResponse(response, { onNotice: (n) => whole.push(n) });
      const said = (list: ReadNotice[]) => new Set(list.map((n) => `${n.code}: ${n.message}`));
      expect(said(notices)).toEqual(said(whole.filter((n) => !DROPPED_BY_GENAI.has(n.path))));
      expect(bodies[1]?.contents[1]).toEqual(model);
    });
  }

  it('an unknown finishReason ends the conversation as such, with its raw value and a notice', async () => {
    const { result, notices } = await play([finalText('STOPPED_FOR_A_FUTURE_REASON')], false);
    expect(result.stop).toEqual({
      reason: 'answered',
      text: 'Hello, Ada!',
      finishReason: 'STOPPED_FOR_A_FUTURE_REASON',
    });
    expect(notices).toEqual([
      {
        code: 'unknown-enum-value',
        schema: 'GenerateContentResponse',
        path: '/candidates/0/finishReason',
        value: 'STOPPED_FOR_A_FUTURE_REASON',
        message: 'finishReason "STOPPED_FOR_A_FUTURE_REASON" is unknown to revision 20260325',
      },
    ]);
  });

  it('fields the reading code depends on stay required: a call without a name is INVALID_PAYLOAD', async () => {
    const broken: ScriptedReply = {
      response: {
        candidates: [{ content: { role: 'model', parts: [{ functionCall: { args: {} } }] } }],
      },
    };
    await expect(play([broken], false)).rejects.toMatchObject({
      code: 'INVALID_PAYLOAD',
      path: '/candidates/0/content/parts/0/functionCall/name',
    });
  });
});

/** The MCP fixtures of one protocol version. */
function versionFixtures(version: string, definition: string): Record<string, unknown> {
  const dir = join(conformance, 'mcp-versions', version, 'valid');
  const out: Record<string, unknown> = {};
  for (const file of readdirSync(dir).sort()) {
    const fixture = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    if (fixture.definition === definition) out[file.replace(/\.json$/, '')] = fixture.payload;
  }
  return out;
}

/** A raw JSON-RPC MCP server in memory: lists `tools`, answers each call with `results[name]`. */
async function rawServer(tools: unknown[], results: Record<string, unknown>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const send = (message: object) => void serverSide.send(message as JSONRPCMessage);
  serverSide.onmessage = (message) => {
    const { id, method, params } = message as {
      id?: number;
      method?: string;
      params?: { protocolVersion?: string; name?: string };
    };
    if (id === undefined) return;
    if (method === 'initialize') {
      send({
        jsonrpc: '2.0',
        id,
        result: {
          protocolVersion: params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'raw', version: '1.0.0' },
        },
      });
    } else if (method === 'tools/list') send({ jsonrpc: '2.0', id, result: { tools } });
    else if (method === 'tools/call') {
      send({ jsonrpc: '2.0', id, result: results[params?.name ?? ''] });
    }
  };
  await serverSide.start();
  const client = new Client({ name: 'read-tolerance-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** Per version: the tools its fixtures hold and the result fixture each one answers with. */
const VERSION_CALLS: Record<string, Record<string, string | { inline: unknown }>> = {
  '2025-06-18': { get_weather: 'result-structured-object', a: 'result-every-block' },
  '2025-11-25': { render: 'result-resource-link-with-icons', b: 'result-error' },
  '2026-07-28': {
    primes: 'result-array-structured',
    slug: 'result-string-structured',
    c: { inline: { content: [], structuredContent: 42, resultType: 'complete' } },
  },
};

describe('issue 11: MCP tools and results of each protocol version through a whole turn', () => {
  for (const [version, calls] of Object.entries(VERSION_CALLS)) {
    it(`${version}: every tool kept and declared, every result reaches the model`, async () => {
      const toolFixtures = versionFixtures(version, 'Tool');
      const listed = Object.values(versionFixtures(version, 'ListToolsResult')).flatMap(
        (list) => (list as { tools: unknown[] }).tools,
      );
      const resultFixtures = versionFixtures(version, 'CallToolResult');
      const results = Object.fromEntries(
        Object.entries(calls).map(([tool, source]) => [
          tool,
          typeof source === 'string' ? resultFixtures[source] : source.inline,
        ]),
      );
      const server = await rawServer([...Object.values(toolFixtures), ...listed], results);
      try {
        const built = buildToolSet([{ serverId: 'v', tools: await listAllTools(server) }]);
        expect(built.warnings.filter((w) => w.code === 'TOOL_INVALID')).toEqual([]);
        const names = Object.keys(calls);
        for (const name of names) expect(built.toolset.resolve(name)?.tool.name).toBe(name);
        const declared = geminiTools(built.toolset, { responseSchema: true });
        expect(declared[0]?.functionDeclarations?.map((d) => d.name)).toEqual(
          expect.arrayContaining(names),
        );

        const turn: ScriptedReply = {
          response: {
            candidates: [
              {
                content: {
                  role: 'model',
                  parts: names.map((name, i) => ({
                    functionCall: { id: `c${i}`, name, args: {} },
                  })),
                },
              },
            ],
          },
        };
        const { result, bodies } = await play([turn, finalText()], false, built.toolset, {
          v: server,
        } as never);
        expect(result.stop).toMatchObject({ reason: 'answered' });
        const answer = bodies[1]?.contents[2]?.parts ?? [];
        expect(answer).toHaveLength(names.length);
        for (const [i, name] of names.entries()) {
          const sent = results[name] as { structuredContent?: unknown; isError?: boolean };
          const response = answer[i]?.functionResponse?.response as Record<string, unknown>;
          if (sent.isError === true) expect(response.error).toEqual(expect.any(String));
          else if (sent.structuredContent !== undefined)
            expect(response.output).toEqual(sent.structuredContent);
          else expect(response.output).toEqual(expect.any(String));
        }
      } finally {
        await server.close();
      }
    });
  }
});

describe('issue 32 item 5: a content block of a type newer than the schemas is read, never refused', () => {
  const VIDEO = { type: 'video', mimeType: 'video/mp4', uri: 'https://example.com/clip.mp4' };
  const RESULT = { content: [VIDEO, { type: 'text', text: 'a clip of the launch' }] };
  const DESCRIBED =
    '[content block of type "video", unknown to this client: mimeType "video/mp4", uri "https://example.com/clip.mp4"]\na clip of the launch';

  it('executeToolCalls: the result is kept with an unknown-block-kind notice, and the model reads it described', async () => {
    const server = await rawServer([{ name: 'clip', inputSchema: { type: 'object' } }], {
      clip: RESULT,
    });
    try {
      const { toolset } = buildToolSet([{ serverId: 'v', tools: await listAllTools(server) }]);
      const notices: ReadNotice[] = [];
      const call = toolset.resolve('clip')!;
      const [outcome] = await executeToolCalls(
        [
          {
            callId: 'c1',
            exposedName: 'clip',
            serverId: 'v',
            name: 'clip',
            arguments: {},
            tool: call.tool,
          },
        ],
        { v: server },
        { onNotice: (notice) => notices.push(notice) },
      );
      expect(outcome?.result).toEqual(RESULT);
      expect(notices).toEqual([
        expect.objectContaining({ code: 'unknown-block-kind', path: '/content/0', value: 'video' }),
      ]);
      const turn: ScriptedReply = {
        response: {
          candidates: [
            {
              content: {
                role: 'model',
                parts: [{ functionCall: { id: 'c2', name: 'clip', args: {} } }],
              },
            },
          ],
        },
      };
      const { result, bodies } = await play([turn, finalText()], false, toolset, {
        v: server,
      } as never);
      expect(result.stop).toMatchObject({ reason: 'answered' });
      expect(bodies[1]?.contents[2]?.parts?.[0]?.functionResponse?.response).toEqual({
        output: DESCRIBED,
      });
    } finally {
      await server.close();
    }
  });

  it('functionResponse: the block is described, not thrown on; a block without a string type still is refused', () => {
    expect(functionResponse('clip', RESULT).functionResponse?.response).toEqual({
      output: DESCRIBED,
    });
    expect(() => functionResponse('clip', { content: [{ type: 7 }] })).toThrow(/CallToolResult/);
  });
});

describe('issue 11: a result that is not an object is INVALID_RESULT at once', () => {
  const cases = [
    ...(['string', 'array', 'null'] as const).map((as) => ({
      what: `a ${as} result`,
      name: 'not_object',
      args: { as },
      path: '/',
    })),
    {
      what: 'a result whose _meta is a string',
      name: 'malformed',
      args: { meta: true },
      path: '/_meta',
    },
  ];
  for (const { what, name, args, path } of cases) {
    it(`over stdio (connectServers): ${what}`, async () => {
      const connections = await connectServers(
        { mcpServers: { faults: FAULT_SERVER } },
        { stderr: 'ignore' },
      );
      try {
        const timeoutMs = 30_000;
        const started = performance.now();
        const [outcome] = await executeToolCalls(
          [
            {
              serverId: 'faults',
              name,
              exposedName: name,
              callId: null,
              arguments: args,
              tool: { name, inputSchema: { type: 'object' } },
            },
          ],
          connections.clients,
          { timeoutMs },
        );
        const elapsed = performance.now() - started;
        console.log(
          `stdio, ${what}: INVALID_RESULT after ${elapsed.toFixed(1)} ms (timeout ${timeoutMs} ms)`,
        );
        expect(outcome?.result).toMatchObject({
          code: 'INVALID_RESULT',
          message: expect.stringContaining(`(${path}: `),
        });
        // A generous ceiling, far below the timeout: the answer is the server's own reply.
        expect(elapsed).toBeLessThan(2_000);
      } finally {
        await connections.close();
      }
    });
  }
});
