/**
 * Faults over stdio: real child processes (the fault-injection server) that crash, hang, drip,
 * lie or flood. Whatever happens, every function call gets exactly one functionResponse, in call
 * order, nothing is thrown or left unhandled, and no child process outlives `close()`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkContent } from '../../src/generated/guards.js';
import type { Content, FunctionResponse } from '../../src/generated/types.js';
import {
  type ConnectOptions,
  connectServers,
  type ServerConnections,
} from '../../src/runtime/mcp/connect.js';
import { answerCalls } from '../../src/runtime/turn/answer.js';
import { executeToolCalls } from '../../src/runtime/turn/execute.js';
import { connectReapedAfterEach, exited, FAULT_SERVER, pidOf } from '../support/runtime-servers.js';

const SLOW = 30_000;

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

let connections: ServerConnections | undefined;
let pids: number[] = [];

/** Two fault servers, `a` and `b`: their tools collide, so every name is `a__x` / `b__x`. */
async function connectPair(options: ConnectOptions = {}): Promise<ServerConnections> {
  connections = await connectServers(
    { mcpServers: { a: FAULT_SERVER, b: FAULT_SERVER } },
    { stderr: 'ignore', ...options },
  );
  pids = [...connections.clients.values()].map((client) => pidOf(client) as number);
  return connections;
}

afterEach(async () => {
  await connections?.close();
  connections = undefined;
  for (const pid of pids) expect(await exited(pid), `pid ${pid} still running`).toBe(true);
  pids = [];
});

/** A model turn calling `calls` in order, with ids k0, k1, ... */
function modelTurn(...calls: [string, Record<string, unknown>?][]): Content {
  return {
    role: 'model',
    parts: calls.map(([name, args], i) => ({
      functionCall: { id: `k${i}`, name, args: args ?? {} },
    })),
  };
}

/** The answer's functionResponses, after checking there is exactly one per call, in order. */
function responsesFor(turn: Content, answer: Content): FunctionResponse[] {
  const calls = (turn.parts ?? []).map((part) => part.functionCall);
  const responses = (answer.parts ?? []).map((part) => part.functionResponse);
  expect(answer.role).toBe('user');
  expect(responses.map((r) => [r?.id, r?.name])).toEqual(calls.map((c) => [c?.id, c?.name]));
  return responses as FunctionResponse[];
}

const errorText = (response: FunctionResponse | undefined): string =>
  String(response?.response.error ?? '');

