/**
 * stdio to a server started in its own process group (POSIX), so that closing ends every
 * process the server started, not just the one spawned: a wrapper (`sh -c ...`, `npx`) and what
 * it runs go together. Messages are framed as the SDK's own stdio transport frames them, and read
 * by our {@link LineBuffer} (linear in a line's size, where the SDK's is quadratic).
 */
import { type ChildProcess, type IOType, spawn } from 'node:child_process';
import { PassThrough, type Stream } from 'node:stream';
import {
  type JSONRPCMessage,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { LineBuffer, readMessageLine } from './line-buffer.js';

/** How long each step of closing waits for the server to go: stdin closed, SIGTERM, SIGKILL. */
const CLOSE_STEP_MS = 2000;

/** What {@link ProcessGroupStdioTransport} starts. */
export interface ProcessGroupServer {
  command: string;
  args?: string[];
  /** Added to the SDK's safe default environment. */
  env?: Record<string, string>;
  cwd?: string;
  stderr?: IOType;
  /** Largest message (line) read; default 10 MiB, as the SDK's. */
  maxBufferSize?: number;
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise` or `ms` elapsed, whichever comes first; the timer is cleared either way. */
async function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      promise,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Signals every process of the group `pgid`; false when none is left.
 */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * A client transport over a child process's stdin and stdout, the child leading its own
 * process group. The v2 SDK's client sees it as stdio-shaped (`stderr`, `pid`) and probes it in
 * place with `server/discover`: a server that does not answer the probe within the probe
 * timeout is taken as a legacy one, on the same process. `close()` closes stdin, then (after 2 s, or at once when the child has
 * exited) sends SIGTERM to the whole group, then SIGKILL to whatever is left 2 s later.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #server: ProcessGroupServer;
  readonly #lines: LineBuffer;
  #process: ChildProcess | undefined;
  /** Sends waiting for stdin to drain. */
  readonly #drainWaiters: (() => void)[] = [];
  /** With `stderr: 'pipe'`: the child's stderr, available before it starts (as the SDK's). */
  readonly #stderr: PassThrough | undefined;

  constructor(server: ProcessGroupServer) {
    this.#server = server;
    this.#stderr = server.stderr === 'pipe' ? new PassThrough() : undefined;
    this.#lines = new LineBuffer(server.maxBufferSize);
  }

  /** The child's stderr when `stderr` is `'pipe'` (read it: an unread pipe stalls the child). */
  get stderr(): Stream | null {
    return this.#stderr ?? null;
  }

  /** The child's pid (its process group's id), once started. */
  get pid(): number | null {
    return this.#process?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.#process !== undefined) {
      return Promise.reject(new Error('ProcessGroupStdioTransport already started'));
    }
    const { command, args = [], env, cwd, stderr = 'inherit' } = this.#server;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env: { ...getDefaultEnvironment(), ...env },
        stdio: ['pipe', 'pipe', stderr],
        shell: false,
        detached: true,
        ...(cwd === undefined ? {} : { cwd }),
      });
      this.#process = child;
      if (this.#stderr !== undefined) child.stderr?.pipe(this.#stderr);
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        if (this.#process === child) this.#process = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        let lines: Buffer[];
        try {
          lines = this.#lines.append(chunk);
        } catch (error) {
          this.onerror?.(error as Error);
          void this.close();
          return;
        }
        for (const line of lines) this.#deliver(line);
      });
    });
  }

  /** One line's message to `onmessage` (a result the SDK would drop as its stand-in error); a bad line to `onerror`. */
  #deliver(line: Buffer): void {
    let message: JSONRPCMessage;
    try {
      message = readMessageLine(line);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#process?.stdin;
    if (stdin === undefined || stdin === null) return Promise.reject(new Error('Not connected'));
    if (stdin.write(serializeMessage(message))) return Promise.resolve();
    // One 'drain' listener for every send waiting (a server that stops reading can have many).
    return new Promise((resolve) => {
      if (this.#drainWaiters.push(resolve) === 1) {
        stdin.once('drain', () => {
          for (const waiter of this.#drainWaiters.splice(0)) waiter();
        });
      }
    });
  }

  async close(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    this.#lines.clear();
    if (child?.pid === undefined) return;
    const pgid = child.pid;
    const running = (): boolean => child.exitCode === null && child.signalCode === null;
    const closed = new Promise<void>((resolve) => {
      if (!running()) resolve();
      else child.once('exit', () => resolve());
    });
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    await within(closed, CLOSE_STEP_MS);
    // The group goes too, even when its leader left on stdin's end: what it started may not.
    if (!signalGroup(pgid, 'SIGTERM')) return;
    await within(closed, CLOSE_STEP_MS);
    for (let left = CLOSE_STEP_MS; left > 0 && signalGroup(pgid, 0); left -= 50) await wait(50);
    signalGroup(pgid, 'SIGKILL');
  }
}
