/**
 * Where each configured server runs: on the client (connected here, its tools declared as
 * functions) or on Gemini (`Tool.mcpServers`: the API calls it itself during generateContent).
 * A server moves only when it is asked to (its entry's `runOn`, or `runOn` for the whole set)
 * and can: Streamable HTTP, static headers or none, no client capability, and a public
 * `https:` URL (Google's servers must reach it: never loopback, private or link-local hosts).
 */

import {
  type ServerSideObstacle,
  serverNameProblem,
  serverSideRefusal,
  unreachableFromGoogle,
} from '../../adapter/tools/server-side.js';
import type { McpServer } from '../../generated/types.js';
import { appendPointer } from '../../json/pointer.js';
import type { ConfigWarning, RunOn, ServerEntry } from './config/types.js';

/** Where one server runs, and why it does not run on Gemini when it does not. */
export interface ServerPlacement {
  readonly serverId: string;
  readonly runOn: RunOn;
  /** Whether its own entry asked (`runOn` in the configuration), not only the whole set. */
  readonly asked: 'entry' | 'set' | 'none';
  /** What keeps it on the client, or, for a server on Gemini, what it gives up there. */
  readonly obstacles: readonly ServerSideObstacle[];
  /** The server as the request's `Tool.mcpServers` holds it, when it runs on Gemini. */
  readonly mcpServer?: McpServer;
}

/** What {@link placeServers} needs beside the entries. */
export interface PlacementOptions {
  /** Where servers run whose entry does not say (`runOn` of `connectServers`); default `'client'`. */
  readonly runOn?: RunOn | undefined;
  /** The ids of the servers given a client capability (elicitation, roots, sampling). */
  readonly capable: ReadonlySet<string>;
  /** The environment whose values a header must not hold unwarned; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** The result of {@link placeServers}. */
export interface Placements {
  readonly placements: readonly ServerPlacement[];
  /** The entries that stay on the client, in configuration order. */
  readonly client: readonly ServerEntry[];
  /** The servers on Gemini, in configuration order. */
  readonly mcpServers: readonly McpServer[];
  /** Headers that carry an environment variable's value to Google, servers moved with their filters. */
  readonly warnings: readonly ConfigWarning[];
}

/** What keeps `entry` on the client, hard reasons first; `filters` last (a soft one). */
function obstaclesOf(entry: ServerEntry, capable: ReadonlySet<string>): ServerSideObstacle[] {
  const found: ServerSideObstacle[] = [];
  if (entry.transport === 'stdio') {
    found.push({
      reason: 'stdio',
      message: 'a local process; Gemini reaches only Streamable HTTP',
    });
  } else if (entry.transport === 'sse') {
    found.push({
      reason: 'sse',
      message: 'the legacy HTTP+SSE transport; Gemini speaks only Streamable HTTP',
    });
  }
  if (entry.transport !== 'stdio') {
    if (entry.config.oauth !== undefined) {
      found.push({
        reason: 'oauth',
        message: 'it authorizes with OAuth; Gemini sends only static headers',
      });
    }
    const host = unreachableFromGoogle(entry.config.url);
    if (host !== undefined) found.push({ reason: 'host', message: host });
  }
  if (capable.has(entry.serverId)) {
    found.push({
      reason: 'capability',
      message:
        'it is given a client capability (elicitation, roots or sampling) only a client answers',
    });
  }
  const name = serverNameProblem(entry.serverId);
  if (name !== undefined) found.push({ reason: 'name', message: name });
  if (entry.filter !== undefined) {
    found.push({
      reason: 'filters',
      message:
        'its includeTools/excludeTools apply only on the client: on Gemini every tool of the server is offered',
    });
  }
  return found;
}

/** The names of the variables of `env` whose value (8 characters or more) a header holds. */
function variablesIn(value: string, env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env).flatMap(([name, secret]) =>
    secret !== undefined && secret.length >= 8 && value.includes(secret) ? [name] : [],
  );
}

/**
 * Places every entry: on Gemini when its entry says `runOn: "gemini"` (refused, CONFIG_INVALID
 * naming every reason, when it cannot go: stdio, sse, oauth, capability, host, name; it goes with
 * a warning when only its filters keep it), or when the whole set is asked to and nothing keeps
 * it; on the client otherwise. A header of a server on Gemini that holds an environment
 * variable's value is warned about (the value goes to Google).
 */
export function placeServers(
  entries: readonly ServerEntry[],
  options: PlacementOptions,
): Placements {
  const placements: ServerPlacement[] = [];
  const client: ServerEntry[] = [];
  const mcpServers: McpServer[] = [];
  const warnings: ConfigWarning[] = [];
  const env = options.env ?? process.env;
  for (const entry of entries) {
    const asked =
      entry.runOn === undefined ? (options.runOn === undefined ? 'none' : 'set') : 'entry';
    const wanted = entry.runOn ?? options.runOn ?? 'client';
    const obstacles = obstaclesOf(entry, options.capable);
    const hard = obstacles.filter((o) => o.reason !== 'filters');
    if (wanted === 'gemini' && asked === 'entry' && hard.length > 0) {
      throw serverSideRefusal(entry.serverId, hard, appendPointer(entry.pointer, 'runOn'));
    }
    const moves =
      wanted === 'gemini' &&
      entry.transport === 'http' &&
      hard.length === 0 &&
      (asked === 'entry' || obstacles.length === 0);
    if (!moves || entry.transport !== 'http') {
      placements.push({ serverId: entry.serverId, runOn: 'client', asked, obstacles });
      client.push(entry);
      continue;
    }
    const { url, headers } = entry.config;
    const mcpServer: McpServer = {
      name: entry.serverId,
      streamableHttpTransport: {
        url,
        ...(headers === undefined ? {} : { headers: { ...headers } }),
      },
    };
    placements.push({ serverId: entry.serverId, runOn: 'gemini', asked, obstacles, mcpServer });
    mcpServers.push(mcpServer);
    for (const o of obstacles) {
      warnings.push({
        code: 'SERVER_ON_GEMINI',
        message: `moved to Gemini as its entry asks, although ${o.message}`,
        path: entry.pointer,
      });
    }
    for (const [header, value] of Object.entries(headers ?? {})) {
      const names = variablesIn(value, env);
      if (names.length === 0) continue;
      warnings.push({
        code: 'SERVER_ON_GEMINI',
        message: `this header holds the value of environment variable ${names.join(', ')}, and goes to Google with every request`,
        path: appendPointer(appendPointer(entry.pointer, 'headers'), header),
      });
    }
  }
  return { placements, client, mcpServers, warnings };
}
