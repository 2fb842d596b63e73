/**
 * Connects the servers of an `mcpServers` configuration, lists their tools and keeps one tool
 * set over all of them, rebuilt whenever a server says its tools changed.
 */

import type { Client, Transport } from '@modelcontextprotocol/client';
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
import { AuthorizationPending, withAuthorization } from './auth/pending.js';
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
import { listToolsFresh } from './list-tools.js';
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
import { guardResults } from './result-guard.js';
import { limitPendingRequests } from './server-request-limits.js';
import { placeServers, type ServerPlacement } from './server-side.js';
import { openSkillCatalog, type SkillCatalog } from './skills/catalog.js';
import { withValidHeaders } from './tool-headers.js';
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
  /**
   * How long a stdio server has to answer the `server/discover` probe (the 2026-07-28
   * revision's first request) before it is taken as a legacy server and asked `initialize` on
   * the same process; within `timeoutMs`. A server of the 2025 revision answers the probe with
   * an error at once; one that ignores it costs this long; one that exits on it is started
   * again and asked `initialize` alone. An HTTP server has `timeoutMs` for the probe: silence
   * there is an outage, not a legacy server.
   *
   * @defaultValue 5000
   */
  probeTimeoutMs?: number;
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

/** How one server is spoken to, as connecting found it. */
export interface ServerStatus {
  /** The protocol revision negotiated, e.g. `'2026-07-28'` or `'2025-11-25'`. */
  readonly protocolVersion: string;
  /**
   * `'modern'`: 2026-07-28 or later, found by `server/discover` (no handshake, per-request
   * metadata, list changes over `subscriptions/listen`); `'legacy'`: the 2025 `initialize`
   * handshake, the server having given no modern answer to the probe.
   */
  readonly era: 'modern' | 'legacy';
  /** The transport in use: an `http` entry with `sseFallback` that fell back reads `'sse'`. */
  readonly transport: 'stdio' | 'streamable-http' | 'sse';
}

/**
 * Live connections to every configured server and the tool set over them. As a
 * {@link ToolSetSource} it goes to `runConversation` as `toolset`, which then waits for a
 * refresh a tool call started before the next request.
 */
export interface ServerConnections extends ToolSetSource {
  /** A connected client (`@modelcontextprotocol/client`'s `Client`) per server id, in configuration order. */
  readonly clients: ReadonlyMap<string, Client>;
  /**
   * Per server id, in configuration order: the revision each server is spoken to in (every
   * server gets the newest it speaks: `server/discover` first, the 2025 handshake as the
   * fallback) and over which transport.
   */
  readonly status: ReadonlyMap<string, ServerStatus>;
  /** The current tool set over every server (replaced when a server's tools change). */
  readonly toolset: ToolSet;
  /**
   * The current tool set's warnings (renames, tools left out, ...), and the tools of 2026-07-28
   * Streamable HTTP servers left out for their `x-mcp-header` annotations (`TOOL_HEADER_INVALID`).
   */
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
  /**
   * Lists one server's tools again (every server's when `serverId` is omitted) and rebuilds the
   * set. A list its server said stays fresh (`ttlMs` of MCP 2026-07-28, capped at a day) is kept
   * until then, and re-read on the first call after; a server without `ttlMs` is re-read every
   * time. `tools/list_changed` re-reads at once, fresh or not. A cached list belongs to this
   * connection alone (its authorization): never shared, whatever its `cacheScope`.
   */
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

const DEFAULT_PROBE_TIMEOUT_MS = 5000;

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
  status: ServerStatus;
  tools: unknown[];
  prompts: ServerPromptList;
  /** How long `tools` stays fresh (ms, from the server's `ttlMs`; 0: re-read whenever asked). */
  ttlMs: number;
  roots: ServerRoots | undefined;
}

/**
 * A stdio server closed the connection before it was spoken to, the probe having gone first: a
 * legacy server built on an SDK that exits on any request before `initialize` (seen as the
 * probe's closed connection, or, when the probe timed out first, as `initialize`'s).
 */
class ClosedOnProbe extends Error {
  constructor(readonly failure: unknown) {
    super('the server closed the connection on the server/discover probe', { cause: failure });
  }
}

/** Whether a failure to connect is a closed connection (either SDK error code). */
function closedConnection(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === 'CONNECTION_CLOSED' ||
    (code === 'ERA_NEGOTIATION_FAILED' &&
      typeof message === 'string' &&
      message.includes('connection closed during the server/discover probe'))
  );
}

