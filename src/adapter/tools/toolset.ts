/** Builds a {@link ToolSet} from the tool lists of several MCP servers. */

import { GeminiMcpError } from '../../errors.js';
import { readMcpTool } from '../../generated/guards-mcp.js';
import type { McpTool } from '../../generated/types.js';
import { frozenSnapshot, SharedLeaves } from '../../json/copy.js';
import { isJsonObject } from '../../json/object.js';
import { nameSkeleton } from './name-skeleton.js';
import {
  assignExposedNames,
  claimedServer,
  isReservedName,
  isReservedServerId,
  RESERVED_PREFIX,
  RESERVED_SERVER_ID,
} from './names.js';
import { unsafePropertyNames } from './parameter-names.js';
import type {
  BuildToolSetOptions,
  BuildToolSetResult,
  ServerTools,
  ToolFilter,
  ToolSet,
  ToolSetEntry,
  ToolSetWarning,
} from './toolset-types.js';

interface Candidate {
  serverId: string;
  tool: McpTool;
}

class MapToolSet implements ToolSet {
  readonly entries: readonly ToolSetEntry[];
  readonly #byExposedName: ReadonlyMap<string, ToolSetEntry>;
  readonly #byServer: ReadonlyMap<string, ReadonlyMap<string, ToolSetEntry>>;

  constructor(entries: readonly ToolSetEntry[]) {
    this.entries = Object.freeze([...entries]);
    this.#byExposedName = new Map(entries.map((entry) => [entry.exposedName, entry]));
    const byServer = new Map<string, Map<string, ToolSetEntry>>();
    for (const entry of entries) {
      const tools = byServer.get(entry.serverId) ?? new Map<string, ToolSetEntry>();
      tools.set(entry.tool.name, entry);
      byServer.set(entry.serverId, tools);
    }
    this.#byServer = byServer;
  }

  resolve(exposedName: string): ToolSetEntry | undefined {
    return this.#byExposedName.get(exposedName);
  }

  exposedName(serverId: string, toolName: string): string | undefined {
    return this.#byServer.get(serverId)?.get(toolName)?.exposedName;
  }
}

/** Throws INVALID_INPUT unless `servers` is a list of `{serverId: string, tools: unknown[]}` with distinct ids. */
function checkServers(servers: unknown): asserts servers is readonly ServerTools[] {
  if (!Array.isArray(servers)) {
    throw new GeminiMcpError('INVALID_INPUT', 'buildToolSet takes a list of {serverId, tools}');
  }
  const seen = new Set<string>();
  servers.forEach((server: unknown, index) => {
    if (
      !isJsonObject(server) ||
      typeof server.serverId !== 'string' ||
      !Array.isArray(server.tools)
    ) {
      throw new GeminiMcpError(
        'INVALID_INPUT',
        `servers[${index}] is not {serverId: string, tools: unknown[]}`,
        { path: `/${index}` },
      );
    }
    if (isReservedServerId(server.serverId)) {
      throw new GeminiMcpError(
        'INVALID_INPUT',
        `Server id "${server.serverId}" takes gemini-mcp-kit's reserved namespace (${RESERVED_PREFIX}): name the server otherwise`,
        {
          path: `/${index}/serverId`,
          data: { expected: `a server id other than "${RESERVED_SERVER_ID}"` },
        },
      );
    }
    if (seen.has(server.serverId)) {
      throw new GeminiMcpError('INVALID_INPUT', `Server id "${server.serverId}" appears twice`, {
        path: `/${index}/serverId`,
      });
    }
    seen.add(server.serverId);
  });
}

/** Per tool as a tool set snapshotted it (frozen), the fields that hide text, as its walk found. */
const hiddenTextFields = new WeakMap<McpTool, readonly string[]>();

/**
 * Whether `field` of `tool` is known free of hidden text: `tool` is a tool as a tool set
 * snapshotted it (frozen: it cannot change) and no string or property name in that field holds
 * an invisible character, as the snapshot's walk found. There is then nothing to remove from
 * it, nor from a schema's openapi conversion, whose strings are the schema's own (whole, or
 * descriptions joined by blank lines), numbers written out and the converter's words.
 */
