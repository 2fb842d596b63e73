/**
 * Issue 36: MCP servers inside a Gemini Live session, end to end: the real @google/genai client
 * (2.32, and 3.3 for the tools update) against a scripted Live endpoint on loopback, two MCP
 * servers over stdio. Every frame the endpoint receives passes the generated validator of its
 * shape, checked inside the endpoint (test/support/live-endpoint.ts).
 */
import { join } from 'node:path';
import { GoogleGenAI, type LiveServerMessage } from '@google/genai';
import { GoogleGenAI as GoogleGenAI3 } from 'genai3';
import { afterEach, describe, expect, it } from 'vitest';
import { connectServers, type ServerConnections } from '../../src/index.js';
import { type LiveToolEvent, liveTools } from '../../src/live.js';
import {
  type ClientFrame,
  type LiveEndpoint,
  startLiveEndpoint,
} from '../support/live-endpoint.js';

const SERVER = join(import.meta.dirname, '..', 'support', 'live-server.mjs');
const stdio = (role: string) => ({ command: process.execPath, args: [SERVER, role] });
const MODEL = 'gemini-live-2.5-flash-preview';

interface Response {
  id?: string;
  name: string;
  response: { output?: unknown; error?: string };
  willContinue?: boolean;
  scheduling?: string;
}

const responsesIn = (frame: ClientFrame): Response[] =>
  ((frame.toolResponse as { functionResponses?: Response[] } | undefined)?.functionResponses ??
    []) as Response[];

let endpoint: LiveEndpoint | undefined;
let servers: ServerConnections | undefined;
afterEach(async () => {
  await servers?.close();
  await endpoint?.stop();
  servers = undefined;
  endpoint = undefined;
});

async function connectBoth(): Promise<ServerConnections> {
  servers = await connectServers({ mcpServers: { fast: stdio('fast'), slow: stdio('slow') } });
  return servers;
}

/** The slow server's own record: every tools/call (request id, tool) and every cancellation. */
async function ledger(connections: ServerConnections) {
  const result = await connections.clients.get('slow')!.callTool({ name: 'ledger' });
  return result.structuredContent as {
    calls: { requestId: number; tool: string }[];
    cancelled: number[];
  };
}

/** Resolves when `events` (filled by onEvent) holds one that `test` accepts. */
function eventually(events: LiveToolEvent[], test: (event: LiveToolEvent) => boolean) {
  return new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const poll = (): void => {
      if (events.some(test)) resolve();
      else if (Date.now() - started > 5_000) reject(new Error('no such event within 5 s'));
      else setTimeout(poll, 5);
    };
    poll();
  });
}

/** setup, then setupComplete; a clientContent turn. */
async function opened(c: Parameters<Parameters<typeof startLiveEndpoint>[0]>[0]) {
  const setup = await c.next();
  c.send({ setupComplete: {} });
  await c.next();
  return setup;
}

