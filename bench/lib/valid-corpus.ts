/**
 * The corpus as the adapter figures use it: the tools `buildToolSet` accepts, renamed to their
 * exposed names (unique across the set, so an anchor that refuses duplicate names takes them
 * too), optionally without the tools whose openapi conversion is refused.
 */
import type { Built } from './built.js';
import type { CorpusServer } from './corpus.js';

/** The accepted tools of `servers` under their exposed names, one server per id. */
export function acceptedTools(lib: Built, servers: readonly CorpusServer[]): CorpusServer[] {
  const { toolset } = lib.buildToolSet(servers);
  const byServer = new Map<string, Record<string, unknown>[]>();
  for (const entry of toolset.entries) {
    const tools = byServer.get(entry.serverId) ?? [];
    tools.push({ ...(entry.tool as unknown as Record<string, unknown>), name: entry.exposedName });
    byServer.set(entry.serverId, tools);
  }
  return [...byServer].map(([serverId, tools]) => ({ serverId, tools }));
}

/** `servers` without the tools whose inputSchema `toGeminiParameters` refuses; and how many. */
export function openApiConvertible(
  lib: Built,
  servers: readonly CorpusServer[],
): { servers: CorpusServer[]; left: string[] } {
  const left: string[] = [];
  const kept = servers.map((server) => ({
    serverId: server.serverId,
    tools: server.tools.filter((tool) => {
      try {
        lib.toGeminiParameters(tool.inputSchema);
        return true;
      } catch {
        left.push(`${server.serverId}/${String(tool.name)}`);
        return false;
      }
    }),
  }));
  return { servers: kept, left };
}
