/**
 * Connects the servers of an `mcpServers` configuration, lists their tools and keeps one tool
 * set over all of them, rebuilt whenever a server says its tools changed.
 */

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { PromptWarning } from '../../adapter/prompts/contents.js';
import type { ResponseInput, SchemaMode } from '../../adapter/shapes.js';
import type {
  BuildToolSetOptions,
  ToolFilter,
  ToolSet,
  ToolSetWarning,
} from '../../adapter/tools/toolset-types.js';
import { GeminiMcpError } from '../../errors.js';
import type { Content, GenerateContentResponse, McpServer } from '../../generated/types.js';
import { checkCount, checkTimeout } from '../options.js';
import { packageVersion } from '../version.js';
import { withAuthorization } from './auth/pending.js';
import { closeClient, markTrusted, watchClient } from './client-state.js';
import { loadServers } from './config/index.js';
import type {
  ConfigReadOptions,
  ConfigWarning,
  RunOn,
  ServerEntry,
  ServersConfig,
} from './config/types.js';
import { equipClient } from './features/capabilities.js';
import type { CapabilitiesConfig, ServerFeatures } from './features/capabilities-config.js';
import type { ClientRoot, ServerRoots } from './features/roots.js';
import type { SamplingOptions } from './features/sampling.js';
import {
  instructionsContent,
  type ServerInstructions,
  serverInstructions,
} from './instructions.js';
import { listAllTools } from './list-tools.js';
import {
  LiveToolSet,
  type ToolSetSource,
  type ToolsChange,
  type ToolsSettleOptions,
} from './live-toolset.js';
import {
  LivePrompts,
  listAllPrompts,
  listPromptsOrWarn,
  type PromptsChange,
  type ServerPrompt,
  type ServerPromptList,
} from './prompts.js';
import { openResourceCatalog, type ResourceCatalog } from './resources/catalog.js';
import { limitPendingRequests } from './server-request-limits.js';
import { placeServers, type ServerPlacement } from './server-side.js';
import { openSkillCatalog, type SkillCatalog } from './skills/catalog.js';
import {
  createTransport,
  describeStartFailure,
  type TransportOptions,
} from './transports/index.js';

export type { SkillEntry, SkillFile } from '../../adapter/skills/entry.js';
export type { ToolSetSource, ToolsChange, ToolsSettleOptions } from './live-toolset.js';
export type {
  ListedResource,
  ListedResourceTemplate,
  ResourceCatalog,
  ResourcesChange,
  ResourceUpdate,
  SubscribeOptions,
} from './resources/catalog.js';
export type { ResourceListWarning } from './resources/list.js';
export type { ServerPlacement } from './server-side.js';
export type { ListedSkill, SkillCatalog } from './skills/catalog.js';

/**
 * Options of {@link connectServers}. `capabilities` (elicitation, roots) are declared to every
 * server, `servers[id].capabilities` override them for one server; a capability is advertised
 * only where it is configured. `R` and `M` are the response type and schema mode of the sampling
 * `generate` function, when there is one.
 */
export interface ConnectOptions<
  R extends ResponseInput = GenerateContentResponse,
  M extends SchemaMode = SchemaMode,
