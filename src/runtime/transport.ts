/**
 * Opens the transport an `mcpServers` entry asks for: a child process over stdio (leading its
 * own process group, ended as a whole on close), or Streamable HTTP with bounded downloads.
 */
import type { IOType } from 'node:child_process';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerEntry } from './config.js';
import { BoundedHttpTransport } from './http-transport.js';
import { guardStdioResults } from './result-guard.js';
import { ProcessGroupStdioTransport } from './stdio-transport.js';

/** The SDK's cap on one stdio message, used for Streamable HTTP too: 10 MiB. */
const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** How transports are set up. */
export interface TransportOptions {
  /** Where a child server's stderr goes; default `'inherit'`. */
  stderr?: IOType;
  /**
   * Largest single message read from a server: a stdio line, a Streamable HTTP JSON body or
   * one SSE event. Past it the stdio connection is closed, or the HTTP download stopped and the
   * requests it was to answer answered with an error. Default 10 MiB.
   */
  maxMessageBytes?: number;
}

/**
 * The SDK transport for one checked entry (not yet started: `Client.connect` starts it). A
 * stdio server's response whose result is not an object reaches the client as an error at once
 * (see `guardStdioResults`), not as a lost line.
 *
 * @example
 * ```ts
 * const [entry] = parseServersConfig({ mcpServers: { web: { url: 'http://127.0.0.1:3000/mcp' } } });
 * await client.connect(createTransport(entry!));
 * ```
 */
export function createTransport(entry: ServerEntry, options: TransportOptions = {}): Transport {
  if (entry.transport === 'http') {
    const { url, headers } = entry.config;
    return new BoundedHttpTransport(new URL(url), {
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      ...(headers === undefined ? {} : { headers }),
    });
  }
  const { command, args, env, cwd } = entry.config;
  const server = {
    command,
    stderr: options.stderr ?? 'inherit',
    ...(args === undefined ? {} : { args }),
    ...(env === undefined ? {} : { env }),
    ...(cwd === undefined ? {} : { cwd }),
    ...(options.maxMessageBytes === undefined ? {} : { maxBufferSize: options.maxMessageBytes }),
  };
  // Windows has no process groups to end, and needs the SDK's cross-spawn for .cmd shims (npx).
  if (process.platform !== 'win32') return new ProcessGroupStdioTransport(server);
  const transport = new StdioClientTransport(server);
  guardStdioResults(transport);
  return transport;
}
