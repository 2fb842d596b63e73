import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import type { RejectedItem } from '../../src/adapter/turn/calls.js';
import type { ResolvedCall, ToolError, ToolResult } from '../../src/adapter/types.js';
import { isToolError } from '../../src/adapter/types.js';
import { connectServers, type ServerConnections } from '../../src/runtime/mcp/connect.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import { type ExecutedCall, executeToolCalls } from '../../src/runtime/turn/execute.js';
import { createFaultHandler } from '../support/fault-server.mjs';
import {
  EVERYTHING_SERVER,
  inMemoryBitcoinClient,
  inMemoryFaultClient,
} from '../support/runtime-servers.js';

const call = (
  serverId: string,
  name: string,
  args: Record<string, unknown> = {},
  callId: string | null = null,
): ResolvedCall => ({
  serverId,
  name,
  exposedName: name,
  callId,
  arguments: args,
  tool: { name, inputSchema: { type: 'object' } },
});

/** A call of `name` carrying the tool as `toolset` holds it (its outputSchema included). */
const callIn = (
  toolset: ToolSet,
  name: string,
  args: Record<string, unknown> = {},
): ResolvedCall => {
  const entry = toolset.resolve(name);
  if (entry === undefined) throw new Error(`no tool ${name}`);
  return { ...call(entry.serverId, entry.tool.name, args), exposedName: name, tool: entry.tool };
};

const textOf = (result: ToolResult | ToolError | undefined): string => {
  if (result === undefined || isToolError(result))
    throw new Error(`no result: ${JSON.stringify(result)}`);
  const [block] = result.content;
  return block?.type === 'text' ? block.text : '';
};

const resultOf = (outcome: ExecutedCall | undefined): ToolResult => {
  if (outcome === undefined || isToolError(outcome.result)) throw new Error('expected a result');
  return outcome.result;
};

const errorOf = (outcome: ExecutedCall | undefined): ToolError => {
  if (outcome === undefined || !isToolError(outcome.result)) throw new Error('expected an error');
  return outcome.result;
};

const codeOf = (result: ToolResult | ToolError | undefined): string | undefined =>
  result !== undefined && isToolError(result) ? result.code : undefined;

async function toolsetOf(serverId: string, client: Client): Promise<ToolSet> {
  return buildToolSet([{ serverId, tools: await listAllTools(client) }]).toolset;
}