export function freeOfHiddenText(
  tool: McpTool,
  field: 'description' | 'inputSchema' | 'outputSchema',
): boolean {
  const fields = hiddenTextFields.get(tool);
  return fields !== undefined && !fields.includes(field);
}

/**
 * The server's tools that pass the MCP Tool schema's read contract, each as a frozen deep copy
 * the tool set owns (so declarations can share it and nobody can change it under them; equal
 * leaves shared through `leaves`), with the fields its walk found hiding text; the others become warnings, and so does each
 * novelty the read contract tolerated.
 */
function validTools(
  server: ServerTools,
  leaves: SharedLeaves,
  warnings: ToolSetWarning[],
): McpTool[] {
  const valid: McpTool[] = [];
  server.tools.forEach((tool, index) => {
    const name = isJsonObject(tool) && typeof tool.name === 'string' ? tool.name : undefined;
    const leftOut = (why: string, data: Record<string, unknown>): void => {
      warnings.push({
        code: 'TOOL_INVALID',
        serverId: server.serverId,
        ...(name === undefined ? {} : { toolName: name }),
        message: `Tool ${name === undefined ? `#${index}` : `"${name}"`} of server "${server.serverId}" ${why}; left out`,
        data: { index, ...data },
      });
    };
    let snapshot: unknown;
    let fieldsWithHiddenText: readonly string[];
    try {
      ({ value: snapshot, fieldsWithHiddenText } = frozenSnapshot(tool, leaves));
    } catch (error) {
      if (!(error instanceof GeminiMcpError)) throw error;
      leftOut(`cannot be read (${error.message})`, {});
      return;
    }
    const { violations, notices } = readMcpTool(snapshot);
    const first = violations[0];
    if (first === undefined) {
      const read = snapshot as McpTool;
      valid.push(read);
      hiddenTextFields.set(read, fieldsWithHiddenText);
      if (notices.length > 0) {
        warnings.push({
          code: 'TOOL_NOVELTY',
          serverId: server.serverId,
          ...(name === undefined ? {} : { toolName: name }),
          message: `Tool ${name === undefined ? `#${index}` : `"${name}"`} of server "${server.serverId}" holds what no known MCP version defines: ${notices.map((n) => `${n.path} ${n.message}`).join('; ')}; kept`,
          data: { index, notices },
        });
      }
    } else {
      leftOut(`fails the MCP Tool schema at "${first.path}" (${first.message})`, { violations });
    }
  });
  return valid;
}

/** The tools the server's filter lets through; names the filter mentions but the server lacks become warnings. */
function filtered(
  serverId: string,
  tools: readonly McpTool[],
  filter: ToolFilter | undefined,
  warnings: ToolSetWarning[],
): McpTool[] {
  if (filter === undefined) return [...tools];
  const present = new Set(tools.map((tool) => tool.name));
  for (const [list, names] of [
    ['include', filter.include ?? []],
    ['exclude', filter.exclude ?? []],
  ] as const) {
    for (const name of names.filter((listed) => !present.has(listed))) {
      warnings.push({
        code: 'FILTER_UNMATCHED',
        serverId,
        toolName: name,
        message: `The ${list} filter of server "${serverId}" names "${name}", which the server does not list`,
      });
    }
  }
  const include = filter.include === undefined ? undefined : new Set(filter.include);
  const exclude = new Set(filter.exclude ?? []);
  return tools.filter(
    (tool) => (include === undefined || include.has(tool.name)) && !exclude.has(tool.name),
  );
}

