/**
 * Lists the tools of real MCP servers (the devDependencies server-everything, server-filesystem
 * and server-memory), spawned over stdio with the SDK's own client, so tests exercise the tool
 * lists those servers really publish rather than pasted copies.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** One real server's tool list, as `tools/list` returned it (every page). */
export interface RealServerTools {
  serverId: string;
  tools: unknown[];
}

interface RealServer {
  serverId: string;
  packageName: string;
  args: (workDir: string) => string[];
  env: (workDir: string) => Record<string, string>;
}

const REAL_SERVERS: readonly RealServer[] = [
  {
    serverId: 'everything',
    packageName: '@modelcontextprotocol/server-everything',
    args: () => ['stdio'],
    env: () => ({}),
  },
  {
    serverId: 'filesystem',
    packageName: '@modelcontextprotocol/server-filesystem',
    args: (workDir) => [workDir],
    env: () => ({}),
  },
  {
    serverId: 'memory',
    packageName: '@modelcontextprotocol/server-memory',
    args: () => [],
    env: (workDir) => ({ MEMORY_FILE_PATH: join(workDir, 'memory.jsonl') }),
  },
];

const require = createRequire(import.meta.url);

/** The absolute path of a server package's `bin` script. */
function binPath(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = require(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  if (bin === undefined) throw new Error(`${packageName} declares no bin`);
  return join(dirname(manifestPath), bin);
}

/** The environment a spawned server inherits: PATH and HOME only, plus its own variables. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'SYSTEMROOT', 'TMPDIR']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

async function listAllTools(client: Client): Promise<unknown[]> {
  const tools: unknown[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

async function listServerTools(server: RealServer, workDir: string): Promise<RealServerTools> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath(server.packageName), ...server.args(workDir)],
    env: { ...baseEnv(), ...server.env(workDir) },
    cwd: workDir,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'gemini-mcp-tests', version: '0.0.0' });
  await client.connect(transport);
  try {
    return { serverId: server.serverId, tools: await listAllTools(client) };
  } finally {
    await client.close();
  }
}

/**
 * Spawns server-everything, server-filesystem (rooted in a fresh temp dir) and server-memory
 * over stdio, lists every tool of each (following `nextCursor`), closes them and removes the
 * temp dir. The tools are returned exactly as the servers sent them.
 *
 * @example
 * ```ts
 * const servers = await listRealServerTools();
 * const { toolset } = buildToolSet(servers);
 * ```
 */
export async function listRealServerTools(): Promise<RealServerTools[]> {
  const workDir = await mkdtemp(join(tmpdir(), 'gemini-mcp-real-servers-'));
  try {
    return await Promise.all(REAL_SERVERS.map((server) => listServerTools(server, workDir)));
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
