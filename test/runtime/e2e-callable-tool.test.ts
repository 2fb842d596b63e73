/**
 * Issue 12, end to end: the real @google/genai client's automatic function calling runs MCP
 * tools through mcpCallableTool, against the local scripted Gemini endpoint, with two real
 * servers (stdio) whose tools share every name. genai's own mcpToTool, given the same servers,
 * throws on the duplicate name. Played with the newest @google/genai 2.x and, under Node 22 and
 * later (its `engines`), the newest 3.x.
 */
import * as genai2 from '@google/genai';
import * as genai3 from 'genai3';
import { afterEach, describe, expect, it } from 'vitest';
import { checkGenerateContentRequest } from '../../src/generated/guards.js';
import { mcpCallableTool } from '../../src/runtime/turn/callable-tool.js';
import { type FakeGemini, type ScriptedReply, startFakeGemini } from '../support/fake-gemini.js';
import { installedVersion } from '../support/genai-versions.js';
import { connectReapedAfterEach, FAULT_SERVER } from '../support/runtime-servers.js';

const MODEL = 'gemini-2.5-flash';
const nodeMajor = Number(process.versions.node.split('.')[0]);
const CLIENTS = [
  { label: `@google/genai ${installedVersion('@google/genai')}`, sdk: genai2, runs: true },
  { label: `@google/genai ${installedVersion('genai3')}`, sdk: genai3, runs: nodeMajor >= 22 },
] as const;

const connect = connectReapedAfterEach();
let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const callTurn = (...parts: object[]): ScriptedReply => ({
  response: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] },
});
const call = (id: string, name: string, args: object) => ({ functionCall: { id, name, args } });
const FINAL = 'Both servers echoed.';
const finalText = callTurn({ text: FINAL });

interface Body {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  tools: { functionDeclarations: { name: string; description: string }[] }[];
}

describe.each(CLIENTS)('issue 12: mcpCallableTool under $label', ({ sdk, runs }) => {
  it.runIf(runs)(
    'issue 12: automatic function calling runs two parallel calls on two colliding servers; mcpToTool throws on the same set',
    async () => {
      const servers = await connect({ mcpServers: { left: FAULT_SERVER, right: FAULT_SERVER } });
      fake = await startFakeGemini([
        callTurn(
          call('c1', 'left__echo', { text: 'from left', delayMs: 300 }),
          call('c2', 'right__echo', { text: 'from right' }),
        ),
        finalText,
      ]);
      const ai = new sdk.GoogleGenAI({
        apiKey: 'test-key',
        httpOptions: { baseUrl: fake.baseUrl },
      });

      const response = await ai.models.generateContent({
        model: MODEL,
        contents: 'Echo on both servers.',
        config: { tools: [mcpCallableTool(servers)] },
      });

      expect(response.text).toBe(FINAL);
      const bodies = fake.requests.map((request) => request.body as Body);
      expect(bodies).toHaveLength(2);
      for (const body of bodies) expect(checkGenerateContentRequest(body)).toEqual([]);
      const names = bodies[0]?.tools[0]?.functionDeclarations.map((d) => d.name) ?? [];
      expect(names).toContain('left__echo');
      expect(names).toContain('right__echo');
      expect(new Set(names).size).toBe(names.length);
      expect(bodies[1]?.contents[2]).toEqual({
        role: 'user',
        parts: [
          { functionResponse: { id: 'c1', name: 'left__echo', response: { output: 'from left' } } },
          {
            functionResponse: { id: 'c2', name: 'right__echo', response: { output: 'from right' } },
          },
        ],
      });

      // genai's own adapter, on the same two servers: the shared names are an error.
      fake.requests.length = 0;
      // genai types its adapter's clients by SDK 1.x; it calls listTools and callTool, which
      // the v2 Client of connectServers has too.
      const mcpTool = sdk.mcpToTool(
        servers.clients.get('left') as never,
        servers.clients.get('right') as never,
      );
      await expect(
        ai.models.generateContent({
          model: MODEL,
          contents: 'Echo on both servers.',
          config: { tools: [mcpTool] },
        }),
      ).rejects.toThrow(/Duplicate function name echo/);
      expect(fake.requests).toEqual([]);
    },
    60_000,
  );

  it.runIf(runs)(
    'issue 12: one answer per call with its id: unknown name, timeout; tools declared afresh after list_changed',
    async () => {
      const servers = await connect({ mcpServers: { left: FAULT_SERVER, right: FAULT_SERVER } });
      const changed = new Promise<void>((resolve) => servers.onToolsChanged(() => resolve()));
      fake = await startFakeGemini([
        callTurn(
          call('c1', 'echo', { text: 'which one?' }),
          call('c2', 'right__hang', {}),
          call('c3', 'left__add_tool', {}),
        ),
        finalText,
        finalText,
      ]);
      const ai = new sdk.GoogleGenAI({
        apiKey: 'test-key',
        httpOptions: { baseUrl: fake.baseUrl },
      });
      const tool = mcpCallableTool(servers, { timeoutMs: 1_000, schemaMode: 'openapi' });
      const ask = () =>
        ai.models.generateContent({ model: MODEL, contents: 'Go.', config: { tools: [tool] } });

      expect((await ask()).text).toBe(FINAL);
      const bodies = () => fake?.requests.map((request) => request.body as Body) ?? [];
      const answer = bodies()[1]?.contents[2]?.parts ?? [];
      expect(answer.map((part) => part.functionResponse)).toEqual([
        {
          id: 'c1',
          name: 'echo',
          response: { error: expect.stringMatching(/no function named "echo".*left__echo/) },
        },
        { id: 'c2', name: 'right__hang', response: { error: expect.stringMatching(/^TIMEOUT/) } },
        { id: 'c3', name: 'left__add_tool', response: { output: expect.anything() } },
      ]);
      const declared = bodies()[0]?.tools[0]?.functionDeclarations ?? [];
      expect(declared.find((d) => d.name === 'left__echo')).toHaveProperty(
        'parameters.type',
        'OBJECT',
      );

      await changed;
      expect((await ask()).text).toBe(FINAL);
      const redeclared = bodies()[2]?.tools[0]?.functionDeclarations ?? [];
      expect(redeclared.map((d) => d.name)).toContain('extra_1');
      expect(declared.map((d) => d.name)).not.toContain('extra_1');
    },
    60_000,
  );
});
