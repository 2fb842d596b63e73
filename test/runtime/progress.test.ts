/**
 * Progress (issue 15, item 6): the servers' `notifications/progress` about a running call reach
 * `onProgress` with the call they belong to, bounded (non-finite numbers dropped, messages
 * capped), through executeToolCalls, answerCalls and runConversation.
 */
import { GoogleGenAI } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import type { ResolvedCall } from '../../src/adapter/types.js';
import { utf8ByteLength } from '../../src/json/utf8.js';
import {
  type CallProgress,
  followProgress,
  MAX_PROGRESS_MESSAGE_BYTES,
  progressHandler,
} from '../../src/runtime/mcp/call-progress.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import { genaiGenerate } from '../../src/runtime/model/generate.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { runConversation } from '../../src/runtime/turn/conversation.js';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini.js';
import { connectReapedAfterEach, EVERYTHING_SERVER } from '../support/runtime-servers.js';
import { inMemoryUnlockClient } from '../support/unlock-server.js';

const SLOW = 30_000;
const LONG_RUNNING = 'trigger-long-running-operation';

const CALL: ResolvedCall = {
  serverId: 's',
  name: 'report',
  exposedName: 'report',
  callId: 'c1',
  arguments: {},
  tool: { name: 'report', inputSchema: { type: 'object' } },
};

describe('issue 15: progress notifications reach onProgress', () => {
  const connect = connectReapedAfterEach();

  it(
    "EX-1: server-everything's long-running tool over stdio: each step heard, with the call",
    async () => {
      const connections = await connect({ mcpServers: { everything: EVERYTHING_SERVER } });
      const heard: CallProgress[] = [];
      const content = await answerCalls(
        [{ functionCall: { id: 'p1', name: LONG_RUNNING, args: { duration: 0.3, steps: 3 } } }],
        connections.toolset,
        connections.clients,
        { onProgress: (progress) => heard.push(progress) },
      );
      expect(content.parts?.[0]?.functionResponse?.response).toHaveProperty('output');
      expect(heard).toEqual(
        [1, 2, 3].map((progress) => ({
          index: 0,
          callId: 'p1',
          exposedName: LONG_RUNNING,
          serverId: 'everything',
          progress,
          total: 3,
        })),
      );
    },
    SLOW,
  );

  it(
    'EX-1: progress does not extend timeoutMs: a call reporting every 100 ms still times out at 300 ms',
    async () => {
      const connections = await connect({ mcpServers: { everything: EVERYTHING_SERVER } });
      const heard: CallProgress[] = [];
      const content = await answerCalls(
        [{ functionCall: { id: 'p1', name: LONG_RUNNING, args: { duration: 2, steps: 20 } } }],
        connections.toolset,
        connections.clients,
        { timeoutMs: 300, onProgress: (progress) => heard.push(progress) },
      );
      expect(content.parts?.[0]?.functionResponse?.response).toMatchObject({
        error: expect.stringContaining('did not answer within 300 ms'),
      });
      expect(heard.length).toBeLessThan(20);
    },
    SLOW,
  );
});

describe('issue 15: progress is bounded', () => {
  it('EX-1: non-finite progress is dropped, a non-finite total or non-string message left out', () => {
    const heard: CallProgress[] = [];
    const handler = progressHandler(CALL, 2, (progress) => heard.push(progress));
    handler({ progress: Number.POSITIVE_INFINITY });
    handler({ progress: Number.NaN, total: 3 });
    handler({ progress: 'x' as unknown as number });
    handler({ progress: 1, total: Number.POSITIVE_INFINITY, message: 7 as unknown as string });
    handler({ progress: 2, total: 4, message: 'half' });
    expect(heard).toEqual([
      { index: 2, callId: 'c1', exposedName: 'report', serverId: 's', progress: 1 },
      {
        index: 2,
        callId: 'c1',
        exposedName: 'report',
        serverId: 's',
        progress: 2,
        total: 4,
        message: 'half',
      },
    ]);
  });

  it('EX-1: a message over MAX_PROGRESS_MESSAGE_BYTES is cut on a character boundary and marked', () => {
    const heard: CallProgress[] = [];
    const handler = progressHandler(CALL, 0, (progress) => heard.push(progress));
    handler({ progress: 1, message: 'é'.repeat(MAX_PROGRESS_MESSAGE_BYTES) });
    handler({ progress: 2, message: 'a'.repeat(MAX_PROGRESS_MESSAGE_BYTES) });
    const [cut, whole] = heard.map((p) => p.message ?? '');
    expect(utf8ByteLength(cut ?? '')).toBeLessThanOrEqual(MAX_PROGRESS_MESSAGE_BYTES);
    expect(cut).toMatch(/^é+…$/u);
    expect(whole).toBe('a'.repeat(MAX_PROGRESS_MESSAGE_BYTES));
  });
});

describe('issue 15: a server reaches only its own calls with progress', () => {
  async function linked() {
    const { client, serverSide } = await inMemoryUnlockClient();
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    return { client, serverSide, errors };
  }
  const progress = (progressToken: string, value: number) => ({
    jsonrpc: '2.0' as const,
    method: 'notifications/progress',
    params: { progressToken, progress: value },
  });

  it("EX-1: another server's notification with this call's token is not heard; late ones are dropped quietly", async () => {
    const a = await linked();
    const b = await linked();
    try {
      const heard: unknown[] = [];
      const followed = followProgress(a.client, (params) => heard.push(params));
      followProgress(b.client, () => {});
      await b.serverSide.send(progress(followed.progressToken, 1));
      await a.serverSide.send(progress(followed.progressToken, 2));
      followed.stop();
      await a.serverSide.send(progress(followed.progressToken, 3));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard).toEqual([{ progressToken: followed.progressToken, progress: 2 }]);
      expect([...a.errors, ...b.errors]).toEqual([]);
    } finally {
      await Promise.all([a.client.close(), b.client.close()]);
    }
  });
});

describe('issue 15: runConversation passes onProgress through', () => {
  let fake: FakeGemini | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('EX-4: two parallel calls of one tool: each heard with its own index and id (in memory)', async () => {
    const { client } = await inMemoryUnlockClient();
    const { toolset } = buildToolSet([{ serverId: 'vault', tools: await listAllTools(client) }]);
    const call = (id: string, progress: number) => ({
      functionCall: { id, name: 'report', args: { steps: [{ progress, total: 9, message: id }] } },
    });
    fake = await startFakeGemini([
      {
        response: {
          candidates: [{ content: { role: 'model', parts: [call('a', 1), call('b', 5)] } }],
        },
      },
      { response: { candidates: [{ content: { role: 'model', parts: [{ text: 'done' }] } }] } },
    ]);
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.baseUrl } });
    const heard: CallProgress[] = [];
    try {
      const { stop } = await runConversation({
        generate: genaiGenerate(ai, { model: 'gemini-2.5-flash' }),
        toolset,
        clients: new Map([['vault', client]]),
        contents: [{ role: 'user', parts: [{ text: 'Report.' }] }],
        onProgress: (progress) => heard.push(progress),
      });
      expect(stop.reason).toBe('answered');
    } finally {
      await client.close();
    }
    const seen = heard.map((p) => [p.index, p.callId, p.progress, p.message]);
    expect(seen.sort()).toEqual([
      [0, 'a', 1, 'a'],
      [1, 'b', 5, 'b'],
    ]);
  });
});
