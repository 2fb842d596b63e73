/**
 * Issue 37, item 1, end to end: a configuration with one stdio server (run here) and one
 * Streamable HTTP server that Gemini runs itself (`runOn: "gemini"`: a `Tool.mcpServers` entry of
 * the request), played through the real @google/genai client against the local scripted Gemini
 * endpoint. The server on Gemini is at a public https: name that nothing here ever contacts
 * (the scripted endpoint plays Gemini, calling it included), so the default eligibility rule is
 * the one applied. The model's turn holds a call Gemini ran (with its functionResponse) and a
 * call for the local server: only the local one runs, and the next request, proven by the
 * write contract, carries both kinds of tool and the model's Content unchanged.
 */
import * as genai2 from '@google/genai';
import * as genai3 from 'genai3';
import { afterEach, describe, expect, it } from 'vitest';
import { geminiTools } from '../../src/adapter/tools/declarations.js';
import { checkGenerateContentRequest } from '../../src/generated/guards.js';
import type { Content } from '../../src/generated/types.js';
import { genaiGenerate } from '../../src/runtime/model/generate.js';
import { mcpCallableTool } from '../../src/runtime/turn/callable-tool.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';
import { type FakeGemini, type ScriptedReply, startFakeGemini } from '../support/fake-gemini.js';
import { installedVersion } from '../support/genai-versions.js';
import { BITCOIN_SERVER, connectReapedAfterEach, EUR_QUOTE } from '../support/runtime-servers.js';

const MODEL = 'gemini-2.5-flash';
const WEATHER_URL = 'https://weather.example.com/mcp';
const CONFIG = {
  mcpServers: {
    bitcoin: BITCOIN_SERVER,
    weather: { type: 'http' as const, url: WEATHER_URL, runOn: 'gemini' as const },
  },
};
const USER: genai2.Content = {
  role: 'user',
  parts: [{ text: 'Weather in Paris, and a bitcoin in EUR?' }],
};

/** The model's turn: Gemini ran `weather_get_forecast` itself; `bitcoin_price` is ours. */
const MIXED_TURN: Content = {
  role: 'model',
  parts: [
    {
      functionCall: { id: 's1', name: 'weather_get_forecast', args: { city: 'Paris' } },
      thoughtSignature: 'U0lHLTE=',
    },
    {
      functionResponse: {
        id: 's1',
        name: 'weather_get_forecast',
        response: { output: 'Sunny, 21 °C' },
      },
    },
    { functionCall: { id: 'c1', name: 'bitcoin_price', args: { currency: 'EUR' } } },
  ],
};
const reply = (content: Content): ScriptedReply => ({
  response: { candidates: [{ content, finishReason: 'STOP', index: 0 }], modelVersion: MODEL },
});
const FINAL = 'Sunny in Paris; 1 BTC is €90,310.55.';

interface Body {
  contents: Content[];
  tools: Record<string, unknown>[];
}

const connect = connectReapedAfterEach();
let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const nodeMajor = Number(process.versions.node.split('.')[0]);
const CLIENTS = [
  { label: `@google/genai ${installedVersion('@google/genai')}`, sdk: genai2, runs: true },
  { label: `@google/genai ${installedVersion('genai3')}`, sdk: genai3, runs: nodeMajor >= 22 },
] as const;

describe('issue 37: a server on Gemini beside a local one', () => {
  it('issue 37: runConversation runs only the local call; the next request is valid and carries both tools and the turn as sent', async () => {
    const connections = await connect(CONFIG);
    expect(connections.placements.map((p) => [p.serverId, p.runOn])).toEqual([
      ['bitcoin', 'client'],
      ['weather', 'gemini'],
    ]);
    expect([...connections.clients.keys()]).toEqual(['bitcoin']);
    expect(connections.mcpServers).toEqual([
      { name: 'weather', streamableHttpTransport: { url: WEATHER_URL } },
    ]);

    fake = await startFakeGemini([
      reply(MIXED_TURN),
      reply({ role: 'model', parts: [{ text: FINAL }] }),
    ]);
    const ai = new genai2.GoogleGenAI({
      apiKey: 'test-key',
      httpOptions: { baseUrl: fake.baseUrl },
    });
    const result = await runConversation({
      generate: genaiGenerate(ai, { model: MODEL }),
      toolset: connections,
      clients: connections.clients,
      mcpServers: connections.mcpServers,
      contents: [USER],
    });

    expect(result.stop).toEqual({ reason: 'answered', text: FINAL, finishReason: 'STOP' });
    expect(result.ranByGemini).toEqual([
      {
        name: 'weather_get_forecast',
        callId: 's1',
        serverId: 'weather',
        toolName: 'get_forecast',
        response: { output: 'Sunny, 21 °C' },
        turn: 1,
      },
    ]);
    const bodies = fake.requests.map((request) => request.body as Body);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(checkGenerateContentRequest(body)).toEqual([]);
    const expectedTools = JSON.parse(
      JSON.stringify(geminiTools(connections.toolset, { mcpServers: connections.mcpServers })),
    );
    expect(expectedTools.map((tool: object) => Object.keys(tool))).toEqual([
      ['functionDeclarations'],
      ['mcpServers'],
    ]);
    for (const body of bodies) expect(body.tools).toEqual(expectedTools);
    const [, model, answer] = bodies[1]?.contents ?? [];
    expect(model).toEqual(MIXED_TURN);
    // One functionResponse: the local call's. Gemini's own call is answered in its Content.
    expect(answer).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'c1',
            name: 'bitcoin_price',
            response: {
              output: EUR_QUOTE,
            },
          },
        },
      ],
    });
  }, 30_000);
});

describe.each(CLIENTS)(
  'issue 37: mcpCallableTool beside a server on Gemini, under $label',
  ({ sdk, runs }) => {
    it.runIf(runs)(
      "issue 37: genai's automatic function calling hands every call to the CallableTool; the one Gemini ran is skipped",
      async () => {
        const connections = await connect(CONFIG);
        fake = await startFakeGemini([
          reply(MIXED_TURN),
          reply({ role: 'model', parts: [{ text: FINAL }] }),
        ]);
        const ai = new sdk.GoogleGenAI({
          apiKey: 'test-key',
          httpOptions: { baseUrl: fake.baseUrl },
        });
        const callable = mcpCallableTool(connections);

        const response = await ai.models.generateContent({
          model: MODEL,
          contents: 'Weather in Paris, and a bitcoin in EUR?',
          config: { tools: [callable, ...callable.mcpServerTools()] },
        });

        expect(response.text).toBe(FINAL);
        const bodies = fake.requests.map((request) => request.body as Body);
        expect(bodies).toHaveLength(2);
        for (const body of bodies) expect(checkGenerateContentRequest(body)).toEqual([]);
        expect(bodies[0]?.tools.map((tool) => Object.keys(tool))).toEqual([
          ['functionDeclarations'],
          ['mcpServers'],
        ]);
        expect(bodies[1]?.contents[1]).toEqual(MIXED_TURN);
        expect(bodies[1]?.contents[2]?.parts?.map((part) => part.functionResponse?.name)).toEqual([
          'bitcoin_price',
        ]);
      },
      30_000,
    );
  },
);
