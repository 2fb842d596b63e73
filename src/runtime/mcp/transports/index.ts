/**
 * Opens the transport a configured server asks for: a child process over stdio (leading its
 * own process group, ended as a whole on close), Streamable HTTP or the legacy HTTP+SSE
 * transport, with bounded downloads. Each transport's module (and `node:child_process`, the
 * SDK's HTTP transports and OAuth client) is imported when a server first needs it.
 */
import type { IOType } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ServerAuth } from '../auth/resolve.js';
import type { ServerEntry } from '../config/types.js';
import { httpStatusOf } from './http-status.js';
import type { ProcessGroupStdioTransport } from './stdio.js';

/** The SDK's cap on one stdio message, used for Streamable HTTP too: 10 MiB. */
const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** How transports are set up. */
export interface TransportOptions {
  /** Where a child server's stderr goes; default `'inherit'` (`'pipe'` when `onStderr` is set). */
  stderr?: IOType;
  /**
   * Receives each stdio server's stderr as it arrives, with the server's id (its stderr is then
   * piped, not inherited), e.g. to show it after a command's own output.
   */
  onStderr?: (serverId: string, text: string) => void;
  /**
   * Largest single message read from a server: a stdio line, a Streamable HTTP JSON body or
   * one SSE event. Past it the stdio connection is closed, or the HTTP download stopped and the
   * requests it was to answer answered with an error. Default 10 MiB.
   */
  maxMessageBytes?: number;
  /**
   * How Streamable HTTP servers are authorized (OAuth): a provider per server id, or a function
   * of the server. Default: the entry's `oauth` section, if any. A 401 or 403 no authorization
   * gets past is a `GeminiMcpError` `UNAUTHORIZED` naming the server and what it asked for.
   */
  auth?: ServerAuth;
}

async function stdioTransport(
  entry: Extract<ServerEntry, { transport: 'stdio' }>,
  options: TransportOptions,
): Promise<Transport> {
  const { command, args, env, cwd } = entry.config;
  const { onStderr } = options;
  const server = {
    command,
    stderr: options.stderr ?? (onStderr === undefined ? 'inherit' : 'pipe'),
    ...(args === undefined ? {} : { args }),
    ...(env === undefined ? {} : { env }),
    ...(cwd === undefined ? {} : { cwd }),
    ...(options.maxMessageBytes === undefined ? {} : { maxBufferSize: options.maxMessageBytes }),
  };
  // Windows has no process groups to end, and needs the SDK's cross-spawn for .cmd shims (npx).
  let transport: ProcessGroupStdioTransport | StdioClientTransport;
  if (process.platform === 'win32') {
    const sdk = await import('@modelcontextprotocol/sdk/client/stdio.js');
    transport = new sdk.StdioClientTransport(server);
    // Our linear line buffer, with the result guard, in place of the SDK's.
    (await import('./line-buffer.js')).useLineBuffer(transport, server.maxBufferSize);
  } else transport = new (await import('./stdio.js')).ProcessGroupStdioTransport(server);
  if (onStderr !== undefined) {
    const decoder = new TextDecoder();
    transport.stderr?.on('data', (chunk: Buffer) =>
      onStderr(entry.serverId, decoder.decode(chunk, { stream: true })),
    );
  }
  return transport as Transport;
}

/**
 * The SDK transport for one checked entry (not yet started: `Client.connect` starts it). A
 * stdio server's response whose result is not an object reaches the client as an error at once
 * (see `readMessageLine`), not as a lost line. An `'http'` entry with `sseFallback` tries
 * Streamable HTTP and falls back to SSE on a 4xx (but 401 and 403) to its `initialize` POST (a
 * `server/discover` probe decides nothing: a server that answers it speaks 2026-07-28). An SSE
 * stream that sends no `endpoint` event within `startTimeoutMs` (default 30 000) fails to start.
 *
 * @example
 * ```ts
 * const [entry] = parseServersConfig({ mcpServers: { web: { url: 'http://127.0.0.1:3000/mcp' } } });
 * await client.connect(await createTransport(entry!));
 * ```
 */
export async function createTransport(
  entry: ServerEntry,
  options: TransportOptions = {},
  startTimeoutMs?: number,
): Promise<Transport> {
  if (entry.transport === 'stdio') return stdioTransport(entry, options);
  const url = new URL(entry.config.url);
  const { headers } = entry.config;
  const { authProviderFor } = await import('../auth/resolve.js');
  const http = {
    serverId: entry.serverId,
    maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    authProvider: authProviderFor(options.auth, entry),
    ...(headers === undefined ? {} : { headers }),
    ...(startTimeoutMs === undefined ? {} : { startTimeoutMs }),
  };
  const { BoundedSseTransport, HttpWithSseFallback } = await import('./sse.js');
  // The legacy SSE transport is v1's (2024-11-05 only): the same shape, typed by that SDK.
  if (entry.transport === 'sse') return new BoundedSseTransport(url, http) as Transport;
  const { BoundedHttpTransport } = await import('./http.js');
  const streamable = new BoundedHttpTransport(url, http);
  if (entry.sseFallback !== true) return streamable;
  return new HttpWithSseFallback(streamable, () => new BoundedSseTransport(url, http) as Transport);
}

/** A start failure's reason is cut to this many characters (a server's error page can be long). */
const MAX_REASON_LENGTH = 1000;

/**
 * The messages of an error and its causes, outermost first, at most five deep and 1000
 * characters long; an `AggregateError` without a message of its own gives its first three.
 *
 * @example
 * ```ts
 * reasonChain(fetchError); // 'fetch failed: connect ECONNREFUSED 127.0.0.1:1234'
 * ```
 */
export function reasonChain(error: unknown): string {
  const parts: string[] = [];
  let at: unknown = error;
  for (let depth = 0; depth < 5 && at !== undefined && at !== null; depth++) {
    if (!(at instanceof Error)) {
      parts.push(String(at));
      break;
    }
    const inner =
      at instanceof AggregateError ? at.errors.slice(0, 3).map((e) => String(e?.message ?? e)) : [];
    const status = httpStatusOf(at);
    const statusText = status === undefined ? '' : `HTTP ${status}: `;
    const message = statusText + (at.message === '' ? inner.join('; ') : at.message);
    if (message !== '' && !parts.some((part) => part.includes(message))) parts.push(message);
    at = at.cause;
  }
  const reason = parts.join(': ') || 'unknown error';
  return reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH)}...` : reason;
}

/**
 * Why a server could not be started, in one line: for an HTTP server its URL, the transport
 * tried and the causes (`http://127.0.0.1:1234/mcp (Streamable HTTP, then SSE): fetch failed:
 * connect ECONNREFUSED 127.0.0.1:1234`), at most 1000 characters of them.
 *
 * @example
 * ```ts
 * describeStartFailure(entry, error); // 'http://127.0.0.1:1234/mcp (SSE): SSE error: fetch failed ...'
 * ```
 */
export function describeStartFailure(entry: ServerEntry, error: unknown): string {
  const reason = reasonChain(error);
  if (entry.transport === 'stdio') return reason;
  const kind =
    entry.transport === 'sse'
      ? 'SSE'
      : entry.sseFallback === true
        ? 'Streamable HTTP, SSE on 4xx'
        : 'Streamable HTTP';
  return `${entry.config.url} (${kind}): ${reason}`;
}
