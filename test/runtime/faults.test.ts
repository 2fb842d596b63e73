/**
 * Faults over stdio: real child processes that crash, hang, lie or flood. Whatever happens,
 * every function call gets exactly one functionResponse, in call order, nothing is thrown or
 * left unhandled, and no child process outlives `close()`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Content, FunctionResponse } from '../../src/generated/types.js';
import { answerCalls } from '../../src/runtime/answer.js';
import {
  type ConnectOptions,
  connectServers,
  type ServerConnections,
} from '../../src/runtime/connect.js';
import { executeToolCalls } from '../../src/runtime/execute.js';
import { exited, FAULT_SERVER, pidOf } from '../support/runtime-servers.js';

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