/**
 * What our own fetch threw (an authorization refused or waiting for the browser), when the SDK
 * wrapped it (the `server/discover` probe reports a failed send as a failed negotiation whose
 * cause it is); otherwise the error itself.
 */
function ownFailure(error: unknown): unknown {
  let at: unknown = error;
  for (let depth = 0; depth < 3 && at instanceof Error; depth++) {
    if (at instanceof GeminiMcpError || at instanceof AuthorizationPending) return at;
    at = at.cause;
  }
  return error;
}

/** The transport a connected server is reached over, as {@link ServerStatus} names it. */
function transportKind(entry: ServerEntry, transport: Transport): ServerStatus['transport'] {
  if (entry.transport === 'stdio') return 'stdio';
  if (entry.transport === 'sse') return 'sse';
  return (transport as { fellBack?: boolean }).fellBack === true ? 'sse' : 'streamable-http';
}

/** The options the opening of one server reads, and the features each client gets. */
interface OpenOptions extends Omit<ConnectOptions, 'sampling'> {
  /** A server's client features: its configured capabilities, and sampling. */
  featuresOf(serverId: string): ServerFeatures;
}

/** How {@link openOnce} connects: `'legacy'` skips the probe (the server exited on it before). */
type Verdict = 'negotiate' | 'legacy';