> extends TransportOptions,
    CapabilitiesConfig {
  /** How the tool set is built (prefixing, filters). */
  toolSet?: BuildToolSetOptions;
  /** Limit for connecting to one server and for each `tools/list` page. Default 30 000 ms. */
  timeoutMs?: number;
  /**
   * Requests one server may have waiting for this client's answer at once (sampling,
   * elicitation, roots, pings), until the answer is written out; past it, a request is refused
   * at once with JSON-RPC error -32010 (`limit: 'maxPendingServerRequests'`). A server that
   * stops reading while it floods requests costs at most this many answers held.
   *
   * @defaultValue 64
   */
  maxPendingServerRequests?: number;
  /**
   * Cancels connecting: every server still being reached is closed at once (a stdio server's
   * process group ended, as by `close()`), so are those already reached, and
   * {@link connectServers} rejects with `signal.reason` once they are. No effect once it resolved.
   */
  signal?: AbortSignal;
  /** How this client introduces itself to servers; default `gemini-mcp-kit` and its version. */
  clientInfo?: { name: string; version: string };
  /** How a configuration file or object is read (format, `${workspaceFolder}`, environment). */
  configOptions?: ConfigReadOptions;
  /**
   * Serve the servers' sampling requests (`sampling/createMessage`) with Gemini: the
   * `sampling` capability is declared to every server and each request answered through
   * `generate`, behind the approval hook and limits (see `serveSampling`).
   */
  sampling?: SamplingOptions<R, M>;
  /**
   * Where the servers whose entry has no `runOn` run (default `'client'`). `'gemini'` moves every
   * server that can run there (Streamable HTTP, a public `https:` URL, static headers or none,
   * no OAuth, no client capability, no `includeTools`/`excludeTools`) to `mcpServers`: it is
   * not connected here, and Gemini calls it itself. The others stay, each with its reasons in
   * `placements`. An entry's own `runOn: "gemini"` is stricter: refused (CONFIG_INVALID naming
   * why) when the server cannot go. Headers go to Google with every request: one holding an
   * environment variable's value is a `SERVER_ON_GEMINI` warning in `configWarnings`.
   */
  runOn?: RunOn;
}

/**
 * Live connections to every configured server and the tool set over them. As a
 * {@link ToolSetSource} it goes to `runConversation` as `toolset`, which then waits for a
 * refresh a tool call started before the next request.
 */
