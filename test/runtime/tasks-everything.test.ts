/**
 * Issue 32 items 3 and 9: on the 2025 handshake, a tool that requires a task (2025-11-25's
 * experimental tasks: `execution.taskSupport: "required"`) is called as one, polled with
 * `tasks/get` and its result read with `tasks/result`: server-everything's
 * `simulate-research-query` over stdio, through `connectServers` and `executeToolCalls`.
 */

import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { isToolError } from '../../src/adapter/types.js';
import type { CallProgress } from '../../src/runtime/mcp/call-progress.js';
import { executeToolCalls } from '../../src/runtime/turn/execute.js';
import { connectReapedAfterEach, EVERYTHING_SERVER } from '../support/runtime-servers.js';

const RESEARCH = 'simulate-research-query';
const SLOW = 60_000;

describe('EX-6 (issue 32 item 9): 2025-11-25 tasks on the legacy handshake', () => {
  const connect = connectReapedAfterEach();

  async function researchCall() {
    const connections = await connect({ mcpServers: { everything: EVERYTHING_SERVER } });
    const entry = connections.toolset.entries.find((e) => e.exposedName === RESEARCH)!;
    expect(entry.tool).toMatchObject({ execution: { taskSupport: 'required' } });
    const call = {
      serverId: 'everything',
      name: RESEARCH,
      exposedName: RESEARCH,
      callId: 'r1',
      arguments: { topic: 'tides' },
      tool: entry.tool,
    };
    return { connections, call };
  }

  it(
    "server-everything's task-based research tool: polled to its report, each stage heard",
    async () => {
      const { connections, call } = await researchCall();
      const heard: CallProgress[] = [];
      const [outcome] = await executeToolCalls([call], connections.clients, {
        onProgress: (p) => heard.push(p),
      });
      expect(isToolError(outcome!.result)).toBe(false);
      expect(JSON.stringify(outcome!.result)).toContain('Research Report: tides');
      const statuses = heard.map((p) => p.task?.status);
      expect(statuses[0]).toBe('working');
      expect(statuses.at(-1)).toBe('completed');
      expect(heard.map((p) => p.message)).toContain('Gathering sources...');
    },
    SLOW,
  );

  it(
    'a research task past maxTaskMs is cancelled on the server (tasks/cancel) and answered TIMEOUT',
    async () => {
      const { connections, call } = await researchCall();
      const [outcome] = await executeToolCalls([call], connections.clients, { maxTaskMs: 1500 });
      expect(outcome!.result).toMatchObject({ code: 'TIMEOUT' });
      const { taskId } = (outcome!.result as { data: { taskId: string } }).data;
      const task = await connections.clients
        .get('everything')!
        .request({ method: 'tasks/get', params: { taskId } }, z.unknown());
      expect(task).toMatchObject({ taskId, status: 'cancelled' });
    },
    SLOW,
  );
});