describe('EX-1: executeToolCalls in memory', () => {
  let bitcoin: Client;
  let faults: Client;
  beforeAll(async () => {
    bitcoin = await inMemoryBitcoinClient();
    faults = await inMemoryFaultClient();
  });
  afterAll(async () => {
    await Promise.all([bitcoin.close(), faults.close()]);
  });

  it('EX-1: one outcome per call, in call order, across servers', async () => {
    const outcomes = await executeToolCalls(
      [
        call('faults', 'echo', { text: 'slow', delayMs: 80 }),
        call('bitcoin', 'hello', { name: 'Ada' }),
        call('bitcoin', 'bitcoin_price', { currency: 'usd' }),
        call('bitcoin', 'bitcoin_price', { currency: 'XYZ' }),
        call('faults', 'echo', { text: 'fast' }),
      ],
      new Map([
        ['bitcoin', bitcoin],
        ['faults', faults],
      ]),
    );
    expect(outcomes.map((o) => o.call.name)).toEqual([
      'echo',
      'hello',
      'bitcoin_price',
      'bitcoin_price',
      'echo',
    ]);
    expect(textOf(outcomes[0]?.result)).toBe('slow');
    expect(textOf(outcomes[1]?.result)).toBe('Hello, Ada!');
    expect(outcomes[2]?.result).toMatchObject({
      structuredContent: { currency: 'USD', price: 98250.12, source: 'offline snapshot' },
    });
    expect(outcomes[3]?.result).toMatchObject({ isError: true });
    expect(textOf(outcomes[3]?.result)).toContain('Unknown currency "XYZ"');
    expect(textOf(outcomes[4]?.result)).toBe('fast');
    for (const outcome of outcomes) expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('EX-1: a plain record of clients works too; an unknown server is UNKNOWN_SERVER', async () => {
    const outcomes = await executeToolCalls(
      [call('nowhere', 'hello'), call('bitcoin', 'hello', { name: 'Bo' }), call('__proto__', 'x')],
      { bitcoin },
    );
    expect(codeOf(outcomes[0]?.result)).toBe('UNKNOWN_SERVER');
    expect(textOf(outcomes[1]?.result)).toBe('Hello, Bo!');
    expect(codeOf(outcomes[2]?.result)).toBe('UNKNOWN_SERVER');
  });

  it('EX-1: a bad option or a bad item is a rejected promise, never a throw, for one call and for several', async () => {
    for (const calls of [
      [call('bitcoin', 'hello')],
      [call('bitcoin', 'hello'), call('bitcoin', 'hello')],
    ]) {
      let running: Promise<unknown> | undefined;
      expect(() => {
        running = executeToolCalls(calls, { bitcoin }, { concurrency: 0 });
      }).not.toThrow();
      await expect(running).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        data: { option: 'concurrency' },
      });
      expect(() => {
        running = executeToolCalls([...calls, null as unknown as ResolvedCall], { bitcoin });
      }).not.toThrow();
      await expect(running).rejects.toBeInstanceOf(TypeError);
    }
    let single: Promise<unknown> | undefined;
    expect(() => {
      single = executeToolCalls([null as unknown as ResolvedCall], { bitcoin });
    }).not.toThrow();
    await expect(single).rejects.toBeInstanceOf(TypeError);
  });

  it('EX-1: one call comes back as a list of its outcome; a rejected item as it was', async () => {
    const [executed] = await executeToolCalls([call('bitcoin', 'hello', { name: 'Al' })], {
      bitcoin,
    });
    expect(executed).toMatchObject({ kind: 'call', call: { name: 'hello' } });
    expect(textOf(executed?.result)).toBe('Hello, Al!');
    expect(executed?.durationMs).toBeGreaterThanOrEqual(0);
    const rejected = { kind: 'rejected', rejected: { name: 'x' } } as unknown as RejectedItem;
    const outcomes = await executeToolCalls([rejected], { bitcoin });
    expect(outcomes).toEqual([rejected]);
    expect(outcomes[0]).toBe(rejected);
  });

  it('EX-1: a timeout cancels the MCP request itself: the server gets notifications/cancelled', async () => {
    const started = performance.now();
    const [hung, echoed] = await executeToolCalls(
      [call('faults', 'hang'), call('faults', 'echo', { text: 'still here' })],
      { faults },
      { timeoutMs: 150 },
    );
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(codeOf(hung?.result)).toBe('TIMEOUT');
    expect(errorOf(hung).message).toContain('150 ms');
    expect(textOf(echoed?.result)).toBe('still here');
    const [log] = await executeToolCalls([call('faults', 'cancellations')], { faults });
    expect(resultOf(log).structuredContent).toMatchObject({
      cancelled: [expect.any(Number)],
    });
  });

  it('EX-1: an AbortSignal cancels calls in flight (server told) and calls not yet started', async () => {
    const controller = new AbortController();
    const [before] = await executeToolCalls([call('faults', 'cancellations')], { faults });
    const cancelledIds = (outcome: ExecutedCall | undefined): unknown[] =>
      (resultOf(outcome).structuredContent as { cancelled: unknown[] }).cancelled;
    const already = cancelledIds(before).length;
    setTimeout(() => controller.abort(new Error('user pressed stop')), 100);
    const outcomes = await executeToolCalls(
      [call('faults', 'hang'), call('faults', 'hang'), call('faults', 'echo', { text: 'queued' })],
      { faults },
      { signal: controller.signal, concurrency: 2 },
    );
    expect(outcomes.map((o) => codeOf(o.result))).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED']);
    const [after] = await executeToolCalls([call('faults', 'cancellations')], { faults });
    expect(cancelledIds(after).length - already).toBe(2);
  });

  it('EX-2: a malformed result is INVALID_RESULT; a JSON-RPC error is PROTOCOL_ERROR; isError passes through', async () => {
    const [malformed, rpc, failed] = await executeToolCalls(
      [call('faults', 'malformed'), call('faults', 'rpc_error'), call('faults', 'fail')],
      { faults },
    );
    expect(codeOf(malformed?.result)).toBe('INVALID_RESULT');
    expect(errorOf(malformed).message).toContain('/content');
    expect(codeOf(rpc?.result)).toBe('PROTOCOL_ERROR');
    expect(errorOf(rpc).data).toMatchObject({ mcpCode: -32602 });
    expect(failed?.result).toMatchObject({ isError: true });
  });

  it("EX-2: a result whose _meta fails the SDK's result schema is INVALID_RESULT at /_meta at once (the SDK would drop the response and wait for the timeout)", async () => {
    const [outcome] = await executeToolCalls(
      [call('faults', 'malformed', { meta: true })],
      { faults },
      { timeoutMs: 30_000 },
    );
    expect(codeOf(outcome?.result)).toBe('INVALID_RESULT');
    expect(errorOf(outcome).message).toContain('(/_meta: ');
    expect(errorOf(outcome).data).toMatchObject({ violations: [{ path: '/_meta' }] });
  });

  it('issue 11: a result that is not an object (the SDK would drop it) is INVALID_RESULT at once, not after the timeout', async () => {
    const timeoutMs = 30_000;
    const started = performance.now();
    const [outcome] = await executeToolCalls(
      [call('faults', 'not_object')],
      { faults },
      { timeoutMs },
    );
    const elapsed = performance.now() - started;
    expect(codeOf(outcome?.result)).toBe('INVALID_RESULT');
    expect(errorOf(outcome).message).toContain('a string, not an object');
    // Generous ceiling: the answer comes on the next turn of the event loop, the timeout is 30 s.
    expect(elapsed).toBeLessThan(1_000);
  });

  it("EX-2: structuredContent is checked against the tool's outputSchema", async () => {
    const toolset = await toolsetOf('faults', faults);
    const [bad, good] = await executeToolCalls(
      [callIn(toolset, 'bad_structured'), callIn(toolset, 'good_structured')],
      { faults },
    );
    expect(codeOf(bad?.result)).toBe('OUTPUT_SCHEMA_MISMATCH');
    expect(errorOf(bad).message).toContain('/n');
    expect(good?.result).toMatchObject({ structuredContent: { n: 1 } });
  });

  it('EX-1: a closed client is CLIENT_CLOSED, never a throw', async () => {
    const client = await inMemoryBitcoinClient();
    await client.close();
    const [outcome] = await executeToolCalls([call('bitcoin', 'hello', { name: 'x' })], {
      bitcoin: client,
    });
    expect(codeOf(outcome?.result)).toBe('CLIENT_CLOSED');
  });
});