async function openOnce(
  entry: ServerEntry,
  options: OpenOptions,
  verdict: Verdict,
): Promise<OpenServer> {
  const { signal } = options;
  const timeout = entry.timeoutMs ?? options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  // Made before anything starts (Client.connect starts it): its module may load first.
  const transport = await createTransport(entry, options, timeout);
  // The SDK's client (with its protocol layer and ajv build) loads with the first connection.
  const { Client } = await import('@modelcontextprotocol/client');
  signal?.throwIfAborted();
  const probeTimeout =
    entry.transport === 'stdio'
      ? Math.min(timeout, options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS)
      : timeout;
  const client = new Client(options.clientInfo ?? defaultClientInfo(), {
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: probeTimeout } },
    // On 2026-07-28 list changes arrive only over `subscriptions/listen`, which this opens;
    // they are heard by the handler connectServers sets (on both revisions), not here.
    listChanged: { tools: { autoRefresh: false, onChanged: () => undefined } },
  });
  watchClient(client);
  if (entry.trust === true) markTrusted(client);
  const { features, roots } = options.featuresOf(entry.serverId);
  equipClient(client, entry.serverId, features);
  // Cancelling closes the client at once (ending a stdio server's process group): whatever the
  // connection waits for (a start, the probe, the handshake, a page of tools) fails with it.
  let closing: Promise<void> | undefined;
  // The transport is closed too: during the probe the client does not hold it yet.
  const cancel = (): void => {
    closing ??= Promise.allSettled([closeClient(client), transport.close()]).then(() => undefined);
  };
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    const cancellable = signal === undefined ? {} : { signal };
    // Capped from the first message the server sends, the probe's answer included.
    const limited = limitPendingRequests(
      transport,
      entry.serverId,
      options.maxPendingServerRequests ?? DEFAULT_MAX_PENDING_SERVER_REQUESTS,
    );
    await client
      .connect(limited, {
        timeout,
        ...cancellable,
        ...(verdict === 'legacy' ? { prior: { kind: 'legacy' } } : {}),
      })
      .catch((error: unknown) => {
        const retried = entry.transport === 'stdio' && verdict === 'negotiate';
        throw retried && closedConnection(error) ? new ClosedOnProbe(error) : error;
      });
    // Results read as gemini-mcp-kit reads them from the first listing on (see guardResults).
    guardResults(client);
    const status: ServerStatus = {
      protocolVersion: client.getNegotiatedProtocolVersion() ?? '',
      era: client.getProtocolEra() === 'modern' ? 'modern' : 'legacy',
      transport: transportKind(entry, transport),
    };
    const { tools, ttlMs } = await listToolsFresh(client, { timeoutMs: timeout, ...cancellable });
    const prompts = await listPromptsOrWarn(client, entry.serverId, {
      timeoutMs: timeout,
      ...cancellable,
    });
    return { entry, client, status, roots, tools, ttlMs, prompts };
  } catch (error) {
    cancel();
    await closing;
    throw signal?.aborted ? signal.reason : ownFailure(error);
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/**
 * Opens one server; an authorization that needs the browser is waited for, then it connects
 * again. A stdio server that exits on the `server/discover` probe is started again and asked
 * `initialize` alone.
 */
function openServer(entry: ServerEntry, options: OpenOptions): Promise<OpenServer> {
  return withAuthorization(
    () =>
      openOnce(entry, options, 'negotiate').catch((error: unknown) => {
        if (!(error instanceof ClosedOnProbe)) throw error;
        options.signal?.throwIfAborted();
        return openOnce(entry, options, 'legacy').catch((again: unknown) => {
          // Closed again without a probe: the first failure is the server's own.
          throw closedConnection(again) ? error.failure : again;
        });
      }),
    options.signal,
  );
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
  checkTimeout('probeTimeoutMs', options.probeTimeoutMs);
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
  const status = new Map(opened.map(({ entry, status }) => [entry.serverId, status]));
  const roots = new Map(
    opened.flatMap(({ entry, client, roots }) =>
      roots === undefined ? [] : [[entry.serverId, { roots, client }] as const],
    ),
  );
  // A 2026-07-28 Streamable HTTP connection mirrors arguments into headers (x-mcp-header): a
  // tool whose annotations break the rules is left out, with a warning, on every listing.
  const headerWarnings = new Map<string, readonly ToolSetWarning[]>();
  const withHeadersChecked = (serverId: string, tools: unknown[]): unknown[] => {
    const { era, transport } = status.get(serverId) ?? {};
    if (era !== 'modern' || transport !== 'streamable-http') return tools;
    const { kept, warnings } = withValidHeaders(serverId, tools);
    headerWarnings.set(serverId, warnings);
    return kept;
  };
  let live: LiveToolSet;
  let resources: Awaited<ReturnType<typeof openResourceCatalog>>;
  let skills: SkillCatalog;
  try {
    live = new LiveToolSet(
      new Map(
        opened.map(({ entry, tools }) => [
          entry.serverId,
          withHeadersChecked(entry.serverId, tools),
        ]),
      ),
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
  // Until when (performance.now()) each server's list is fresh: this connection's own, so a
  // cached list is never shared with another authorization, whatever its cacheScope.
  const freshUntil = new Map(
    opened.map(({ entry, ttlMs }) => [entry.serverId, performance.now() + ttlMs]),
  );
  const fetchTools = (serverId: string, client: Client) => async () => {
    const listed = await listToolsFresh(client, { timeoutMs });
    freshUntil.set(serverId, performance.now() + listed.ttlMs);
    return withHeadersChecked(serverId, listed.tools);
  };
  const prompts = new LivePrompts(new Map(opened.map((o) => [o.entry.serverId, o.prompts])));
  const fetchPrompts = (id: string, client: Client) => () =>
    listAllPrompts(client, id, { timeoutMs });
  for (const [serverId, client] of clients) {
    // By method name: heard on the 2025 connection itself and on 2026-07-28's subscription.
    // A change makes a list stale at once, whatever its ttlMs.
    client.setNotificationHandler('notifications/tools/list_changed', () =>
      live.replaceAndNotify(serverId, fetchTools(serverId, client)),
    );
    client.setNotificationHandler('notifications/prompts/list_changed', () =>
      prompts.refreshNotified(serverId, fetchPrompts(serverId, client)),
    );
  }
  const instructions = serverInstructions(
    clients,
    (id) =>
      Object.hasOwn(options.servers ?? {}, id) && options.servers?.[id]?.instructions === true,
  );

  /** Runs `refresh` for one server (every server when `serverId` is omitted); INVALID_INPUT for an id not connected. */
  const eachServer = async (
    serverId: string | undefined,
    refresh: (id: string, client: Client) => Promise<void> | undefined,
  ): Promise<void> => {
    const ids = serverId === undefined ? [...clients.keys()] : [serverId];
    await Promise.all(
      ids.map((id) => {
        const client = clients.get(id);
        if (client === undefined) {
          throw new GeminiMcpError('INVALID_INPUT', `no server "${id}" is connected`);
        }
        return refresh(id, client);
      }),
    );
  };

  return {
    clients,
    status,
    get toolset() {
      return live.toolset;
    },
    get warnings() {
      return [...live.warnings, ...[...headerWarnings.values()].flat()];
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
    refreshPrompts(serverId) {
      return eachServer(serverId, (id, client) => prompts.refresh(id, fetchPrompts(id, client)));
    },
    onPromptsChanged(listener) {
      return prompts.onChange(listener);
    },
    instructions,
    systemInstruction(own) {
      return instructionsContent(instructions, own);
    },
    skills,
    refreshTools(serverId) {
      return eachServer(serverId, (id, client) =>
        (freshUntil.get(id) ?? 0) > performance.now()
          ? undefined
          : live.replace(id, fetchTools(id, client)),
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