/** The tools whose name the server lists once; every copy of a repeated name becomes a warning. */
function uniqueTools(serverId: string, tools: readonly McpTool[], warnings: ToolSetWarning[]) {
  const counts = new Map<string, number>();
  for (const tool of tools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  for (const [name, count] of counts) {
    if (count < 2) continue;
    warnings.push({
      code: 'TOOL_DUPLICATE',
      serverId,
      toolName: name,
      message: `Server "${serverId}" lists tool "${name}" ${count} times; all copies left out`,
      data: { count },
    });
  }
  return tools.filter((tool) => counts.get(tool.name) === 1);
}

function filterFor(options: BuildToolSetOptions, serverId: string): ToolFilter | undefined {
  const filters = options.filters;
  return filters !== undefined && Object.hasOwn(filters, serverId) ? filters[serverId] : undefined;
}

function unmatchedFilterServers(
  options: BuildToolSetOptions,
  servers: readonly ServerTools[],
): ToolSetWarning[] {
  const known = new Set(servers.map((server) => server.serverId));
  return Object.keys(options.filters ?? {})
    .filter((serverId) => !known.has(serverId))
    .map((serverId) => ({
      code: 'FILTER_UNMATCHED' as const,
      serverId,
      message: `A filter is given for server "${serverId}", which is not in the list`,
    }));
}

function renameWarnings(entries: readonly ToolSetEntry[]): ToolSetWarning[] {
  return entries
    .filter((entry) => entry.exposedName !== entry.tool.name)
    .map((entry) => ({
      code: 'TOOL_RENAMED' as const,
      serverId: entry.serverId,
      toolName: entry.tool.name,
      message: `Tool "${entry.tool.name}" of server "${entry.serverId}" is exposed as "${entry.exposedName}"`,
      data: { exposedName: entry.exposedName },
    }));
}

/** Tools whose names look alike (same skeleton) but differ, across servers. */
function shadowWarnings(entries: readonly ToolSetEntry[]): ToolSetWarning[] {
  const bySkeleton = new Map<string, ToolSetEntry[]>();
  for (const entry of entries) {
    const skeleton = nameSkeleton(entry.tool.name);
    bySkeleton.set(skeleton, [...(bySkeleton.get(skeleton) ?? []), entry]);
  }
  const warnings: ToolSetWarning[] = [];
  for (const group of bySkeleton.values()) {
    for (const entry of group) {
      const shadows = group.filter(
        (other) => other.serverId !== entry.serverId && other.tool.name !== entry.tool.name,
      );
      if (shadows.length === 0) continue;
      const listed = shadows.map((other) => `"${other.tool.name}" of "${other.serverId}"`);
      warnings.push({
        code: 'TOOL_SHADOWS',
        serverId: entry.serverId,
        toolName: entry.tool.name,
        message: `Tool "${entry.tool.name}" of server "${entry.serverId}" looks like ${listed.join(', ')}; one may shadow the other`,
        data: {
          shadows: shadows.map((other) => ({
            serverId: other.serverId,
            toolName: other.tool.name,
            exposedName: other.exposedName,
          })),
        },
      });
    }
  }
  return warnings;
}

function parameterNameWarnings(entries: readonly ToolSetEntry[]): ToolSetWarning[] {
  return entries.flatMap((entry) =>
    unsafePropertyNames(entry.tool.inputSchema).map((property) => ({
      code: 'PARAMETER_NAME' as const,
      message: `Tool "${entry.tool.name}" of server "${entry.serverId}" has an input property named ${JSON.stringify(property.name)} (at "${property.path}"), which Gemini may refuse or misread`,
      path: property.path,
      serverId: entry.serverId,
      toolName: entry.tool.name,
      data: { property: property.name },
    })),
  );
}

/**
 * Gathers the tools of several MCP servers under exposed names that Gemini accepts for both
 * declarations and calls (`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`), unique across the set.
 *
 * - A valid name held by one tool only is kept as it is.
 * - Names held by several tools become `server__tool` for every one of them (`prefix`).
 * - Invalid characters become `_`; a leading digit or `-` gets a `_` in front; names over 64
 *   characters are cut and end in a hash of the (server, tool) identity. Names merged by
 *   sanitizing or cutting are told apart by such hashes: two tools never share a name.
 * - Names depend only on the set of tools, not on the order of servers or tools.
 * - Tools failing the MCP Tool schema, and every copy of a name a server lists twice, are
 *   left out with a warning; `filters` choose what each server exposes.
 * - A tool whose own name starts with another server's prefix (`fs__read_file` on server
 *   `evil`) never takes that namespace: it is exposed as `evil__fs__read_file` (left out with
 *   `prefix: 'never'`), with a TOOL_SHADOWS warning, whatever the order of servers.
 * - No exposed name is in gemini-mcp-kit's reserved namespace (`gmk__`, any case: its own
 *   functions): a tool named so is exposed under its server's prefix (`evil__gmk__search_tools`;
 *   left out with `prefix: 'never'`), with a TOOL_SHADOWS warning.
 * - Warnings also report renames, look-alike names across servers (one may shadow the other)
 *   and input property names Gemini may refuse.
 *
 * Throws INVALID_INPUT when `servers` is not a list of `{serverId, tools}` with distinct ids, or
 * a server id takes the reserved namespace (`gmk`), and NAME_COLLISION with `prefix: 'never'`
 * when servers share a tool name.
 *
 * @example
 * ```ts
 * const { toolset, warnings } = buildToolSet([
 *   { serverId: 'weather', tools: [{ name: 'forecast', inputSchema: { type: 'object' } }] },
 *   { serverId: 'files', tools: (await client.listTools()).tools },
 * ]);
 * toolset.resolve('forecast'); // { exposedName: 'forecast', serverId: 'weather', tool: {...} }
 * ```
 */
export function buildToolSet(
  servers: readonly ServerTools[],
  options: BuildToolSetOptions = {},
): BuildToolSetResult {
  checkServers(servers);
  const warnings: ToolSetWarning[] = unmatchedFilterServers(options, servers);
  // The tools' snapshots share their equal leaves (one `{"type": "string"}` for the whole set).
  const leaves = new SharedLeaves();
  const all: Candidate[] = servers.flatMap((server) => {
    const valid = validTools(server, leaves, warnings);
    const chosen = filtered(server.serverId, valid, filterFor(options, server.serverId), warnings);
    return uniqueTools(server.serverId, chosen, warnings).map((tool) => ({
      serverId: server.serverId,
      tool,
    }));
  });
  const prefix = options.prefix ?? 'on-collision';
  // The reserved namespace is guarded as a server's is: a tool named gmk__... is renamed.
  const serverIds = [...servers.map((server) => server.serverId), RESERVED_SERVER_ID];
  const candidates = all.filter((candidate) => {
    const claimed = claimedServer(
      { serverId: candidate.serverId, toolName: candidate.tool.name },
      serverIds,
    );
    if (claimed === undefined) return true;
    const { serverId, tool } = candidate;
    const outcome =
      prefix === 'never'
        ? "it is left out (prefix 'never' cannot rename it)"
        : "it is exposed under its own server's prefix instead";
    const whose =
      claimed === RESERVED_SERVER_ID
        ? `gemini-mcp-kit's reserved prefix (${RESERVED_PREFIX})`
        : `server "${claimed}"'s prefix`;
    warnings.push({
      code: 'TOOL_SHADOWS',
      serverId,
      toolName: tool.name,
      message: `Tool "${tool.name}" of server "${serverId}" is named with ${whose}; ${outcome}`,
      data: { claimedServerId: claimed, leftOut: prefix === 'never' },
    });
    return prefix !== 'never';
  });
  const names = assignExposedNames(
    candidates.map(({ serverId, tool }) => ({ serverId, toolName: tool.name })),
    prefix,
    serverIds,
  );
  const entries = candidates.map(({ serverId, tool }, index) =>
    Object.freeze({ exposedName: names[index]!, serverId, tool }),
  );
  const reserved = entries.find((entry) => isReservedName(entry.exposedName));
  if (reserved !== undefined) {
    throw new GeminiMcpError(
      'CONTRACT_VIOLATION',
      `Tool "${reserved.tool.name}" of server "${reserved.serverId}" would be exposed as "${reserved.exposedName}", in the reserved namespace ${RESERVED_PREFIX}`,
    );
  }
  warnings.push(
    ...renameWarnings(entries),
    ...shadowWarnings(entries),
    ...parameterNameWarnings(entries),
  );
  return { toolset: new MapToolSet(entries), warnings };
}