describe('EX-1: 200 concurrent calls', () => {
  it('EX-1: 200 calls at concurrency 8 finish with the right outcome per call, never more than 8 in flight', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    let inFlight = 0;
    let peak = 0;
    const handle = createFaultHandler({
      send: (message: object) => {
        if ('result' in message || 'error' in message) inFlight--;
        void serverSide.send(message as JSONRPCMessage);
      },
      exit: () => void serverSide.close(),
    });
    serverSide.onmessage = (message) => {
      if ('method' in message && message.method === 'tools/call') peak = Math.max(peak, ++inFlight);
      handle(message);
    };
    await serverSide.start();
    const client = new SdkClient({ name: 'concurrency', version: '0' });
    await client.connect(clientSide);
    const kinds = ['echo', 'fail', 'malformed', 'unknown_tool'] as const;
    const calls = Array.from({ length: 200 }, (_, i) => {
      const kind = kinds[i % kinds.length] as (typeof kinds)[number];
      return call('s', kind, { text: `call ${i}`, delayMs: (i * 7) % 13 }, `id-${i}`);
    });
    const started = performance.now();
    const outcomes = await executeToolCalls(calls, { s: client }, { concurrency: 8 });
    const elapsed = performance.now() - started;
    await client.close();

    expect(outcomes).toHaveLength(200);
    outcomes.forEach((outcome, i) => {
      expect(outcome.call.callId).toBe(`id-${i}`);
      const kind = kinds[i % kinds.length];
      if (kind === 'echo') expect(textOf(outcome.result)).toBe(`call ${i}`);
      if (kind === 'fail') expect(outcome.result).toMatchObject({ isError: true });
      if (kind === 'malformed') expect(codeOf(outcome.result)).toBe('INVALID_RESULT');
      if (kind === 'unknown_tool') expect(codeOf(outcome.result)).toBe('PROTOCOL_ERROR');
    });
    // Calls that answer at once leave the pool quickly; delayed echoes keep it full.
    expect(peak).toBeLessThanOrEqual(8);
    expect(peak).toBeGreaterThanOrEqual(4);
    console.info(`200 calls at concurrency 8: ${elapsed.toFixed(0)} ms, peak ${peak} in flight`);
  });
});

describe('EX-1: server-everything over stdio', () => {
  let connections: ServerConnections;
  beforeAll(async () => {
    connections = await connectServers(
      { mcpServers: { everything: EVERYTHING_SERVER } },
      { stderr: 'ignore' },
    );
  }, 30_000);
  afterAll(async () => {
    await connections.close();
  });

  it('EX-1: a long-running operation past the timeout is cancelled; other calls are unaffected', async () => {
    const started = performance.now();
    const [long, echo, structured, invalid] = await executeToolCalls(
      [
        callIn(connections.toolset, 'trigger-long-running-operation', {
          duration: 30,
          steps: 30,
        }),
        callIn(connections.toolset, 'echo', { message: 'hi' }),
        callIn(connections.toolset, 'get-structured-content', { location: 'New York' }),
        callIn(connections.toolset, 'get-sum', { a: 'one', b: 2 }),
      ],
      connections.clients,
      { timeoutMs: 500 },
    );
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(codeOf(long?.result)).toBe('TIMEOUT');
    expect(textOf(echo?.result)).toContain('hi');
    expect(structured?.result).toMatchObject({ structuredContent: expect.any(Object) });
    // Invalid arguments: the SDK server answers with an isError result (or a JSON-RPC error).
    const invalidResult = invalid?.result;
    expect(
      (invalidResult !== undefined &&
        !isToolError(invalidResult) &&
        invalidResult.isError === true) ||
        codeOf(invalidResult) === 'PROTOCOL_ERROR',
    ).toBe(true);
  }, 30_000);
});