describe('issue 36: liveTools in a Live session (real genai client, scripted endpoint, stdio servers)', () => {
  it('three calls in one toolCall: the fast ones answered first with their ids, the NON_BLOCKING one’s progress as coalesced SILENT responses, its result WHEN_IDLE', async () => {
    const connections = await connectBoth();
    let setup: ClientFrame | undefined;
    let url = '';
    const responses: Response[] = [];
    endpoint = await startLiveEndpoint(async (c) => {
      url = c.url;
      setup = await opened(c);
      c.send({
        toolCall: {
          functionCalls: [
            { id: 's1', name: 'survey', args: { steps: 6, stepMs: 50 } },
            { id: 'f1', name: 'add', args: { a: 2, b: 3 } },
            { id: 'f2', name: 'upper', args: { text: 'hi' } },
          ],
        },
      });
      while (!responses.some((r) => r.id === 's1' && r.willContinue !== true)) {
        responses.push(...responsesIn(await c.next()));
      }
      c.send({
        serverContent: { modelTurn: { role: 'model', parts: [{ text: 'All done.' }] } },
      });
      c.send({ serverContent: { turnComplete: true } });
    });
    const events: LiveToolEvent[] = [];
    const heard: LiveServerMessage[] = [];
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: endpoint.baseUrl } });
    const { session } = await liveTools(connections, {
      progressIntervalMs: 100,
      onEvent: (event) => events.push(event),
    }).connect(ai.live, {
      model: MODEL,
      config: { systemInstruction: 'Be brief.' },
      callbacks: { onmessage: (message) => heard.push(message) },
    });
    session.sendClientContent({ turns: 'Survey the sites and add 2 and 3.' });
    await endpoint.settled();
    await new Promise((resolve) => setTimeout(resolve, 50));
    session.close();

    // genai's Live URL: the base URL as ws(s) (URL.toString() ends it with a slash), then
    // /ws/google.ai.generativelanguage.<apiVersion>.GenerativeService.BidiGenerateContent?key=...
    expect(url).toBe(
      '//ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=test-key',
    );
    const declared = (
      (setup?.setup as { tools: { functionDeclarations: { name: string; behavior?: string }[] }[] })
        ?.tools[0]?.functionDeclarations ?? []
    ).map(({ name, behavior }) => ({ name, behavior }));
    expect(declared).toEqual(
      expect.arrayContaining([
        { name: 'survey', behavior: 'NON_BLOCKING' },
        { name: 'add', behavior: undefined },
        { name: 'upper', behavior: undefined },
      ]),
    );
    // The fast ones first, each with its id; then the slow one's progress and its result.
    const finals = responses.filter((r) => r.willContinue !== true);
    expect(finals.map((r) => r.id)).toEqual([
      expect.stringMatching(/^f[12]$/),
      expect.stringMatching(/^f[12]$/),
      's1',
    ]);
    expect(responses.find((r) => r.id === 'f1')).toEqual({
      id: 'f1',
      name: 'add',
      response: { output: { sum: 5 } },
    });
    expect(responses.find((r) => r.id === 'f2')?.response).toEqual({ output: 'HI' });
    const progress = responses.filter((r) => r.willContinue === true);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeLessThan(6); // six notifications, coalesced
    for (const r of progress) {
      expect(r).toMatchObject({ id: 's1', name: 'survey', scheduling: 'SILENT' });
      expect(r.response.output).toMatchObject({ status: 'running', total: 6 });
    }
    expect(responses.indexOf(progress[0]!)).toBeGreaterThan(
      responses.findIndex((r) => r.id === 'f2'),
    );
    expect(finals[2]).toEqual({
      id: 's1',
      name: 'survey',
      response: { output: { sites: 6 } },
      scheduling: 'WHEN_IDLE',
    });
    expect(events.filter((e) => e.type === 'progress')).toHaveLength(6);
    // The caller's onmessage still hears everything.
    expect(heard.some((m) => m.text === 'All done.')).toBe(true);
    expect(heard.some((m) => m.toolCall !== undefined)).toBe(true);
    expect(endpoint.frames.length).toBe(2 + responses.length);
    expect(endpoint.violations).toEqual([]);
  }, 30_000);

  it('a toolCallCancellation mid-call: the server gets notifications/cancelled for exactly that call, and no response is sent for it', async () => {
    const connections = await connectBoth();
    const events: LiveToolEvent[] = [];
    const waitStarted = eventually(events, (e) => e.type === 'progress' && e.callId === 'w1');
    let late: ClientFrame[] = [];
    let first: Response[] = [];
    endpoint = await startLiveEndpoint(async (c) => {
      await opened(c);
      c.send({
        toolCall: {
          functionCalls: [
            { id: 'w1', name: 'wait', args: { ms: 30_000 } },
            { id: 'f3', name: 'add', args: { a: 1, b: 1 } },
          ],
        },
      });
      first = responsesIn(await c.next());
      await waitStarted;
      c.send({ toolCallCancellation: { ids: ['w1'] } });
      late = await c.during(400);
      c.send({ serverContent: { turnComplete: true } });
    });
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: endpoint.baseUrl } });
    const live = await liveTools(connections, { onEvent: (event) => events.push(event) }).connect(
      ai.live,
      { model: MODEL, callbacks: { onmessage: () => {} } },
    );
    live.session.sendClientContent({ turns: 'Wait, and add 1 and 1.' });
    await endpoint.settled();
    const { calls, cancelled } = await ledger(connections);
    live.session.close();

    expect(first).toEqual([{ id: 'f3', name: 'add', response: { output: { sum: 2 } } }]);
    const waitCall = calls.find((call) => call.tool === 'wait');
    expect(cancelled).toEqual([waitCall?.requestId]);
    expect(late).toEqual([]);
    expect(endpoint.frames.flatMap(responsesIn).map((r) => r.id)).toEqual(['f3']);
    expect(events).toContainEqual({
      type: 'cancelled',
      callId: 'w1',
      exposedName: 'wait',
      reason: 'toolCallCancellation',
    });
    expect(live.inFlight).toBe(0);
    expect(endpoint.violations).toEqual([]);
  }, 30_000);

  it('goAway, then the connection closes with a call running: the call is cancelled on its server, nothing is sent for it', async () => {
    const connections = await connectBoth();
    const events: LiveToolEvent[] = [];
    const waitStarted = eventually(events, (e) => e.type === 'progress' && e.callId === 'w2');
    endpoint = await startLiveEndpoint(async (c) => {
      await opened(c);
      c.send({ toolCall: { functionCalls: [{ id: 'w2', name: 'wait', args: { ms: 30_000 } }] } });
      await waitStarted;
      c.send({ goAway: { timeLeft: '0.2s' } });
      await new Promise((resolve) => setTimeout(resolve, 100));
      c.close();
    });
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: endpoint.baseUrl } });
    let closed = false;
    const live = await liveTools(connections, { onEvent: (event) => events.push(event) }).connect(
      ai.live,
      {
        model: MODEL,
        callbacks: {
          onmessage: () => {},
          onclose: () => {
            closed = true;
          },
        },
      },
    );
    live.session.sendClientContent({ turns: 'Wait.' });
    await eventually(events, (e) => e.type === 'cancelled');
    const { calls, cancelled } = await ledger(connections);

    expect(events).toContainEqual({ type: 'goAway', timeLeft: '0.2s', running: 1 });
    expect(events).toContainEqual({
      type: 'cancelled',
      callId: 'w2',
      exposedName: 'wait',
      reason: 'closed',
    });
    expect(closed).toBe(true); // the caller's onclose is chained
    expect(cancelled).toEqual([calls.find((call) => call.tool === 'wait')?.requestId]);
    expect(endpoint.frames.flatMap(responsesIn)).toEqual([]);
    expect(endpoint.violations).toEqual([]);
  }, 30_000);

  it('tools/list_changed: genai 3.3 sends the new tool list with sendContextUpdate, and a call to the vanished tool is answered as unknown', async () => {
    const connections = await connectBoth();
    const events: LiveToolEvent[] = [];
    let update: ClientFrame | undefined;
    let unknown: Response[] = [];
    endpoint = await startLiveEndpoint(async (c) => {
      await opened(c);
      c.send({ toolCall: { functionCalls: [{ id: 'r1', name: 'retire', args: {} }] } });
      for (let frame = await c.next(); ; frame = await c.next()) {
        if ('contextUpdate' in frame) {
          update = frame;
          break;
        }
      }
      c.send({ toolCall: { functionCalls: [{ id: 'u1', name: 'upper', args: { text: 'x' } }] } });
      unknown = responsesIn(await c.next());
    });
    const ai = new GoogleGenAI3({
      apiKey: 'test-key',
      httpOptions: { baseUrl: endpoint.baseUrl },
    });
    const live = await liveTools(connections, { onEvent: (event) => events.push(event) }).connect(
      ai.live,
      { model: MODEL, callbacks: { onmessage: () => {} } },
    );
    live.session.sendClientContent({ turns: 'Retire upper, then use it.' });
    await endpoint.settled();
    live.session.close();

    const tools = (
      update?.contextUpdate as { tools: { tools: { functionDeclarations: { name: string }[] }[] } }
    )?.tools.tools;
    expect(tools?.[0]?.functionDeclarations.map((d) => d.name).sort()).toEqual([
      'add',
      'ledger',
      'retire',
      'survey',
      'wait',
    ]);
    expect(events).toContainEqual({ type: 'tools', count: 5, sent: true });
    expect(unknown).toEqual([
      {
        id: 'u1',
        name: 'upper',
        response: { error: expect.stringMatching(/^UNKNOWN_FUNCTION: /) },
      },
    ]);
    expect(endpoint.violations).toEqual([]);
  }, 30_000);
});
