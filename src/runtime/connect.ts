/**
 * Connects the servers of an `mcpServers` configuration, lists their tools and keeps one tool
 * set over all of them, rebuilt whenever a server says its tools changed.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { BuildToolSetOptions, ToolSet, ToolSetWarning } from '../adapter/toolset-types.js';
import { GeminiMcpError } from '../errors.js';
import { equipClient } from './capabilities.js';
import {
  type CapabilitiesConfig,
  checkCapabilitiesConfig,
  serverFeatures,
} from './capabilities-config.js';
import { closeClient, watchClient } from './client-state.js';
import {
  type McpServersConfig,
  parseServersConfig,
  readServersConfig,
  type ServerEntry,
} from './config.js';
import { listAllTools } from './list-tools.js';
import { LiveToolSet, type ToolsChange } from './live-toolset.js';
import { checkCount, checkTimeout } from './options.js';
import { type ClientRoot, checkRoots, type ServerRoots } from './roots.js';
import { createTransport, type TransportOptions } from './transport.js';
import { packageVersion } from './version.js';

export type { ToolsChange } from './live-toolset.js';

/**
 * Options of {@link connectServers}. `capabilities` (elicitation, roots) are declared to every
 * server, `servers[id].capabilities` override them for one server; a capability is advertised
 * only where it is configured.
 */
export interface ConnectOptions extends TransportOptions, CapabilitiesConfig {
  /** How the tool set is built (prefixing, filters). */
  toolSet?: BuildToolSetOptions;
  /** Limit for connecting to one server and for each `tools/list` page. Default 30 000 ms. */
  timeoutMs?: number;
  /** How this client introduces itself to servers; default `gemini-mcp` and its version. */
  clientInfo?: { name: string; version: string };
}

