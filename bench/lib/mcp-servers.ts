/**
 * In-memory MCP servers for the benchmarks: the SDK's low-level `Server` (raw JSON Schemas, no
 * zod) linked to an SDK `Client` by `InMemoryTransport`, so no process or socket is measured.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** A connected client and a way to close both ends. */
export interface LinkedClient {
  readonly client: Client;
  close(): Promise<void>;
}

/** Answers a `tools/call`; `undefined` arguments are `{}`. */
export type CallHandler = (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;

/** A server publishing `tools` (one page) and answering calls with `onCall`, and its client. */
export async function linkedServer(
  tools: readonly Record<string, unknown>[],
  onCall: CallHandler = async () => ({ content: [] }),
): Promise<LinkedClient> {
  const server = new Server({ name: 'bench', version: '0.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools as Tool[] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    onCall(request.params.name, request.params.arguments ?? {}),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench-client', version: '0.0.0' });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** What a stdio client transport is started with. */
export interface StdioServer {
  command: string;
  args: string[];
  stderr: 'ignore';
}

/**
 * server-everything (a devDependency) spawned over stdio, by default with the SDK's own
 * transport (`transportOf` gives another, e.g. the library's); its `echo` tool answers
 * `{message}` at once.
 */
export async function everythingOverStdio(
  transportOf: (server: StdioServer) => Transport = (server) => new StdioClientTransport(server),
): Promise<LinkedClient> {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const manifest = require(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  if (bin === undefined) throw new Error('server-everything declares no bin');
  const transport = transportOf({
    command: process.execPath,
    args: [join(dirname(manifestPath), bin), 'stdio'],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-client', version: '0.0.0' });
  await client.connect(transport);
  return { client, close: () => client.close() };
}
