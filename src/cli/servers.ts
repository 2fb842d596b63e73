/**
 * Which MCP servers a command talks to: an `mcpServers` file (`--config`), `--server
 * name=command` entries, or, with neither, the bundled example server; then connected with the
 * runtime's `connectServers`, failures turned into one-line messages.
 */
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { BuildToolSetOptions } from '../adapter/toolset-types.js';
import { GeminiMcpError } from '../errors.js';
import type { McpServersConfig, ServerConfig } from '../runtime/config.js';
import { connectServers, type ServerConnections } from '../runtime/connect.js';
import type { SamplingOptions } from '../runtime/sampling.js';
import { cliAuth } from './auth.js';
import { CliError, describeFileError } from './cli-error.js';
import { type PromptIo, terminalElicitation } from './elicit-prompt.js';

/** The server options every server-using command takes. */
export interface ServerFlags {
  config?: string;
  server?: string[];
  timeout?: number;
}

/** Splits a command line into words: whitespace separates, '...' and "..." quote, \ escapes. */
function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let started = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += c;
      started = true;
    }
  }
  if (quote !== undefined) throw new CliError(`unclosed ${quote} in --server "${line}"`);
  if (started) words.push(word);
  return words;
}

/** `name=command arg...` as an `mcpServers` entry. */
function parseServerFlag(flag: string): [string, ServerConfig] {
  const at = flag.indexOf('=');
  const name = at === -1 ? '' : flag.slice(0, at).trim();
  const words = at === -1 ? [] : splitCommand(flag.slice(at + 1));
  const [command, ...args] = words;
  if (name === '' || command === undefined) {
    throw new CliError(`--server expects name=command [args...], got "${flag}"`);
  }
  if (/^https?:\/\//.test(command) && args.length === 0) return [name, { url: command }];
  return [name, { command, args }];
}

/** The bundled example server: dist/cli/example-server.js (or its .ts source under tsx). */
function exampleServer(): ServerConfig {
  const fromSource = import.meta.url.endsWith('.ts');
  const script = fileURLToPath(
    new URL(`./example-server.${fromSource ? 'ts' : 'js'}`, import.meta.url),
  );
  return {
    command: process.execPath,
    args: fromSource ? ['--import', 'tsx', script] : [script],
  };
}

async function readConfigFile(path: string): Promise<Record<string, ServerConfig>> {
  let text: string;
  try {
    if ((await stat(path)).isDirectory())
      throw new CliError(`${path}: is a directory, expected an mcpServers JSON file`);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(describeFileError(path, error));
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${path}: not JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const servers = (value as { mcpServers?: unknown } | null)?.mcpServers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new CliError(
      `${path}: expected {"mcpServers": {"name": {"command": ...} | {"url": ...}}}`,
    );
  }
  return servers as Record<string, ServerConfig>;
}

/** The `mcpServers` the flags name; the example server when they name none. */
async function serversConfig(
  flags: ServerFlags,
): Promise<{ config: McpServersConfig; example: boolean }> {
  const servers: Record<string, ServerConfig> = {};
  if (flags.config !== undefined) Object.assign(servers, await readConfigFile(flags.config));
  for (const flag of flags.server ?? []) {
    const [name, entry] = parseServerFlag(flag);
    servers[name] = entry;
  }
  if (flags.config === undefined && (flags.server ?? []).length === 0) {
    return { config: { mcpServers: { example: exampleServer() } }, example: true };
  }
  if (Object.keys(servers).length === 0) {
    throw new CliError(`${flags.config ?? 'the configuration'}: mcpServers is empty`);
  }
  return { config: { mcpServers: servers }, example: false };
}

function commandOf(config: McpServersConfig, message: string): string | undefined {
  const id = /server "([^"]+)"/.exec(message)?.[1];
  const entry = id === undefined ? undefined : config.mcpServers[id];
  return entry !== undefined && 'command' in entry ? entry.command : undefined;
}

/**
 * On Ctrl-C (SIGINT) or SIGTERM, closes the servers (each one's whole process group) and exits
 * 130 or 143, as a shell reports a process ended by that signal. A second signal while closing
 * ends the CLI at once. `close()` removes the handlers.
 */
function closeOnSignals(connections: ServerConnections): void {
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
    const handler = (): void => {
      const code = signal === 'SIGINT' ? 130 : 143;
      // The command may end on its own once its servers are gone: the exit code stays this one.
      process.once('exit', () => {
        process.exitCode = code;
      });
      void connections.close().finally(() => process.exit(code));
    };
    process.once(signal, handler);
    return { signal, handler };
  });
  const close = connections.close.bind(connections);
  connections.close = async () => {
    for (const { signal, handler } of handlers) process.off(signal, handler);
    await close();
  };
}

/**
 * Connects the servers (serving their sampling requests when `sampling` is given), turning
 * every failure into a one-line {@link CliError} (exit 2), and closes them on SIGINT or SIGTERM.
 * A server's request for input is asked on `io`'s terminal, or declined when it is none.
 */
export async function connect(
  flags: ServerFlags,
  toolSet: BuildToolSetOptions,
  io: PromptIo,
  sampling?: SamplingOptions,
): Promise<ServerConnections & { example: boolean }> {
  const { config, example } = await serversConfig(flags);
  try {
    const connections = await connectServers(config, {
      toolSet,
      capabilities: { elicitation: terminalElicitation(io) },
      auth: cliAuth(process.stderr),
      ...(flags.timeout === undefined ? {} : { timeoutMs: flags.timeout }),
      ...(sampling === undefined ? {} : { sampling }),
    });
    closeOnSignals(connections);
    return Object.assign(connections, { example });
  } catch (error) {
    if (!(error instanceof GeminiMcpError)) throw error;
    const cause = error.cause as NodeJS.ErrnoException | undefined;
    if (cause?.code === 'ENOENT') {
      const command = commandOf(config, error.message) ?? cause.path ?? 'the command';
      const id = /server "([^"]+)"/.exec(error.message)?.[1] ?? '?';
      throw new CliError(
        `server "${id}": command "${command}" not found (check its "command" and PATH)`,
        2,
        {
          cause: error,
        },
      );
    }
    if (/Connection closed/i.test(error.message)) {
      const id = /server "([^"]+)"/.exec(error.message)?.[1] ?? '?';
      throw new CliError(
        `server "${id}" exited before answering the MCP handshake (its own output above may say why)`,
        2,
        { cause: error },
      );
    }
    throw new CliError(error.message, 2, { cause: error });
  }
}
