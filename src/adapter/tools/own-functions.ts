/**
 * gemini-mcp-kit's own functions (the reserved namespace `gmk__`) beside a tool set: a request
 * offers them with the tools it declares, so the model's calls to them resolve, and are answered
 * by gemini-mcp-kit, never sent to a server.
 */
import type { ToolSet, ToolSetEntry } from './toolset-types.js';

/**
 * The tools a request offers the model: `own` (entries of the reserved server, first) and the
 * declared tool set. Each name resolves to its own entry; a server tool never takes a reserved
 * name (the tool set guards the prefix), so none is hidden.
 *
 * @example
 * ```ts
 * const offered = withOwnFunctions(declared, [SEARCH_TOOL_ENTRY]);
 * offered.resolve('gmk__search_tools'); // the search entry
 * ```
 */
export function withOwnFunctions(offered: ToolSet, own: readonly ToolSetEntry[]): ToolSet {
  if (own.length === 0) return offered;
  const byName = new Map(own.map((entry) => [entry.exposedName, entry]));
  return {
    entries: Object.freeze([...own, ...offered.entries]),
    resolve: (name) => byName.get(name) ?? offered.resolve(name),
    exposedName: (serverId, toolName) =>
      own.find((entry) => entry.serverId === serverId && entry.tool.name === toolName)
        ?.exposedName ?? offered.exposedName(serverId, toolName),
  };
}
