/**
 * Servers for the runtime tests: the example bitcoin server, the misbehaving fault server and
 * server-everything as `mcpServers` stdio entries, the same servers in memory, and process
 * checks by pid.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, expect } from 'vitest';
import { createBitcoinServer } from '../../examples/bitcoin-server.js';
import type { PriceSource } from '../../examples/price-source.js';
import type { ResponseInput, SchemaMode } from '../../src/adapter/shapes.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import type { ToolSet } from '../../src/adapter/tools/toolset-types.js';
import type { GenerateContentResponse } from '../../src/generated/types.js';
import type { McpServersConfig, StdioServerConfig } from '../../src/runtime/mcp/config/types.js';
import {
  type ConnectOptions,
  connectServers,
  type ServerConnections,
} from '../../src/runtime/mcp/connect.js';
import { listAllTools } from '../../src/runtime/mcp/list-tools.js';
import type { McpClient } from '../../src/runtime/mcp/mcp-client.js';
import { createFaultHandler } from './fault-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

/** What the example server's `bitcoin_price` answers for EUR: its offline snapshot. */
export const EUR_QUOTE = {
  currency: 'EUR',
  price: 90310.55,
  asOf: '2026-11-01T00:00:00Z',
  source: 'offline snapshot',
};

/** The example server over stdio, run through tsx's loader in the child's own node. */
export const BITCOIN_SERVER: StdioServerConfig = {
  command: process.execPath,
  args: ['--import', 'tsx', join(root, 'examples', 'bitcoin-server.ts')],
  cwd: root,
};

/** The fault server over stdio (plain JavaScript: starts in milliseconds). */
export const FAULT_SERVER: StdioServerConfig = {
  command: process.execPath,
  args: [join(root, 'test', 'support', 'fault-server.mjs')],
};

/** @modelcontextprotocol/server-everything over stdio. */
export const EVERYTHING_SERVER: StdioServerConfig = {
  command: process.execPath,
  args: [
    join(
      dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
      'dist',
      'index.js',
    ),
    'stdio',
  ],
};

const CLIENT_INFO = { name: 'gemini-mcp-tests', version: '0.0.0' };

/** A client connected in memory to `server` (an SDK `McpServer` or `Server`, not yet connected). */
export async function inMemoryClient(server: {
  connect(transport: InMemoryTransport): Promise<void>;
}): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(CLIENT_INFO);
  await client.connect(clientSide);
  return client;
}

/** A client connected in memory to the example server, with an optional price source. */
export function inMemoryBitcoinClient(prices?: PriceSource): Promise<Client> {
  return inMemoryClient(createBitcoinServer(prices === undefined ? {} : { prices }));
}

/** A client connected in memory to the fault server; its `crash` tool closes the server side. */
export async function inMemoryFaultClient(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = createFaultHandler({
    send: (message: object) => void serverSide.send(message as JSONRPCMessage),
    exit: () => void serverSide.close(),
  });
  serverSide.onmessage = (message) => handle(message);
  await serverSide.start();
  const client = new Client(CLIENT_INFO);
  await client.connect(clientSide);
  return client;
}

/** The pid of a client's stdio child process (null once the transport is gone). */
export function pidOf(client: McpClient): number | null {
  return (client.transport as { pid?: number | null } | undefined)?.pid ?? null;
}

/** Whether a process with this pid still exists. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits until `pid` has exited, up to `ms`; returns whether it did. */
export async function exited(pid: number, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/** The bitcoin and fault servers in memory: their clients by id, one tool set over both. */
export interface InMemoryServers {
  clients: Map<string, Client>;
  toolset: ToolSet;
  close(): Promise<void>;
}

/** Connects {@link InMemoryServers}. */
export async function inMemoryServers(): Promise<InMemoryServers> {
  const bitcoin = await inMemoryBitcoinClient();
  const faults = await inMemoryFaultClient();
  const { toolset } = buildToolSet([
    { serverId: 'bitcoin', tools: await listAllTools(bitcoin) },
    { serverId: 'faults', tools: await listAllTools(faults) },
  ]);
  return {
    clients: new Map([
      ['bitcoin', bitcoin],
      ['faults', faults],
    ]),
    toolset,
    close: async () => {
      await Promise.all([bitcoin.close(), faults.close()]);
    },
  };
}

/**
 * For test files that connect real servers: returns `connect`, and registers an `afterEach`
 * that closes what the test connected and checks, by pid, that every child process exited.
 */
export function connectReapedAfterEach(): <
  R extends ResponseInput = GenerateContentResponse,
  M extends SchemaMode = SchemaMode,
>(
  config: McpServersConfig,
  options?: ConnectOptions<R, M>,
) => Promise<ServerConnections> {
  let connections: ServerConnections | undefined;
  let pids: number[] = [];
  afterEach(async () => {
    await connections?.close();
    connections = undefined;
    for (const pid of pids) expect(await exited(pid), `pid ${pid} still running`).toBe(true);
    pids = [];
  });
  return async (config, options = {}) => {
    connections = await connectServers(config, { stderr: 'ignore', ...options });
    pids = [...connections.clients.values()].map((client) => pidOf(client) as number);
    return connections;
  };
}
