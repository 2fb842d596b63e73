/**
 * Issue 32 item 3: a tool call the server runs as a task (the MCP tasks extension, SEP-2663) is
 * polled with `tasks/get` until it ends, its status reports heard as progress, its result
 * answered like a direct one; cancelled with `tasks/cancel` when the caller's signal fires or
 * `maxTaskMs` passes. Against a server of the v2 SDK over its HTTP entry (2026-07-28), through
 * `executeToolCalls` with the v2 client; and (item 9) 2025-11-25's experimental tasks on the
 * 2025 handshake, against a server and client of the v1 SDK.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isToolError } from '../../src/adapter/types.js';
import type { ReadNotice } from '../../src/generated/guards-common.js';
import type { CallProgress } from '../../src/runtime/mcp/call-progress.js';
import type { McpClient } from '../../src/runtime/mcp/mcp-client.js';
import { MAX_POLL_MS, MIN_POLL_MS, pollDelay } from '../../src/runtime/mcp/tasks.js';
import { type ExecuteOptions, executeToolCalls } from '../../src/runtime/turn/execute.js';
import {
  connectLegacyTaskServer,
  connectTaskServer,
  type TaskServerLog,
  taskCall,
} from '../support/task-server.js';

const open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

async function run(tool: string, options: ExecuteOptions = {}, era?: 'modern' | 'legacy') {
  const { client, log } = await connectTaskServer(era);
  open.push(client);
  const started = performance.now();
  const [outcome] = await executeToolCalls([taskCall(tool)], { tasks: client }, options);
  return { outcome: outcome!, log, ms: performance.now() - started };
}

/** A call of a tool that requires a task, on the v1 SDK's 2025-11-25 task server. */
async function runLegacy(tool: string, options: ExecuteOptions = {}, sdk: 'v1' | 'v2' = 'v1') {
  const { client, log } = await connectLegacyTaskServer(sdk);
  open.push(client);
  const [outcome] = await executeToolCalls([taskCall(tool, true)], { tasks: client }, options);
  return { outcome: outcome!, log };
}

/** The capabilities the server saw declared on the call. */
const declaredOn = (log: TaskServerLog) => log.declared[0] as Record<string, unknown>;

