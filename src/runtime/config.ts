/**
 * The `mcpServers` configuration other MCP clients keep (Claude Desktop, Cursor, VS Code, the
 * Gemini CLI): read from an object or a JSON file, checked, and turned into typed entries.
 */

import { readFile } from 'node:fs/promises';
import { GeminiMcpError } from '../errors.js';
import { isJsonObject } from '../json/object.js';
import { checkOAuthSettings, type OAuthSettings } from './auth/settings.js';

/** A server started as a child process and spoken to over stdio. */
export interface StdioServerConfig {
  type?: 'stdio';
  command: string;
  args?: string[];
  /** Added to the SDK's safe default environment (PATH, HOME, ...). */
  env?: Record<string, string>;
  cwd?: string;
  /** Left out of the connection when `true`. */
  disabled?: boolean;
}

/** A server reached over Streamable HTTP. */
export interface HttpServerConfig {
  type?: 'http' | 'streamable-http' | 'streamableHttp';
  url: string;
  headers?: Record<string, string>;
  /** How to authorize with OAuth (gemini-cli's `oauth` section). */
  oauth?: OAuthSettings;
  /** Left out of the connection when `true`. */
  disabled?: boolean;
}

/** One entry of `mcpServers`. */
export type ServerConfig = StdioServerConfig | HttpServerConfig;

/** The configuration file's shape: `{"mcpServers": {"name": {...}}}`. */
export interface McpServersConfig {
  mcpServers: Record<string, ServerConfig>;
}

/** A checked, enabled entry, tagged with its transport. */
export type ServerEntry =
  | { serverId: string; transport: 'stdio'; config: StdioServerConfig }
  | { serverId: string; transport: 'http'; config: HttpServerConfig };

function fail(message: string, data: Record<string, unknown> = {}): never {
  throw new GeminiMcpError('CONFIG_INVALID', message, { data });
}

function checkStringRecord(value: unknown, where: string): void {
  if (value === undefined) return;
  if (!isJsonObject(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    fail(`${where} must be an object of strings`);
  }
}

function checkEntry(serverId: string, value: unknown): ServerEntry | undefined {
  const where = `mcpServers.${serverId}`;
  if (!isJsonObject(value)) fail(`${where} must be an object`, { serverId });
  if (value.disabled === true) return undefined;
  const { type } = value;
  if (typeof value.command === 'string' && value.url === undefined) {
    if (type !== undefined && type !== 'stdio') fail(`${where}: "command" needs type "stdio"`);
    const { args, cwd } = value;
    if (args !== undefined && !(Array.isArray(args) && args.every((a) => typeof a === 'string'))) {
      fail(`${where}.args must be an array of strings`, { serverId });
    }
    if (cwd !== undefined && typeof cwd !== 'string') fail(`${where}.cwd must be a string`);
    checkStringRecord(value.env, `${where}.env`);
    return { serverId, transport: 'stdio', config: value as unknown as StdioServerConfig };
  }
  if (typeof value.url === 'string' && value.command === undefined) {
    if (
      type !== undefined &&
      !['http', 'streamable-http', 'streamableHttp'].includes(String(type))
    ) {
      fail(`${where}: type ${JSON.stringify(type)} is not supported (stdio or Streamable HTTP)`, {
        serverId,
      });
    }
    if (!URL.canParse(value.url)) fail(`${where}.url is not a URL`, { serverId });
    checkStringRecord(value.headers, `${where}.headers`);
    checkOAuthSettings(value.oauth, `${where}.oauth`);
    return { serverId, transport: 'http', config: value as unknown as HttpServerConfig };
  }
  return fail(`${where} needs either "command" (stdio) or "url" (Streamable HTTP)`, { serverId });
}

/**
 * Checks an `mcpServers` configuration and returns its enabled entries, in the file's order.
 * Throws a `GeminiMcpError` with code `CONFIG_INVALID` naming the first bad entry.
 *
 * @example
 * ```ts
 * parseServersConfig({ mcpServers: { bitcoin: { command: 'npx', args: ['tsx', 'server.ts'] } } });
 * // [{serverId: 'bitcoin', transport: 'stdio', config: {command: 'npx', args: [...]}}]
 * ```
 */
export function parseServersConfig(config: unknown): ServerEntry[] {
  if (!isJsonObject(config) || !isJsonObject(config.mcpServers)) {
    fail('expected an object {"mcpServers": {"name": {...}}}');
  }
  return Object.entries(config.mcpServers).flatMap(([serverId, value]) => {
    const entry = checkEntry(serverId, value);
    return entry === undefined ? [] : [entry];
  });
}

/**
 * Reads an `mcpServers` JSON file and checks it like {@link parseServersConfig}.
 *
 * @example
 * ```ts
 * const entries = await readServersConfig('./mcp.json');
 * ```
 */
export async function readServersConfig(path: string): Promise<ServerEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new GeminiMcpError('CONFIG_INVALID', `cannot read ${path}`, { cause, data: { path } });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new GeminiMcpError('CONFIG_INVALID', `${path} is not JSON`, { cause, data: { path } });
  }
  return parseServersConfig(value);
}
