/**
 * The configuration files of test/fixtures/configs/, as each client writes them, placed into a
 * workspace with this machine's places filled in.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'configs');

/** Each fixture and where its client keeps it, relative to the workspace. */
export const CONFIG_FILES = [
  ['claude_desktop_config.json', 'claude_desktop_config.json'],
  ['cursor-mcp.json', '.cursor/mcp.json'],
  ['vscode-mcp.json', '.vscode/mcp.json'],
  ['gemini-cli-settings.json', '.gemini/settings.json'],
] as const;

/** Where the fixtures' places are on this machine. */
export interface Places {
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
export async function placeConfig(fixture: string, at: string, places: Places): Promise<string> {
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
