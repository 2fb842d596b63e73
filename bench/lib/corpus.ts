/**
 * The tool corpus: the tool lists the real MCP servers of the tests publish (server-everything,
 * server-filesystem, server-memory over stdio, listed once per run), replicated under new names
 * into larger sets spread over several server ids.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listRealServerTools, type RealServerTools } from '../../test/support/real-servers.js';

/** One server's tools as `buildToolSet` takes them. */
export interface CorpusServer {
  serverId: string;
  tools: Record<string, unknown>[];
}

/** The real servers' tools, listed over stdio, or read from `cacheFile` when it exists. */
export async function realTools(cacheFile: string): Promise<RealServerTools[]> {
  try {
    return JSON.parse(await readFile(cacheFile, 'utf8')) as RealServerTools[];
  } catch {
    const servers = await listRealServerTools();
    await writeFile(cacheFile, JSON.stringify(servers));
    return servers;
  }
}

/**
 * `count` tools over `serverCount` server ids: the real tools in turn, each copy deep-cloned and
 * renamed `<name>_<copy>` (unique across the set, so names are exposed unchanged and the
 * naming pass does its full work without collisions). Tool `i` goes to server `s<i % serverCount>`.
 */
export function replicate(
  real: readonly RealServerTools[],
  count: number,
  serverCount: number,
): CorpusServer[] {
  const flat = real.flatMap((server) => server.tools as Record<string, unknown>[]);
  if (flat.length === 0) throw new Error('the real servers listed no tools');
  const servers: CorpusServer[] = Array.from({ length: serverCount }, (_, index) => ({
    serverId: `s${index}`,
    tools: [],
  }));
  for (let i = 0; i < count; i++) {
    const base = flat[i % flat.length]!;
    const copy = structuredClone(base);
    copy.name = `${String(base.name)}_${Math.floor(i / flat.length)}`;
    servers[i % serverCount]!.tools.push(copy);
  }
  return servers;
}

/** Every tool of a corpus, in server order. */
export function allTools(servers: readonly CorpusServer[]): Record<string, unknown>[] {
  return servers.flatMap((server) => server.tools);
}

/** Writes a corpus to `dir/corpus-<count>.json` for child processes; returns the path. */
export async function writeCorpus(dir: string, servers: readonly CorpusServer[]): Promise<string> {
  const path = join(dir, `corpus-${allTools(servers).length}.json`);
  await writeFile(path, JSON.stringify(servers));
  return path;
}