/** Live connections to every configured server and the tool set over them. */
export interface ServerConnections {
  /** A connected SDK client per server id, in configuration order. */
  readonly clients: ReadonlyMap<string, Client>;
  /** The current tool set over every server (replaced when a server's tools change). */
  readonly toolset: ToolSet;
  /** The current tool set's warnings (renames, tools left out, ...). */
  readonly warnings: readonly ToolSetWarning[];
  /** Lists one server's tools again (every server's when `serverId` is omitted) and rebuilds the set. */
  refreshTools(serverId?: string): Promise<void>;
  /** Calls `listener` after each refresh that `notifications/tools/list_changed` triggers; returns an unsubscribe. */
  onToolsChanged(listener: (change: ToolsChange) => void): () => void;
  /**
   * Replaces the roots of every server that has the roots capability (of `serverId` only, when
   * given) and sends each `notifications/roots/list_changed`. INVALID_INPUT for a bad list or
   * when no such server declared roots.
   */
  setRoots(roots: readonly ClientRoot[], serverId?: string): Promise<void>;
  /**
   * Closes every client; each stdio server's process group is ended (stdin closed, then
   * SIGTERM, then SIGKILL), so processes a wrapper started go too.
   */
  close(): Promise<void>;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

function defaultClientInfo(): { name: string; version: string } {
  return { name: 'gemini-mcp', version: packageVersion() };
}

interface OpenServer {
  entry: ServerEntry;
  client: Client;
  tools: unknown[];
  roots: ServerRoots | undefined;
}

async function openServer(entry: ServerEntry, options: ConnectOptions): Promise<OpenServer> {
  const timeout = options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const client = new Client(options.clientInfo ?? defaultClientInfo());
  watchClient(client);
  const { features, roots } = serverFeatures(entry.serverId, options);
  equipClient(client, entry.serverId, features);
  try {
    await client.connect(createTransport(entry, options), { timeout });
    return { entry, client, roots, tools: await listAllTools(client, { timeoutMs: timeout }) };
  } catch (error) {
    await closeClient(client);
    throw error;
  }
}

async function openAll(entries: ServerEntry[], options: ConnectOptions): Promise<OpenServer[]> {
  const settled = await Promise.allSettled(entries.map((entry) => openServer(entry, options)));
  const opened = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failures = settled.flatMap((s, i) =>
    s.status === 'rejected' ? [{ serverId: entries[i]?.serverId ?? '', error: s.reason }] : [],
  );
  const first = failures[0];
  if (first === undefined) return opened;
  await Promise.allSettled(opened.map(({ client }) => closeClient(client)));
  const reason = first.error instanceof Error ? first.error.message : String(first.error);
  throw new GeminiMcpError(
    'CONFIG_INVALID',
    `server "${first.serverId}" could not be started: ${reason}`,
    { cause: first.error, data: { failures: failures.map((f) => f.serverId) } },
  );
}

/**
 * Starts or reaches every server of an `mcpServers` configuration (an object, or the path of a
 * JSON file), lists each one's tools (every page) and builds one tool set over them. A server
 * that announces `notifications/tools/list_changed` has its tools listed again and the set
 * rebuilt. If any server fails to connect, the others are closed and a `GeminiMcpError`
 * (`CONFIG_INVALID`) names it. A `timeoutMs` outside (0, 2^31 - 1] or a `maxMessageBytes` that is
 * not a whole number >= 1 is refused with INVALID_INPUT naming the option, and so are bad
 * `capabilities`. Each client declares only the capabilities configured for its server
 * (elicitation, roots), with their handlers in place before it connects.
 *
 * @example
 * ```ts
 * const connections = await connectServers({
 *   mcpServers: {
 *     bitcoin: { command: 'npx', args: ['tsx', 'examples/bitcoin-server.ts'] },
 *     docs: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ...' } },
 *   },
 * });
 * try {
 *   console.log(connections.toolset.entries.map((e) => e.exposedName));
 * } finally {
 *   await connections.close();
 * }
 * ```
 */
export async function connectServers(
  config: McpServersConfig | string,
  options: ConnectOptions = {},
): Promise<ServerConnections> {
  checkTimeout('timeoutMs', options.timeoutMs);
  checkCount('maxMessageBytes', options.maxMessageBytes);
  checkCapabilitiesConfig(options);
  const entries =
    typeof config === 'string' ? await readServersConfig(config) : parseServersConfig(config);
  const opened = await openAll(entries, options);
  const clients = new Map(opened.map(({ entry, client }) => [entry.serverId, client]));
  const roots = new Map(
    opened.flatMap(({ entry, client, roots }) =>
      roots === undefined ? [] : [[entry.serverId, { roots, client }] as const],
    ),
  );
  let live: LiveToolSet;
  try {
    live = new LiveToolSet(
      new Map(opened.map(({ entry, tools }) => [entry.serverId, tools])),
      options.toolSet,
    );
  } catch (error) {
    await Promise.allSettled([...clients.values()].map((client) => closeClient(client)));
    throw error;
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const fetchTools = (client: Client) => () => listAllTools(client, { timeoutMs });
  for (const [serverId, client] of clients) {
    client.setNotificationHandler(ToolListChangedNotificationSchema, () =>
      live.replaceAndNotify(serverId, fetchTools(client)),
    );
  }

  return {
    clients,
    get toolset() {
      return live.toolset;
    },
    get warnings() {
      return live.warnings;
    },
    async refreshTools(serverId) {
      const ids = serverId === undefined ? [...clients.keys()] : [serverId];
      await Promise.all(
        ids.map((id) => {
          const client = clients.get(id);
          if (client === undefined) {
            throw new GeminiMcpError('INVALID_INPUT', `no server "${id}" is connected`);
          }
          return live.replace(id, fetchTools(client));
        }),
      );
    },
    onToolsChanged(listener) {
      return live.onChange(listener);
    },
    async setRoots(list, serverId) {
      const checked = checkRoots(list, 'setRoots');
      const ids = serverId === undefined ? [...roots.keys()] : [serverId];
      const targets = ids.map((id) => roots.get(id));
      if (targets.length === 0 || targets.includes(undefined)) {
        throw new GeminiMcpError(
          'INVALID_INPUT',
          serverId === undefined
            ? 'setRoots: no server was connected with the roots capability (option capabilities.roots)'
            : `setRoots: server "${serverId}" was not connected with the roots capability`,
          { data: { option: 'capabilities.roots' } },
        );
      }
      await Promise.all(targets.map((target) => target?.roots.replace(checked, target.client)));
    },
    async close() {
      live.clearListeners();
      await Promise.allSettled([...clients.values()].map((client) => closeClient(client)));
    },
  };
}
