/**
 * The tool corpus: the tool lists of real public MCP servers, gathered by
 * bench/corpus/gather.ts into bench/corpus/tools.json (committed), one server id per package.
 * The memory figure also replicates those tools under new names into a larger set.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CorpusFile, readCorpus } from '../corpus/format.js';

/** One server's tools as `buildToolSet` takes them. */
export interface CorpusServer {
  serverId: string;
  tools: Record<string, unknown>[];
}

/** One tool of the corpus with where it comes from. */
export interface CorpusTool {
  /** `package/tool`, how the report names it. */
  readonly label: string;
  readonly serverId: string;
  readonly tool: Record<string, unknown>;
}

/** The committed corpus, as servers and as a flat list of tools. */
export interface Corpus {
  readonly file: CorpusFile;
  readonly servers: readonly CorpusServer[];
  readonly tools: readonly CorpusTool[];
}

/** A server id for a package name: `@scope/name` becomes `scope-name`. */
function serverIdOf(packageName: string): string {
  return packageName.replace(/^@/, '').replace(/[^A-Za-z0-9_-]+/g, '-');
}

/** Reads bench/corpus/tools.json (deep copies: figures may not alter the committed data). */
export function loadCorpus(): Corpus {
  const file = readCorpus();
  const servers: CorpusServer[] = file.servers.map((server) => ({
    serverId: serverIdOf(server.name),
    tools: structuredClone(server.tools) as Record<string, unknown>[],
  }));
  const tools: CorpusTool[] = servers.flatMap((server, index) =>
    server.tools.map((tool) => ({
      label: `${file.servers[index]!.name}/${String(tool.name)}`,
      serverId: server.serverId,
      tool,
    })),
  );
  if (tools.length === 0) throw new Error('bench/corpus/tools.json holds no tools');
  return { file, servers, tools };
}

/**
 * `count` tools over `serverCount` server ids: the corpus tools in turn, each copy deep-cloned
 * and renamed `<name>_<copy>`. Tool `i` goes to server `s<i % serverCount>`.
 */
export function replicate(corpus: Corpus, count: number, serverCount: number): CorpusServer[] {
  const flat = corpus.tools.map((entry) => entry.tool);
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

/** Writes servers to `dir/<name>.json` for child processes; returns the path. */
export async function writeServers(
  dir: string,
  name: string,
  servers: readonly CorpusServer[],
): Promise<string> {
  const path = join(dir, `${name}.json`);
  await writeFile(path, JSON.stringify(servers));
  return path;
}