describe('faults: every call still gets exactly one functionResponse', () => {
  it(
    'EX-3: a server crashing mid-call; then a turn naming a tool of the server that went away',
    async () => {
      const { toolset, clients } = await connectPair();
      const crashedPid = pids[0] as number;
      const turn = modelTurn(
        ['a__crash'],
        ['b__echo', { text: 'b is fine' }],
        ['a__echo', { text: 'in flight', delayMs: 2_000 }],
      );
      const [crash, fine, inFlight] = responsesFor(turn, await answerCalls(turn, toolset, clients));
      expect(errorText(crash)).toContain('TRANSPORT');
      expect(fine?.response).toEqual({ output: 'b is fine' });
      expect(errorText(inFlight)).toContain('TRANSPORT');
      expect(await exited(crashedPid)).toBe(true);

      const later = modelTurn(['a__echo', { text: 'anyone?' }], ['b__echo', { text: 'yes' }]);
      const [gone, alive] = responsesFor(later, await answerCalls(later, toolset, clients));
      expect(errorText(gone)).toContain('CLIENT_CLOSED');
      expect(alive?.response).toEqual({ output: 'yes' });
    },
    SLOW,
  );

  it(
    'EX-3: a server hanging past the timeout: TIMEOUT, and the server is told to cancel',
    async () => {
      const { toolset, clients } = await connectPair();
      const turn = modelTurn(['a__hang'], ['b__echo', { text: 'on time' }]);
      const started = performance.now();
      const [hung, onTime] = responsesFor(
        turn,
        await answerCalls(turn, toolset, clients, { timeoutMs: 300 }),
      );
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(errorText(hung)).toContain('TIMEOUT');
      expect(onTime?.response).toEqual({ output: 'on time' });
      const [log] = await executeToolCalls(
        [
          {
            serverId: 'a',
            name: 'cancellations',
            exposedName: 'a__cancellations',
            callId: null,
            arguments: {},
            tool: { name: 'cancellations', inputSchema: { type: 'object' } },
          },
        ],
        clients,
      );
      expect(log?.result).toMatchObject({ structuredContent: { cancelled: [expect.any(Number)] } });
    },
    SLOW,
  );

  it(
    'EX-2: a malformed result and a result failing its output schema become error responses',
    async () => {
      const { toolset, clients } = await connectPair();
      const turn = modelTurn(['a__malformed'], ['b__bad_structured'], ['a__good_structured']);
      const [malformed, mismatch, good] = responsesFor(
        turn,
        await answerCalls(turn, toolset, clients),
      );
      expect(errorText(malformed)).toContain('INVALID_RESULT');
      expect(errorText(mismatch)).toContain('OUTPUT_SCHEMA_MISMATCH');
      expect(good?.response).toEqual({ output: { n: 1 } });
    },
    SLOW,
  );

  it(
    'EX-3: a 50 MB result over stdio exceeds the message limit: that call fails, the others are answered',
    async () => {
      // A 1 MB limit rather than the SDK's 10 MiB default: the SDK's stdio read buffer grows by
      // concatenation, quadratic in the message size, which takes seconds to reach 10 MiB on a
      // loaded machine. The path is the same: the transport refuses the message and closes.
      const { toolset, clients } = await connectPair({ maxMessageBytes: 1_000_000 });
      const turn = modelTurn(['a__huge', { bytes: 50_000_000 }], ['b__echo', { text: 'small' }]);
      const [huge, small] = responsesFor(turn, await answerCalls(turn, toolset, clients));
      expect(errorText(huge)).toContain('TRANSPORT');
      expect(errorText(huge)).toContain('exceeded maximum size of 1000000 bytes');
      expect(small?.response).toEqual({ output: 'small' });
    },
    SLOW,
  );

  it(
    'EX-3: the client closed during a call: every call answered, every child ended',
    async () => {
      const { toolset, clients } = await connectPair();
      const turn = modelTurn(['a__hang'], ['b__echo', { text: 'late', delayMs: 5_000 }]);
      const answering = answerCalls(turn, toolset, clients);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await connections?.close();
      const [hung, late] = responsesFor(turn, await answering);
      expect(errorText(hung)).toContain('CLIENT_CLOSED');
      expect(errorText(late)).toContain('CLIENT_CLOSED');
      for (const pid of pids) expect(await exited(pid)).toBe(true);
    },
    SLOW,
  );
});

const connectReaped = connectReapedAfterEach();

function connect(env: Record<string, string> = {}): Promise<ServerConnections> {
  return connectReaped({ mcpServers: { fault: { ...FAULT_SERVER, env } } }, { timeoutMs: 60_000 });
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

describe('fault injection: crash at the N-th call, slow drip, non-JSON-RPC line, list_changed storm, 10,000 tools', () => {
  it('a server that crashes at its 3rd call: calls 1-2 answered, 3-5 answered with errors', async () => {
    const c = await connect({ FAULT_CRASH_AT: '3' });
    const lines = await answered(
      c,
      modelTurn(
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
    const content = await answerCalls(modelTurn(['drip', { text }]), c.toolset, c.clients, {
      timeoutMs: 30_000,
    });
    expect(content.parts?.[0]?.functionResponse?.response.output).toBe(text);
  });

  it('a line that is not JSON-RPC: that call times out, the next one is still answered', async () => {
    const c = await connect();
    const lines = await answered(c, modelTurn(['garbage'], ['echo', { text: 'after' }]), 1_500);
    expect(lines[0]).toMatch(/^k0: error (TIMEOUT|TRANSPORT|PROTOCOL_ERROR)/);
    expect(lines[1]).toMatch(/^k1: (ok|error (TRANSPORT|CLIENT_CLOSED))/);
  });

  it('a storm of 500 list_changed notifications leaves one consistent tool set and a working client', async () => {
    const c = await connect();
    const before = c.toolset.entries.map((e) => e.exposedName).sort();
    const lines = await answered(
      c,
      modelTurn(['storm', { count: 500 }], ['echo', { text: 'still here' }]),
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
    expect(await answered(c, modelTurn(['tool_0'], ['tool_9999']))).toEqual(['k0: ok', 'k1: ok']);
  });
});