export interface ServerConnections extends ToolSetSource {
  /** A connected SDK client per server id, in configuration order. */
  readonly clients: ReadonlyMap<string, Client>;
  /** The current tool set over every server (replaced when a server's tools change). */
  readonly toolset: ToolSet;
  /** The current tool set's warnings (renames, tools left out, ...). */
  readonly warnings: readonly ToolSetWarning[];
  /**
   * What reading the configuration found: unknown keys (with a did-you-mean), keys that are
   * ignored, unset variables; each with its JSON pointer. Empty for entries passed in.
   */
  readonly configWarnings: readonly ConfigWarning[];
  /**
   * The servers Gemini runs itself (`runOn: 'gemini'`), as `Tool.mcpServers` entries: pass them
   * to `runConversation` (`mcpServers`) or `geminiTools`; they are not in `clients` or `toolset`.
   */
  readonly mcpServers: readonly McpServer[];
  /** Where each configured server runs, and what keeps one on the client. */
  readonly placements: readonly ServerPlacement[];
  /**
   * Every server's resources and resource templates (the servers that declare the resources
   * capability; every page, bounded), namespaced by server id, listed again on
   * `notifications/resources/list_changed`; and subscriptions to single resources. Read one with
   * `resourceParts` (`gemini-mcp-kit/features`).
   */
  readonly resources: ResourceCatalog;
  /**
   * Every server's prompts (`id` is `server/name`), all pages, kept current on
   * `notifications/prompts/list_changed`: give `connections` to `getPrompt`.
   */
  readonly prompts: readonly ServerPrompt[];
  /** What listing the prompts found: prompts left out or sanitized, listings that failed. */
  readonly promptWarnings: readonly PromptWarning[];
  /** Lists one server's prompts again (every server's when `serverId` is omitted). */
  refreshPrompts(serverId?: string): Promise<void>;
  /** Calls `listener` after each listing of a server's prompts; returns an unsubscribe. */
  onPromptsChanged(listener: (change: PromptsChange) => void): () => void;
  /**
   * The `instructions` of the servers opted in with `servers[id].instructions` (none by
   * default), sanitized like tool descriptions and capped at 4 KiB each.
   */
  readonly instructions: readonly ServerInstructions[];
  /**
   * A `systemInstruction` of `own` text (first) and each opted-in server's instructions under a
   * line naming that server, or `undefined` when there is neither.
   */
  systemInstruction(own?: string): Content | undefined;
  /**
   * Every server's skills (the servers that declare the MCP skills extension,
   * `io.modelcontextprotocol/skills`; every page of `skills/list`, bounded), namespaced by server
   * id. Listing reads no file of a skill: load one with `loadSkill` (`gemini-mcp-kit/features`).
   */
  readonly skills: SkillCatalog;
  /** Lists one server's tools again (every server's when `serverId` is omitted) and rebuilds the set. */
  refreshTools(serverId?: string): Promise<void>;
  /** Calls `listener` after each refresh that `notifications/tools/list_changed` triggers; returns an unsubscribe. */
  onToolsChanged(listener: (change: ToolsChange) => void): () => void;
  /**
   * Resolves `true` once no tool refresh is in flight (those that start while it waits
   * included), `false` when `timeoutMs` (default 5 000) passed or `signal` fired first. A
   * server that sends `tools/list_changed` while it answers a call (stdio, in memory, or on the
   * call's own HTTP stream) has its refresh in flight by the time the call's result is read, so
   * awaiting this after the calls of a turn gives the set the next request should declare:
   * `await connections.toolsSettled(); geminiTools(connections.toolset)`.
   */
  toolsSettled(options?: ToolsSettleOptions): Promise<boolean>;
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

const DEFAULT_MAX_PENDING_SERVER_REQUESTS = 64;

/** Both filters: names both include lists allow (either, when one is absent), and either exclude list. */
function bothFilters(a: ToolFilter, b: ToolFilter): ToolFilter {
  const include =
    a.include === undefined || b.include === undefined
      ? (a.include ?? b.include)
      : a.include.filter((name) => b.include?.includes(name));
  const exclude = [...(a.exclude ?? []), ...(b.exclude ?? [])];
  return {
    ...(include === undefined ? {} : { include }),
    ...(exclude.length === 0 ? {} : { exclude }),
  };
}

/** The tool set options with each entry's own filter (gemini-cli `includeTools`/`excludeTools`) added. */
function withEntryFilters(
  entries: readonly ServerEntry[],
  toolSet: BuildToolSetOptions | undefined,
): BuildToolSetOptions | undefined {
  if (entries.every((entry) => entry.filter === undefined)) return toolSet;
  const filters = new Map(Object.entries(toolSet?.filters ?? {}));
  for (const { serverId, filter } of entries) {
    if (filter === undefined) continue;
    const given = filters.get(serverId);
    filters.set(serverId, given === undefined ? filter : bothFilters(filter, given));
  }
  return { ...toolSet, filters: Object.fromEntries(filters) };
}

function defaultClientInfo(): { name: string; version: string } {
  return { name: 'gemini-mcp-kit', version: packageVersion() };
}

interface OpenServer {
  entry: ServerEntry;
  client: Client;
  tools: unknown[];
  prompts: ServerPromptList;
  roots: ServerRoots | undefined;
}

/** The options the opening of one server reads, and the features each client gets. */
interface OpenOptions extends Omit<ConnectOptions, 'sampling'> {
  /** A server's client features: its configured capabilities, and sampling. */
  featuresOf(serverId: string): ServerFeatures;
}

async function openOnce(entry: ServerEntry, options: OpenOptions): Promise<OpenServer> {
  const { signal } = options;
  const timeout = entry.timeoutMs ?? options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  // Made before anything starts (Client.connect starts it): its module may load first.
  const transport = await createTransport(entry, options, timeout);
  // The SDK's client (with its protocol layer and ajv build) loads with the first connection.
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  signal?.throwIfAborted();
  const client = new Client(options.clientInfo ?? defaultClientInfo());
  watchClient(client);
  if (entry.trust === true) markTrusted(client);
  const { features, roots } = options.featuresOf(entry.serverId);
  equipClient(client, entry.serverId, features);
  // Cancelling closes the client at once (ending a stdio server's process group): whatever the
  // connection waits for (a start, the handshake, a page of tools) fails with it.
  let closing: Promise<void> | undefined;
  const cancel = (): void => {
    closing ??= closeClient(client);
  };
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    const cancellable = signal === undefined ? {} : { signal };
    const connecting = client.connect(transport, { timeout, ...cancellable });
    // The SDK attached its handler to the transport before the handshake: capped from the first.
    limitPendingRequests(
      client,
      entry.serverId,
      options.maxPendingServerRequests ?? DEFAULT_MAX_PENDING_SERVER_REQUESTS,
    );
    await connecting;
    const tools = await listAllTools(client, { timeoutMs: timeout, ...cancellable });
    const prompts = await listPromptsOrWarn(client, entry.serverId, {
      timeoutMs: timeout,
      ...cancellable,
    });
    return { entry, client, roots, tools, prompts };
  } catch (error) {
    cancel();
    await closing;
    throw signal?.aborted ? signal.reason : error;
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/** Opens one server; an authorization that needs the browser is waited for, then it connects again. */
function openServer(entry: ServerEntry, options: OpenOptions): Promise<OpenServer> {
  return withAuthorization(() => openOnce(entry, options), options.signal);
}

async function openAll(entries: ServerEntry[], options: OpenOptions): Promise<OpenServer[]> {
  const settled = await Promise.allSettled(entries.map((entry) => openServer(entry, options)));
  const opened = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failures = settled.flatMap((s, i) =>
    s.status === 'rejected' ? [{ serverId: entries[i]?.serverId ?? '', error: s.reason }] : [],
  );
  const first = failures[0];
  const cancelled = options.signal?.aborted === true;
  if (first === undefined && !cancelled) return opened;
  await Promise.allSettled(opened.map(({ client }) => closeClient(client)));
  if (cancelled || first === undefined) throw options.signal?.reason;
  // An authorization refusal already names its server and what it asked for.
  if (first.error instanceof GeminiMcpError && first.error.code === 'UNAUTHORIZED')
    throw first.error;
  const entry = entries.find((e) => e.serverId === first.serverId);
  const reason =
    entry === undefined ? String(first.error) : describeStartFailure(entry, first.error);
  throw new GeminiMcpError(
    'CONFIG_INVALID',
    `server "${first.serverId}" could not be started: ${reason}`,
    {
      cause: first.error,
      ...(entry === undefined ? {} : { path: entry.pointer }),
      data: { failures: failures.map((f) => f.serverId) },
    },
  );
}

/**
 * Starts or reaches every server of a configuration (an object, the path of a JSON or JSONC file
 * in any format {@link parseServersConfig} reads: Claude Desktop, Cursor, Claude Code, VS Code,
 * gemini-cli; or entries already checked), over stdio, Streamable HTTP or the legacy HTTP+SSE
 * transport, lists each one's tools (every page) and builds one tool set over them (an entry's
 * `includeTools`/`excludeTools` added to `toolSet.filters`). What reading the file found is in
 * `configWarnings`. A server
 * that announces `notifications/tools/list_changed` has its tools listed again and the set
 * rebuilt. If any server fails to connect, the others are closed and a `GeminiMcpError`
 * (`CONFIG_INVALID`, `path` the entry's pointer) names it, and for an HTTP server its URL and
 * the cause (`ECONNREFUSED 127.0.0.1:1234`, `HTTP 404`); a server that refuses authorization
 * gives `UNAUTHORIZED` instead. A `timeoutMs` outside (0, 2^31 - 1], or a `maxMessageBytes` or
 * `maxPendingServerRequests` that is not a whole number >= 1, is refused with INVALID_INPUT
 * naming the option, and so are bad `capabilities`. Each client declares only the capabilities configured for its server
 * (elicitation, roots, sampling), with their handlers in place before it connects. An entry's
 * `trust: true` goes with its client: the approval hook (`onToolCall`) hears it as `trusted`.
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
export async function connectServers<
  R extends ResponseInput = GenerateContentResponse,
  M extends SchemaMode = SchemaMode,
>(
  config: ServersConfig | string | readonly ServerEntry[],
  options: ConnectOptions<R, M> = {},
): Promise<ServerConnections> {
  checkTimeout('timeoutMs', options.timeoutMs);
  checkCount('maxMessageBytes', options.maxMessageBytes);
  checkCount('maxPendingServerRequests', options.maxPendingServerRequests);
  // The features' modules load only when a capability or sampling is configured.
  const capabilities =
    options.capabilities === undefined && options.servers === undefined
      ? undefined
      : await import('./features/capabilities-config.js');
  capabilities?.checkCapabilitiesConfig(options);
  const loaded = await loadServers(config, options.configOptions);
  const capable = new Set(
    loaded.entries.flatMap(({ serverId }) =>
      options.sampling !== undefined ||
      (capabilities?.serverFeatures(serverId, options).features.length ?? 0) > 0
        ? [serverId]
        : [],
    ),
  );
  const placed = placeServers(loaded.entries, {
    runOn: options.runOn,
    capable,
    env: options.configOptions?.env,
  });
  for (const warning of placed.warnings) options.configOptions?.onWarning?.(warning);
  const entries = [...placed.client];
  const configWarnings = [...loaded.warnings, ...placed.warnings];
  // Built before any server starts, so bad sampling limits are refused up front.
  const { sampling } = options;
  const serving = sampling === undefined ? undefined : await import('./features/sampling.js');
  const samplingFeatures = new Map(
    entries.map((entry) => [
      entry.serverId,
      sampling === undefined || serving === undefined
        ? []
        : [serving.samplingFeature(entry.serverId, sampling)],
    ]),
  );
  const opened = await openAll(entries, {
    ...options,
    featuresOf: (serverId) => {
      const configured = capabilities?.serverFeatures(serverId, options);
      const more = samplingFeatures.get(serverId) ?? [];
      return { features: [...(configured?.features ?? []), ...more], roots: configured?.roots };
    },
  });
  const clients = new Map(opened.map(({ entry, client }) => [entry.serverId, client]));
  const roots = new Map(
    opened.flatMap(({ entry, client, roots }) =>
      roots === undefined ? [] : [[entry.serverId, { roots, client }] as const],
    ),
  );
  let live: LiveToolSet;
  let resources: Awaited<ReturnType<typeof openResourceCatalog>>;
  let skills: SkillCatalog;
  try {
    live = new LiveToolSet(
      new Map(opened.map(({ entry, tools }) => [entry.serverId, tools])),
      withEntryFilters(entries, options.toolSet),
    );
    resources = await openResourceCatalog(clients, {
      timeoutMs: options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    skills = await openSkillCatalog(clients, {
      timeoutMs: options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    }).catch(async (error: unknown) => {
      await resources.close();
      throw error;
    });
  } catch (error) {
    await Promise.allSettled([...clients.values()].map((client) => closeClient(client)));
    throw error;
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const fetchTools = (client: Client) => () => listAllTools(client, { timeoutMs });
  const prompts = new LivePrompts(new Map(opened.map((o) => [o.entry.serverId, o.prompts])));
  const fetchPrompts = (id: string, client: Client) => () =>
    listAllPrompts(client, id, { timeoutMs });
  for (const [serverId, client] of clients) {
    client.setNotificationHandler(ToolListChangedNotificationSchema, () =>
      live.replaceAndNotify(serverId, fetchTools(client)),
    );
    client.setNotificationHandler(PromptListChangedNotificationSchema, () =>
      prompts.refreshNotified(serverId, fetchPrompts(serverId, client)),
    );
  }
  const instructions = serverInstructions(
    clients,
    (id) =>
      Object.hasOwn(options.servers ?? {}, id) && options.servers?.[id]?.instructions === true,
  );

  return {
    clients,
    get toolset() {
      return live.toolset;
    },
    get warnings() {
      return live.warnings;
    },
    configWarnings,
    mcpServers: placed.mcpServers,
    placements: placed.placements,
    resources,
    get prompts() {
      return prompts.prompts;
    },
    get promptWarnings() {
      return prompts.warnings;
    },
    async refreshPrompts(serverId) {
      const ids = serverId === undefined ? [...clients.keys()] : [serverId];
      await Promise.all(
        ids.map((id) => {
          const client = clients.get(id);
          if (client === undefined) {
            throw new GeminiMcpError('INVALID_INPUT', `no server "${id}" is connected`);
          }
          return prompts.refresh(id, fetchPrompts(id, client));
        }),
      );
    },
    onPromptsChanged(listener) {
      return prompts.onChange(listener);
    },
    instructions,
    systemInstruction(own) {
      return instructionsContent(instructions, own);
    },
    skills,
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
    toolsSettled(settleOptions) {
      return live.toolsSettled(settleOptions);
    },
    async setRoots(list, serverId) {
      const { checkRoots } = await import('./features/roots.js');
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
      await resources.close();
      prompts.clearListeners();
      await Promise.allSettled([...clients.values()].map((client) => closeClient(client)));
    },
  };
}
