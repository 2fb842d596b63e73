/**
 * Opens the SDK transport an `mcpServers` entry asks for: a child process over stdio, or
 * Streamable HTTP.
 */
import type { IOType } from 'node:child_process';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerEntry } from './config.js';
import { guardStdioResults } from './result-guard.js';

/** How stdio transports are set up. */
export interface TransportOptions {
  /** Where a child server's stderr goes; default `'inherit'`. */
  stderr?: IOType;
  /** Largest single JSON-RPC message read from a stdio server; default the SDK's 10 MiB. */
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
    return new StreamableHTTPClientTransport(
      new URL(url),
      headers === undefined ? {} : { requestInit: { headers } },
    );
  }
  const { command, args, env, cwd } = entry.config;
  const transport = new StdioClientTransport({
    command,
    stderr: options.stderr ?? 'inherit',
    ...(args === undefined ? {} : { args }),
    ...(env === undefined ? {} : { env }),
    ...(cwd === undefined ? {} : { cwd }),
    ...(options.maxMessageBytes === undefined ? {} : { maxBufferSize: options.maxMessageBytes }),
  });
  guardStdioResults(transport);
  return transport;
}
