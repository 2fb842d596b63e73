/**
 * A scripted Gemini Live endpoint on loopback: a WebSocket server speaking the vendored Live
 * messages, for the real @google/genai client (`httpOptions.baseUrl` pointing here; genai opens
 * `ws://host/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent`).
 * Every frame it receives is checked, inside the endpoint, with the generated write contract of
 * a client message (a `contextUpdate`, newer than the vendored protos, has each of its tools
 * checked as a Gemini Tool); every message it sends passes the read contract of a server message.
 * Each connection runs the script given, which reads frames with `next` and answers with `send`.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { ViolationDetail } from '../../src/errors.js';
import {
  checkLiveBidiGenerateContentClientMessage,
  checkTool,
  readLiveBidiGenerateContentServerMessage,
} from '../../src/generated/guards.js';

/** One frame a client sent, parsed. */
export type ClientFrame = Record<string, unknown>;

/** What a script gets for one connection. */
export interface LiveConnection {
  /** The path and query the client connected to. */
  readonly url: string;
  /** The next frame the client sends (rejects after `timeoutMs`, default 5 s). */
  next(timeoutMs?: number): Promise<ClientFrame>;
  /** Every frame the client sends from now on until `ms` passed. */
  during(ms: number): Promise<ClientFrame[]>;
  /** Sends a server message (it must pass the read contract). */
  send(message: Record<string, unknown>): void;
  /** Closes the connection. */
  close(): void;
}

/** The endpoint: its base URL, what it received, and its violations. */
export interface LiveEndpoint {
  /** `http://127.0.0.1:PORT`, for genai's `httpOptions.baseUrl`. */
  readonly baseUrl: string;
  /** Every frame received, on every connection, in order. */
  readonly frames: ClientFrame[];
  /** Each frame that failed its shape's validator, with the violations. */
  readonly violations: { frame: ClientFrame; violations: ViolationDetail[] }[];
  /** Resolves once every connection's script so far has ended (rejects with a script's failure). */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** The violations of one client frame, checked with the generated validator of its shape. */
function frameViolations(frame: ClientFrame): ViolationDetail[] {
  if ('contextUpdate' in frame) {
    // contextUpdate (genai 2.32 and 3.3: {contextUpdate: {tools: {tools: Tool[]}}}) is newer
    // than the vendored protos: its tools are checked as Gemini Tools, nothing else may be there.
    const keys = Object.keys(frame);
    const update = frame.contextUpdate as { tools?: { tools?: unknown[] } } | undefined;
    const tools = update?.tools?.tools;
    if (keys.length !== 1 || !Array.isArray(tools))
      return [{ path: '', keyword: 'contextUpdate', message: 'not a tools update' }];
    return tools.flatMap((tool, i) =>
      checkTool(tool).map((v) => ({ ...v, path: `/contextUpdate/tools/tools/${i}${v.path}` })),
    );
  }
  return checkLiveBidiGenerateContentClientMessage(frame);
}

/** Starts the endpoint on 127.0.0.1; each connection runs `script`. */
export async function startLiveEndpoint(
  script: (connection: LiveConnection) => Promise<void>,
): Promise<LiveEndpoint> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const frames: ClientFrame[] = [];
  const violations: LiveEndpoint['violations'] = [];
  const failures: unknown[] = [];
  const scripts: Promise<void>[] = [];

  server.on('connection', (socket, request) => {
    const queue: ClientFrame[] = [];
    const waiters: ((frame: ClientFrame) => void)[] = [];
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as ClientFrame;
      frames.push(frame);
      const found = frameViolations(frame);
      if (found.length > 0) violations.push({ frame, violations: found });
      const waiter = waiters.shift();
      if (waiter) waiter(frame);
      else queue.push(frame);
    });
    const connection: LiveConnection = {
      url: request.url ?? '',
      next(timeoutMs = 5_000) {
        const queued = queue.shift();
        if (queued) return Promise.resolve(queued);
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => {
            waiters.splice(waiters.indexOf(done), 1);
            reject(new Error(`live endpoint: no frame within ${timeoutMs} ms`));
          }, timeoutMs);
          const done = (frame: ClientFrame): void => {
            clearTimeout(timer);
            resolve(frame);
          };
          waiters.push(done);
        });
      },
      async during(ms) {
        const got: ClientFrame[] = [];
        const until = Date.now() + ms;
        for (;;) {
          const left = until - Date.now();
          if (left <= 0) return got;
          try {
            got.push(await connection.next(left));
          } catch {
            return got;
          }
        }
      },
      send(message) {
        const { violations: wrong } = readLiveBidiGenerateContentServerMessage(message);
        if (wrong.length > 0)
          throw new Error(`live endpoint: the script sent ${JSON.stringify(wrong)}`);
        socket.send(JSON.stringify(message));
      },
      close: () => socket.close(),
    };
    scripts.push(
      script(connection).catch((error: unknown) => {
        failures.push(error);
        socket.close();
      }),
    );
  });

  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    frames,
    violations,
    async settled() {
      await Promise.all(scripts);
      if (failures.length > 0) throw failures[0];
    },
    async stop() {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (failures.length > 0) throw failures[0];
    },
  };
}