describe('EX-6 (issue 32 item 3): tool calls run as tasks', () => {
  it('a task result arrives after a poll, with its status reports heard as progress', async () => {
    const progress: CallProgress[] = [];
    const { outcome, log } = await run('research', { onProgress: (p) => progress.push(p) });
    expect(outcome.result).toEqual({ content: [{ type: 'text', text: '42 sources read' }] });
    // The extension was declared beside the client's own capabilities, never instead of them.
    expect(declaredOn(log)).toEqual({
      sampling: {},
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    expect(log.polls).toHaveLength(2);
    expect(progress.map((p) => [p.progress, p.task?.status, p.message])).toEqual([
      [1, 'working', 'accepted'],
      [2, 'working', 'reading 42 sources'],
      [3, 'completed', 'done'],
    ]);
    expect(progress[0]).toMatchObject({ index: 0, callId: 'c1', serverId: 'tasks' });
  });

  it("a throw from onProgress goes to the client's onerror, and the task runs on to its result", async () => {
    const { client } = await connectTaskServer();
    open.push(client);
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    const [outcome] = await executeToolCalls(
      [taskCall('research')],
      { tasks: client },
      {
        onProgress: () => {
          throw new Error('drawing failed');
        },
      },
    );
    expect(outcome!.result).toEqual({ content: [{ type: 'text', text: '42 sources read' }] });
    expect(errors.map((e) => e.message)).toEqual(Array(3).fill('drawing failed'));
  });

  it('a call cancelled by its signal mid-task sends tasks/cancel, and the server sees it', async () => {
    const controller = new AbortController();
    const progress: CallProgress[] = [];
    const pending = run('forever', {
      signal: controller.signal,
      onProgress: (p) => {
        progress.push(p);
        if (p.message === 'still thinking') controller.abort();
      },
    });
    const { outcome, log } = await pending;
    expect(outcome.result).toMatchObject({ code: 'CANCELLED', data: { taskStatus: 'working' } });
    expect(isToolError(outcome.result) && outcome.result.message).toMatch(
      /ran as task "task-forever-1" and was cancelled while "working"; the task was cancelled \(tasks\/cancel\)/,
    );
    expect(log.cancels).toEqual(['task-forever-1']);
  });

  it('a task that never finishes is cancelled when maxTaskMs passes', async () => {
    const { outcome, log, ms } = await run('forever', { maxTaskMs: 450 });
    expect(outcome.result).toMatchObject({ code: 'TIMEOUT', data: { taskId: 'task-forever-1' } });
    expect(isToolError(outcome.result) && outcome.result.message).toMatch(
      /was still "working" after 450 ms \(maxTaskMs\); the task was cancelled/,
    );
    expect(log.cancels).toEqual(['task-forever-1']);
    // Polled at the clamped interval (100 ms, the server asked for 10), not faster.
    expect(log.polls.length).toBeGreaterThanOrEqual(2);
    expect(log.polls.length).toBeLessThanOrEqual(5);
    expect(ms).toBeLessThan(5000);
  });

  it('a failed task is answered as an error naming the state and the server error', async () => {
    const { outcome } = await run('broken');
    expect(outcome.result).toMatchObject({
      code: 'PROTOCOL_ERROR',
      data: { taskStatus: 'failed', mcpCode: -32603 },
    });
    expect(isToolError(outcome.result) && outcome.result.message).toBe(
      'tool "broken" on server "tasks" ran as task "task-broken-1", which ended "failed": the index is gone',
    );
  });

  it('an unknown task status is a notice, and polling goes on to the result', async () => {
    const notices: ReadNotice[] = [];
    const { outcome } = await run('odd', { onNotice: (n) => notices.push(n) });
    expect(outcome.result).toEqual({ content: [{ type: 'text', text: 'resumed and done' }] });
    expect(notices).toContainEqual(
      expect.objectContaining({
        code: 'unknown-enum-value',
        path: '/status',
        value: 'paused',
        message: expect.stringMatching(/^tool "odd" on server "tasks": task status "paused"/),
      }),
    );
  });

  it('a tasks/get answer that breaks the read contract ends the call as INVALID_RESULT', async () => {
    const { outcome } = await run('garbled');
    expect(outcome.result).toMatchObject({ code: 'INVALID_RESULT' });
    expect(isToolError(outcome.result) && outcome.result.message).toBe(
      'tool "garbled" on server "tasks" returned a malformed tasks/get result (/createdAt: required field "createdAt" is missing)',
    );
  });

  it('with tasks: false the call declares no extension and the server answers directly', async () => {
    const { outcome, log } = await run('research', { tasks: false });
    expect(outcome.result).toMatchObject({
      content: [{ type: 'text', text: 'answered directly' }],
    });
    expect(declaredOn(log)).toEqual({ sampling: {} });
    expect(log.polls).toEqual([]);
  });

  it('on the 2025 handshake nothing is declared and no mark of ours reaches the server', async () => {
    const { outcome, log } = await run('research', {}, 'legacy');
    expect(outcome.result).toMatchObject({
      content: [{ type: 'text', text: 'answered directly' }],
    });
    expect(log.declared).toEqual([undefined]);
    expect(log.metas).toEqual([undefined]);
  });

  for (const sdk of ['v1', 'v2'] as const) {
    it(`on the 2025 handshake a tool that requires a task runs as a 2025-11-25 task (${sdk} client): polled, its result read with tasks/result`, async () => {
      const progress: CallProgress[] = [];
      const { outcome, log } = await runLegacy(
        'research',
        { onProgress: (p) => progress.push(p) },
        sdk,
      );
      expect(outcome.result).toEqual({ content: [{ type: 'text', text: '42 sources read' }] });
      expect(log.declared).toEqual([{ ttl: 600_000 }]);
      // Our progress token, and nothing of our mark.
      expect(log.metas).toEqual([
        { progressToken: expect.stringMatching(/^gemini-mcp-progress-/) },
      ]);
      expect(log.polls).toHaveLength(2);
      expect(progress.map((p) => p.task?.status)).toEqual(['working', 'working', 'completed']);
    });
  }

  it('a 2025-11-25 task that failed is answered with the error tasks/result gives', async () => {
    const { outcome } = await runLegacy('broken');
    expect(outcome.result).toMatchObject({
      code: 'PROTOCOL_ERROR',
      data: { taskStatus: 'failed', mcpCode: -32603 },
    });
  });

  it('a 2025-11-25 task past maxTaskMs is cancelled with tasks/cancel', async () => {
    const { outcome, log } = await runLegacy('forever', { maxTaskMs: 300 });
    expect(outcome.result).toMatchObject({ code: 'TIMEOUT', data: { taskId: 'task-forever-1' } });
    expect(log.cancels).toEqual(['task-forever-1']);
  });

  it('maxTaskMs outside (0, 2^31 - 1] is refused as INVALID_INPUT', async () => {
    await expect(executeToolCalls([taskCall('research')], {}, { maxTaskMs: 0 })).rejects.toThrow(
      /maxTaskMs/,
    );
  });

  it("the wait between polls is the server's suggestion within [100 ms, 30 s], 1 s without one", () => {
    expect([pollDelay(10), pollDelay(2500), pollDelay(120_000), pollDelay(undefined)]).toEqual([
      MIN_POLL_MS,
      2500,
      MAX_POLL_MS,
      1000,
    ]);
  });
});
