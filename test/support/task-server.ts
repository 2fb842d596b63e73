/**
 * A server of the v2 SDK that runs tool calls as tasks (the MCP tasks extension,
 * `io.modelcontextprotocol/tasks`), as SEP-2663 asks of one: a `CreateTaskResult` only to a
 * call that declared the extension in its per-request capabilities (a plain result otherwise),
 * `tasks/get` and `tasks/cancel` served. The v2 SDK has no tasks runtime, so the task store and
 * the two methods are written here on its low-level `Server`; each tool scripts what its
 * task's polls answer. Reached as the v2 client reaches a 2026-07-28 server: the SDK's HTTP
 * entry (`createMcpHandler`), its fetch face called in process.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, InMemoryTransport, Server } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { ResolvedCall } from '../../src/adapter/types.js';

/** The extension's identifier. */
const TASKS = 'io.modelcontextprotocol/tasks';

/**
 * What the server saw: the capabilities each call declared, each call's `_meta` beyond the
 * envelope, each poll and cancel by task id.
 */
export interface TaskServerLog {
  readonly declared: unknown[];
  readonly metas: unknown[];
  readonly polls: string[];
  readonly cancels: string[];
}

/** One poll's answer: the task's fields beyond its id and times. */
type Poll = Record<string, unknown>;

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/**
 * The answers of each tool's task, poll after poll (the last repeats). `research` completes
 * after one poll that reports a step; `forever` never ends (until cancelled); `broken` fails;
 * `odd` reports a status the extension does not define, then completes; `garbled` answers a
 * poll without the task's times.
 */
const SCRIPTS: Record<string, Poll[]> = {
  research: [
    { status: 'working', statusMessage: 'reading 42 sources' },
    { status: 'completed', statusMessage: 'done', result: text('42 sources read') },
  ],
  forever: [{ status: 'working', statusMessage: 'still thinking' }],
  broken: [{ status: 'failed', error: { code: -32603, message: 'the index is gone' } }],
  odd: [{ status: 'paused' }, { status: 'completed', result: text('resumed and done') }],
  garbled: [{ garbled: true }],
};

/** The suggested interval between polls: below our floor, so polls come every 100 ms. */
const POLL_INTERVAL_MS = 10;

/** The server (one per request, as `createMcpHandler` builds them) over one task store and log. */
/** A task the server runs: its tool and the polls answered. */
interface RunningTask {
  tool: string;
  polls: number;
}

/** The answer of a task's `polls`-th poll (the last repeats), or `cancelled` once cancelled. */
function pollOf(log: TaskServerLog, taskId: string, task: RunningTask): Poll {
  const script = SCRIPTS[task.tool]!;
  return log.cancels.includes(taskId)
    ? { status: 'cancelled', statusMessage: 'cancelled on request' }
    : script[Math.min(task.polls, script.length - 1)]!;
}

function taskServer(log: TaskServerLog, tasks: Map<string, RunningTask>) {
  const server = new Server(
    { name: 'task-server', version: '1.0.0' },
    { capabilities: { tools: {}, extensions: { [TASKS]: {} } } as never },
  );
  const times = TIMES;
  server.setRequestHandler('tools/list', async () => ({
    tools: Object.keys(SCRIPTS).map((name) => ({ name, inputSchema: { type: 'object' as const } })),
  }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const capabilities = ctx.mcpReq.envelope?.[
      'io.modelcontextprotocol/clientCapabilities' as never
    ] as { extensions?: Record<string, unknown> } | undefined;
    log.declared.push(capabilities);
    log.metas.push(request.params._meta);
    if (capabilities?.extensions?.[TASKS] === undefined) return text('answered directly');
    const taskId = `task-${request.params.name}-${tasks.size + 1}`;
    tasks.set(taskId, { tool: request.params.name, polls: 0 });
    return {
      resultType: 'task',
      taskId,
      status: 'working',
      statusMessage: 'accepted',
      ...times,
      ttlMs: request.params.name === 'forever' ? null : 60_000,
      pollIntervalMs: POLL_INTERVAL_MS,
    } as never;
  });
  const byId = z.object({ taskId: z.string() });
  server.setRequestHandler('tasks/get', { params: byId }, async ({ taskId }) => {
    log.polls.push(taskId);
    const task = tasks.get(taskId);
    if (task === undefined) throw new Error(`no task ${taskId}`);
    const script = SCRIPTS[task.tool]!;
    const poll = log.cancels.includes(taskId)
      ? { status: 'cancelled', statusMessage: 'cancelled on request' }
      : script[Math.min(task.polls, script.length - 1)]!;
    task.polls += 1;
    if (poll.garbled === true)
      return { resultType: 'complete', taskId, status: 'working' } as never;
    return {
      resultType: 'complete',
      taskId,
      ...times,
      ttlMs: 60_000,
      pollIntervalMs: POLL_INTERVAL_MS,
      ...poll,
    } as never;
  });
  server.setRequestHandler('tasks/cancel', { params: byId }, async ({ taskId }) => {
    log.cancels.push(taskId);
    return { resultType: 'complete' } as never;
  });
  return server;
}

