/**
 * The server configurations other MCP clients keep (Claude Desktop, Cursor, Claude Code,
 * VS Code, gemini-cli): read from an object or a file (JSON, or JSONC: comments and trailing
 * commas), told apart by shape, checked, and turned into typed entries.
 */

import { basename, dirname } from 'node:path';
import { GeminiMcpError } from '../../../errors.js';
import { appendPointer } from '../../../json/pointer.js';
import { FileRefusal, readRegularFile } from '../../../json/regular-file.js';
import { readEnvFile } from './env-file.js';
import { allowedRemoteVariables, locateServers, readEntry, UnknownKeys } from './formats.js';
import type { ConfigReadOptions, ConfigWarning, ServerEntry } from './types.js';
import { UnsetVariables } from './vars.js';

/** A configuration file larger than this is refused (read no further): 16 MiB. */
const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** The folder `${workspaceFolder}` means for a file: its folder, or the parent of `.vscode/` & co. */
function workspaceOf(path: string): string {
  const folder = dirname(path);
  return ['.vscode', '.cursor', '.gemini', '.claude'].includes(basename(folder))
    ? dirname(folder)
    : folder;
}

/**
 * Checks a server configuration (any format gemini-mcp-kit reads: see {@link ConfigReadOptions})
 * and returns its enabled entries, in the file's order, variables expanded. Throws a
 * `GeminiMcpError` with code `CONFIG_INVALID` and the JSON pointer of the first bad value as
 * `path` (the message quotes at most 200 characters of it); warnings (unknown keys, the first
 * five with a did-you-mean and the rest counted in one; ignored keys; unset variables, the first
 * five and the rest counted in one; environment values sent to a remote server, see
 * `allowRemoteVariables`) go to `options.onWarning`. An `envFile` is read when the servers are
 * connected.
 *
 * @example
 * ```ts
 * parseServersConfig({ mcpServers: { bitcoin: { command: 'npx', args: ['tsx', 'server.ts'] } } });
 * // [{serverId: 'bitcoin', pointer: '/mcpServers/bitcoin', transport: 'stdio', config: {...}}]
 * ```
 */
export function parseServersConfig(
  config: unknown,
  options: ConfigReadOptions = {},
): ServerEntry[] {
  const warn = options.onWarning ?? (() => undefined);
  const unknownKeys = new UnknownKeys(warn);
  const located = locateServers(config, options.format ?? 'auto', warn, unknownKeys);
  const ctx = {
    format: located.format,
    workspaceFolder: options.workspaceFolder ?? process.cwd(),
    env: options.env ?? process.env,
    inputs: located.inputs,
    warn,
    unknownKeys,
    unset: new UnsetVariables(warn),
    allowRemoteVariables: allowedRemoteVariables(config, options.allowRemoteVariables),
  };
  const entries = Object.entries(located.servers).flatMap(([serverId, value]) => {
    const entry = readEntry(serverId, value, appendPointer(located.pointer, serverId), ctx);
    return entry === undefined ? [] : [entry];
  });
  unknownKeys.finish();
  ctx.unset.finish();
  return entries;
}

/**
 * Reads a configuration file and checks it like {@link parseServersConfig}; `${workspaceFolder}`
 * is the file's folder (the parent of `.vscode/`, `.cursor/`, `.gemini/` or `.claude/`). Every
 * format may be JSONC, as VS Code and gemini-cli read their files: `//` and `/* *\/` comments,
 * trailing commas. Errors name the file, and the line and column of the bad value or the syntax
 * error (`file:7:9: /servers/fs: comma expected`; also in `data`: `file`, `line`, `column`); a
 * file nested deeper than 512 levels is refused before it is parsed, and so is one that is not a
 * regular file (a named pipe, a device: refused at once) or is over 16 MiB (read no further).
 *
 * @example
 * ```ts
 * const entries = await readServersConfig('.vscode/mcp.json', {
 *   onWarning: (w) => console.warn(`${w.path}: ${w.message}`),
 * });
 * ```
 */
export async function readServersConfig(
  path: string,
  options: ConfigReadOptions = {},
): Promise<ServerEntry[]> {
  let text: string;
  try {
    text = (await readRegularFile(path, MAX_CONFIG_BYTES)).toString('utf8');
  } catch (cause) {
    const reason = cause instanceof FileRefusal ? ` (${cause.message})` : '';
    throw new GeminiMcpError('CONFIG_INVALID', `cannot read ${path}${reason}`, {
      cause,
      data: { path },
    });
  }
  // The JSONC reader (and its parser) loads with the first file read, not with the library.
  const { parseConfigText, placeOfPointer } = await import('./jsonc.js');
  const value = parseConfigText(text, path);
  try {
    return parseServersConfig(value, {
      ...options,
      workspaceFolder: options.workspaceFolder ?? workspaceOf(path),
    });
  } catch (error) {
    if (!(error instanceof GeminiMcpError)) throw error;
    const place = error.path === undefined ? undefined : placeOfPointer(text, error.path);
    const at = place === undefined ? '' : `:${place.line}:${place.column}`;
    throw new GeminiMcpError(error.code, `${path}${at}: ${error.message}`, {
      cause: error,
      ...(error.path === undefined ? {} : { path: error.path }),
      data: { ...error.data, file: path, ...place },
    });
  }
}

/**
 * The entries with each `envFile` read into `env` (the entry's own `env` wins), for connecting.
 *
 * @example
 * ```ts
 * const ready = await withEnvFiles(parseServersConfig(config));
 * ```
 */
async function withEnvFiles(entries: readonly ServerEntry[]): Promise<ServerEntry[]> {
  return Promise.all(
    entries.map(async (entry) => {
      if (entry.transport !== 'stdio' || entry.config.envFile === undefined) return entry;
      const { envFile, ...config } = entry.config;
      const fromFile = await readEnvFile(envFile, appendPointer(entry.pointer, 'envFile'));
      return { ...entry, config: { ...config, env: { ...fromFile, ...config.env } } };
    }),
  );
}

/** Warnings collected while reading, and the entries. */
interface LoadedServers {
  entries: ServerEntry[];
  warnings: ConfigWarning[];
}

/**
 * A configuration (an object, a file path, or entries already checked) read, checked, and its
 * env files loaded: what `connectServers` connects.
 *
 * @example
 * ```ts
 * const { entries, warnings } = await loadServers('.vscode/mcp.json');
 * ```
 */
export async function loadServers(
  config: unknown,
  options: ConfigReadOptions = {},
): Promise<LoadedServers> {
  const warnings: ConfigWarning[] = [];
  const onWarning = (warning: ConfigWarning): void => {
    warnings.push(warning);
    options.onWarning?.(warning);
  };
  const entries =
    typeof config === 'string'
      ? await readServersConfig(config, { ...options, onWarning })
      : Array.isArray(config)
        ? (config as ServerEntry[])
        : parseServersConfig(config, { ...options, onWarning });
  return { entries: await withEnvFiles(entries), warnings };
}
