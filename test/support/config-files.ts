/**
 * The configuration files of test/fixtures/configs/, as each client writes them, placed into a
 * workspace with this machine's places filled in.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  type RunningHttpServer,
  startSseServer,
  startStreamableHttpServer,
} from './http-servers.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'configs');

/** Each fixture and where its client keeps it, relative to the workspace. */
export const CONFIG_FILES = [
  ['claude_desktop_config.json', 'claude_desktop_config.json'],
  ['cursor-mcp.json', '.cursor/mcp.json'],
  ['vscode-mcp.json', '.vscode/mcp.json'],
  ['gemini-cli-settings.json', '.gemini/settings.json'],
] as const;

/**
 * JSONC fixtures (comments, trailing commas), each starting the example server from this
 * repository's source, and where their clients keep them.
 */
export const JSONC_FILES = [
  ['jsonc/vscode-mcp.json', 'jsonc/.vscode/mcp.json'],
  ['jsonc/gemini-cli-settings.json', 'jsonc/.gemini/settings.json'],
] as const;

/** A JSONC fixture with a missing comma at line 7, column 7 (in `/servers/example`). */
export const MISSING_COMMA = [
  'jsonc/vscode-mcp-missing-comma.json',
  'broken/.vscode/mcp.json',
] as const;

/** Where the fixtures' places are on this machine. */
interface Places {
  workspace: string;
  /** Origin of the Streamable HTTP server (the files say http://localhost:3000). */
  streamable: string;
  /** Origin of the SSE server (the files say http://localhost:3001). */
  sse: string;
}

/**
 * Writes `fixture` to `at` in the workspace: the user's folders become the workspace (the
 * project, where npx finds the servers, is this repository), localhost:3000 and :3001 the
 * test's HTTP servers. Returns the file's path.
 */
async function placeConfig(fixture: string, at: string, places: Places): Promise<string> {
  const text = (await readFile(join(FIXTURES, fixture), 'utf8'))
    .replaceAll('/Users/username/Desktop', places.workspace)
    .replaceAll('/Users/username/project', ROOT)
    .replaceAll('http://localhost:3000', places.streamable)
    .replaceAll('http://localhost:3001', places.sse);
  const path = join(places.workspace, at);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return path;
}

/** A workspace and the HTTP servers the fixtures name, running. */
export interface ConfigWorld {
  readonly workspace: string;
  readonly streamable: RunningHttpServer;
  readonly sse: RunningHttpServer;
  /** The variables the fixtures read: REMOTE_TOKEN (`t0k`) and PROJECT_DIR (the workspace). */
  readonly env: Record<string, string>;
  /** Writes a fixture where its client keeps it (see {@link placeConfig}); returns its path. */
  place(fixture: string, at: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the Streamable HTTP and SSE servers and makes a workspace (with the `.env` the VS Code
 * fixture's `envFile` names).
 */
export async function openConfigWorld(): Promise<ConfigWorld> {
  const streamable = await startStreamableHttpServer();
  const sse = await startSseServer();
  const workspace = await mkdtemp(join(tmpdir(), 'gemini-mcp-configs-'));
  await writeFile(join(workspace, '.env'), `MEMORY_FILE_PATH=${join(workspace, 'memory.jsonl')}\n`);
  const places = { workspace, streamable: streamable.origin, sse: sse.origin };
  return {
    workspace,
    streamable,
    sse,
    env: { REMOTE_TOKEN: 't0k', PROJECT_DIR: workspace },
    place: (fixture, at) => placeConfig(fixture, at, places),
    async close() {
      await streamable.close();
      await sse.close();
      await rm(workspace, { recursive: true, force: true });
    },
  };
}
