/**
 * Issue 36 item 3: the Live scheduling primitives by dialect and policy, in process (an
 * in-memory MCP server; the session a structural stand-in for genai's, which the integration
 * test test/runtime/live.test.ts drives for real): on the Gemini API a NON_BLOCKING policy is
 * declared and scheduled as it says; on Vertex AI, whose reference has no behavior, scheduling or
 * willContinue, none is sent.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { buildToolSet, listAllTools } from '../../src/index.js';
import { type LiveFunctionResponse, liveTools } from '../../src/live.js';
import { inMemoryFaultClient } from '../support/runtime-servers.js';

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** A Live session as liveTools sees genai's: the wrapped parameters kept, the responses recorded. */
function fakeLive() {
  const sent: LiveFunctionResponse[] = [];
  type Params = { config?: { tools?: unknown[] }; callbacks: { onmessage: (m: unknown) => void } };
  let params: Params | undefined;
  const live = {
    connect: async (given: Params) => {
      params = given;
      return {
        sendToolResponse: ({ functionResponses }: { functionResponses: LiveFunctionResponse[] }) =>
          sent.push(...functionResponses),
      };
    },
  };
  return { live, sent, params: () => params! };
}

async function echoTools(dialect: 'gemini' | 'vertex') {
  client = await inMemoryFaultClient();
  const { toolset } = buildToolSet([{ serverId: 'f', tools: await listAllTools(client) }], {
    filters: { f: { include: ['echo'] } },
  });
  const fake = fakeLive();
  await liveTools(
    { toolset, clients: new Map([['f', client]]) },
    { dialect, policy: () => ({ behavior: 'NON_BLOCKING', scheduling: 'INTERRUPT' }) },
  ).connect(fake.live, { callbacks: { onmessage: () => {} } });
  fake.params().callbacks.onmessage({
    toolCall: { functionCalls: [{ id: 'e1', name: 'echo', args: { text: 'hi' } }] },
  });
  for (let i = 0; i < 200 && fake.sent.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const [tool] = (fake.params().config?.tools ?? []) as { functionDeclarations: object[] }[];
  const declared = tool?.functionDeclarations ?? [];
  return { declared, sent: fake.sent };
}

describe('issue 36: Live scheduling by dialect and policy', () => {
  it('Gemini API: the policy declares the tool NON_BLOCKING and schedules its result as it says (INTERRUPT)', async () => {
    const { declared, sent } = await echoTools('gemini');
    expect(declared).toEqual([expect.objectContaining({ name: 'echo', behavior: 'NON_BLOCKING' })]);
    expect(sent).toEqual([
      { id: 'e1', name: 'echo', response: { output: 'hi' }, scheduling: 'INTERRUPT' },
    ]);
  });

  it('Vertex AI: no behavior, no scheduling, no willContinue (its reference has none)', async () => {
    const { declared, sent } = await echoTools('vertex');
    expect(declared[0]).not.toHaveProperty('behavior');
    expect(sent).toEqual([{ id: 'e1', name: 'echo', response: { output: 'hi' } }]);
  });

  it('bad options are refused up front, naming the option', () => {
    const source = { toolset: buildToolSet([]).toolset, clients: new Map() };
    expect(() => liveTools(source, { progressIntervalMs: 0 })).toThrow(/progressIntervalMs/);
    expect(() => liveTools(source, { concurrency: 0 })).toThrow(/concurrency/);
  });
});
