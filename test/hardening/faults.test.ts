/**
 * The fault-injection server against the runtime: a crash at a given call, a slow drip, a line
 * that is not JSON-RPC, a list_changed storm, a 10,000-tool list. Every call is answered exactly
 * once, in order, and no child process outlives `close()`. (The runtime's own fault tests cover
 * hangs, malformed results, 50 MB results and closed clients: test/runtime/faults.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { checkContent } from '../../src/generated/guards.js';
import type { Content } from '../../src/generated/types.js';
import { answerCalls } from '../../src/runtime/answer.js';
import type { ServerConnections } from '../../src/runtime/connect.js';
import { connectReapedAfterEach, FAULT_SERVER } from '../support/runtime-servers.js';

const connectServers = connectReapedAfterEach();

function connect(env: Record<string, string> = {}): Promise<ServerConnections> {
  return connectServers({ mcpServers: { fault: { ...FAULT_SERVER, env } } }, { timeoutMs: 60_000 });
}

function turn(...calls: [string, Record<string, unknown>?][]): Content {
  return {
    role: 'model',
    parts: calls.map(([name, args], i) => ({
      functionCall: { id: `k${i}`, name, args: args ?? {} },
    })),
  };
}

/** The answer's functionResponses as `id: output | error` lines, checked for one per call. */
async function answered(
  c: ServerConnections,
  model: Content,
  timeoutMs = 5_000,
): Promise<string[]> {
  const content = await answerCalls(model, c.toolset, c.clients, { timeoutMs, concurrency: 1 });
  expect(checkContent(content)).toEqual([]);
  const responses = (content.parts ?? []).map((part) => part.functionResponse!);
  expect(responses.map((r) => r.id)).toEqual(model.parts?.map((p) => p.functionCall?.id));
  return responses.map(
    (r) =>
      `${r.id}: ${r.response.output === undefined ? `error ${String(r.response.error).slice(0, 40)}` : 'ok'}`,
  );
}

describe('fault injection', () => {
  it('a server that crashes at its 3rd call: calls 1-2 answered, 3-5 answered with errors', async () => {
    const c = await connect({ FAULT_CRASH_AT: '3' });
    const lines = await answered(
      c,
      turn(
        ...Array.from({ length: 5 }, (_, i): [string, Record<string, unknown>] => [
          'echo',
          { text: `n${i}` },
        ]),
      ),
    );
    expect(lines.slice(0, 2)).toEqual(['k0: ok', 'k1: ok']);
    for (const line of lines.slice(2)) expect(line).toMatch(/: error (TRANSPORT|CLIENT_CLOSED)/);
  });

  it('an answer that drips out a few bytes at a time arrives whole', async () => {
    const c = await connect();
    const text = 'a slow answer '.repeat(40);
    const content = await answerCalls(turn(['drip', { text }]), c.toolset, c.clients, {
      timeoutMs: 30_000,
    });
    expect(content.parts?.[0]?.functionResponse?.response.output).toBe(text);
  });

  it('a line that is not JSON-RPC: that call times out, the next one is still answered', async () => {
    const c = await connect();
    const lines = await answered(c, turn(['garbage'], ['echo', { text: 'after' }]), 1_500);
    expect(lines[0]).toMatch(/^k0: error (TIMEOUT|TRANSPORT|PROTOCOL_ERROR)/);
    expect(lines[1]).toMatch(/^k1: (ok|error (TRANSPORT|CLIENT_CLOSED))/);
  });

  it('a storm of 500 list_changed notifications leaves one consistent tool set and a working client', async () => {
    const c = await connect();
    const before = c.toolset.entries.map((e) => e.exposedName).sort();
    const lines = await answered(
      c,
      turn(['storm', { count: 500 }], ['echo', { text: 'still here' }]),
      30_000,
    );
    expect(lines).toEqual(['k0: ok', 'k1: ok']);
    await c.refreshTools();
    expect(c.toolset.entries.map((e) => e.exposedName).sort()).toEqual(before);
  });

  it('a list of 10,000 tools is paged in full and every tool can be called', async () => {
    const c = await connect({ FAULT_TOOL_COUNT: '10000', FAULT_PAGE_SIZE: '500' });
    expect(c.toolset.entries.length).toBeGreaterThanOrEqual(10_000);
    expect(c.toolset.resolve('tool_9999')?.tool.name).toBe('tool_9999');
    expect(await answered(c, turn(['tool_0'], ['tool_9999']))).toEqual(['k0: ok', 'k1: ok']);
  });
});