/** The times every task reports. */
const TIMES = { createdAt: '2026-12-07T10:00:00Z', lastUpdatedAt: '2026-12-07T10:00:01Z' };

/**
 * The same tools on a server of the v1 SDK, the 2025-11-25 way (the v2 server refuses a `{task}`
 * answer to a raw `tools/call`): each tool requires a task (`execution.taskSupport`), the server
 * declares task-augmented calls, a call with a `task` parameter gets a `{task}` handle, polls
 * answer the task, and `tasks/result` the script's result or its error.
 */
function legacyTaskServer(log: TaskServerLog, tasks: Map<string, RunningTask>): ServerV1 {
  const server = new ServerV1(
    { name: 'legacy-task-server', version: '1.0.0' },
    { capabilities: { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } } },
  );
  const legacy = (taskId: string, poll: Poll) => ({
    taskId,
    status: poll.status,
    ...(poll.statusMessage === undefined ? {} : { statusMessage: poll.statusMessage }),
    ...TIMES,
    ttl: 60_000,
    pollInterval: POLL_INTERVAL_MS,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.keys(SCRIPTS).map((name) => ({
      name,
      inputSchema: { type: 'object' as const },
      execution: { taskSupport: 'required' as const },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    log.declared.push(request.params.task);
    log.metas.push(request.params._meta);
    const taskId = `task-${request.params.name}-${tasks.size + 1}`;
    tasks.set(taskId, { tool: request.params.name, polls: 0 });
    return { task: legacy(taskId, { status: 'working', statusMessage: 'accepted' }) } as never;
  });
  server.setRequestHandler(GetTaskRequestSchema, async (request) => {
    const { taskId } = request.params;
    log.polls.push(taskId);
    const task = tasks.get(taskId)!;
    const poll = pollOf(log, taskId, task);
    task.polls += 1;
    return legacy(taskId, poll) as never;
  });
  server.setRequestHandler(GetTaskPayloadRequestSchema, async (request) => {
    const last = SCRIPTS[tasks.get(request.params.taskId)!.tool]!.at(-1)!;
    const error = last.error as { code: number; message: string } | undefined;
    if (error !== undefined) throw new McpError(error.code, error.message);
    return last.result as never;
  });
  server.setRequestHandler(CancelTaskRequestSchema, async (request) => {
    log.cancels.push(request.params.taskId);
    return legacy(request.params.taskId, { status: 'cancelled' }) as never;
  });
  return server;
}

/**
 * A client of either SDK connected (the 2025 handshake, in memory) to a fresh 2025-11-25 task
 * server, and the server's log (`declared`: each call's `task` parameter).
 */
export async function connectLegacyTaskServer(
  sdk: 'v1' | 'v2',
): Promise<{ client: ClientV1 | Client; log: TaskServerLog }> {
  const log: TaskServerLog = { declared: [], metas: [], polls: [], cancels: [] };
  const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
  await legacyTaskServer(log, new Map()).connect(serverSide);
  const info = { name: 'gemini-mcp-tests', version: '0.0.0' };
  const client = sdk === 'v1' ? new ClientV1(info) : new Client(info);
  await client.connect(clientSide);
  return { client, log };
}

/**
 * A v2 client connected to a fresh task server, and the server's log: `modern`, negotiated
 * (`server/discover`: 2026-07-28) over the SDK's HTTP entry; `legacy`, the 2025 handshake in
 * memory (the v2 client's default), where the extension is not defined.
 */
export async function connectTaskServer(
  era: 'modern' | 'legacy' = 'modern',
): Promise<{ client: Client; log: TaskServerLog }> {
  const log: TaskServerLog = { declared: [], metas: [], polls: [], cancels: [] };
  const tasks = new Map<string, RunningTask>();
  const info = { name: 'gemini-mcp-tests', version: '0.0.0' };
  if (era === 'legacy') {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await taskServer(log, tasks).connect(serverSide);
    const client = new Client(info, { capabilities: { sampling: {} } });
    await client.connect(clientSide);
    return { client, log };
  }
  const handler = createMcpHandler(() => taskServer(log, tasks));
  const transport = new StreamableHTTPClientTransport(new URL('http://in-process.test/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  const client = new Client(info, {
    versionNegotiation: { mode: 'auto' },
    capabilities: { sampling: {} },
  });
  await client.connect(transport);
  return { client, log };
}

/**
 * The call of one of the task server's tools, as `functionCalls` resolves it; `required`: the
 * tool as a 2025-11-25 server lists one that must run as a task.
 */
export function taskCall(tool: string, required = false): ResolvedCall {
  return {
    serverId: 'tasks',
    name: tool,
    exposedName: tool,
    callId: 'c1',
    arguments: {},
    tool: {
      name: tool,
      inputSchema: { type: 'object' },
      ...(required ? { execution: { taskSupport: 'required' as const } } : {}),
    },
  };
}
