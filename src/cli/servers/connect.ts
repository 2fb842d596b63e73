/**
 * Which MCP servers a command talks to: a configuration file (`--config`: Claude Desktop,
 * Cursor, Claude Code, VS Code or gemini-cli), `--server name=command` entries, or, with
 * neither, the bundled example server; then connected with the runtime's `connectServers`,
 * failures turned into one-line messages, the servers' stderr kept for after the output.
 */
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { BuildToolSetOptions, ToolSetWarning } from '../../adapter/tools/toolset-types.js';
import { GeminiMcpError } from '../../errors.js';
import { appendPointer } from '../../json/pointer.js';
import { parseServersConfig, readServersConfig } from '../../runtime/mcp/config/index.js';
import type { RunOn, ServerConfig, ServerEntry } from '../../runtime/mcp/config/types.js';
import { connectServers, type ServerConnections } from '../../runtime/mcp/connect.js';
import type { ServerOptions } from '../../runtime/mcp/features/capabilities-config.js';
import type { SamplingOptions } from '../../runtime/mcp/features/sampling.js';
import { placeServers } from '../../runtime/mcp/server-side.js';
import { CliError, describeFileError } from '../cli-error.js';
import { shownMessage, shownPath, terminalSafe } from '../io.js';
import { cliAuth } from './auth.js';
import { terminalElicitation } from './elicit-prompt.js';
import { ServerLog } from './log.js';
import type { PromptIo } from './terminal-turns.js';
import { flagWarnings, toolFilters } from './tool-filters.js';

/** The server options every server-using command takes. */
export interface ServerFlags {
  config?: string;
  server?: string[];
  timeout?: number;
  /** Exact tool names, `TOOL` or `SERVER/TOOL`: only these are exposed. */
  include?: string[];
  /** Exact tool names, `TOOL` or `SERVER/TOOL`: never exposed. */
  exclude?: string[];
  /** Where the servers' stderr goes; default: stderr, after the command's output. */
  serverLog?: string;
  /** Where the servers whose entry does not say run (`tools --run-on`). */
  runOn?: RunOn;
  /** The servers whose instructions go into the system instruction (`chat --instructions`). */
  instructions?: string[];
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

/**
 * `name=command arg...` (stdio) or `name=http(s)://...` (Streamable HTTP, SSE on a 4xx) as a
 * checked entry. Taken as it is: the shell has expanded what it meant to, so no variables.
 */
function parseServerFlag(flag: string): ServerEntry {
  const at = flag.indexOf('=');
  const name = at === -1 ? '' : flag.slice(0, at).trim();
  const words = at === -1 ? [] : splitCommand(flag.slice(at + 1));
  const [command, ...args] = words;
  if (name === '' || command === undefined) {
    throw new CliError(`--server expects name=command [args...], got "${flag}"`);
  }
  const pointer = appendPointer('/mcpServers', name);
  if (/^https?:\/\//.test(command) && args.length === 0) {
    if (!URL.canParse(command)) throw new CliError(`--server ${name}: not a URL: ${command}`);
    return {
      serverId: name,
      pointer,
      transport: 'http',
      config: { url: command },
      sseFallback: true,
    };
  }
  return { serverId: name, pointer, transport: 'stdio', config: { command, args } };
}

/**
 * The bundled example server: dist/cli/example-server.js (or its .ts source under tsx), trusted
 * (it is this package's own code), so `chat` believes its tools' read-only annotations.
 */
function exampleServer(): ServerConfig {
  const fromSource = import.meta.url.endsWith('.ts');
  const script = fileURLToPath(
    new URL(`../example-server.${fromSource ? 'ts' : 'js'}`, import.meta.url),
  );
  return {
    command: process.execPath,
    args: fromSource ? ['--import', 'tsx', script] : [script],
    trust: true,
  };
}

/** The entries of a configuration file; its warnings added to `warnings` as lines. */
async function readConfigFile(path: string, warnings: string[]): Promise<ServerEntry[]> {
  try {
    if ((await stat(path)).isDirectory()) {
      throw new CliError(`${path}: is a directory, expected a server configuration file`);
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(describeFileError(path, error));
  }
  try {
    return await readServersConfig(path, {
      onWarning: (w) =>
        warnings.push(
          `[CONFIG] ${path}#${w.path === '' ? '' : shownPath(w.path)}: ${shownMessage(w.message)}`,
        ),
    });
  } catch (error) {
    if (!(error instanceof GeminiMcpError)) throw error;
    throw new CliError(error.message, 2, { cause: error });
  }
}

/** The servers the flags name (later ones replace earlier ones of the same name); the example server when they name none. */
async function serverEntries(
  flags: ServerFlags,
  warnings: string[],
): Promise<{ entries: ServerEntry[]; example: boolean }> {
  if (flags.config === undefined && (flags.server ?? []).length === 0) {
    return {
      entries: parseServersConfig({ mcpServers: { example: exampleServer() } }),
      example: true,
    };
  }
  const byId = new Map<string, ServerEntry>();
  if (flags.config !== undefined) {
    for (const entry of await readConfigFile(flags.config, warnings))
      byId.set(entry.serverId, entry);
  }
  for (const flag of flags.server ?? []) {
    const entry = parseServerFlag(flag);
    byId.set(entry.serverId, entry);
  }
  if (byId.size === 0) {
    throw new CliError(
      `${flags.config ?? 'the configuration'}: no servers (none, or all disabled)`,
    );
  }
  return { entries: [...byId.values()], example: false };
}

function commandOf(entries: readonly ServerEntry[], message: string): string | undefined {
  const id = /server "([^"]+)"/.exec(message)?.[1];
  const entry = entries.find((e) => e.serverId === id);
  return entry?.transport === 'stdio' ? entry.config.command : undefined;
}

/** The signals that end a command, and the exit code a shell reports for a process they end. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
type EndingSignal = keyof typeof SIGNAL_EXIT;

/**
 * While the servers are being connected: Ctrl-C (SIGINT) or SIGTERM aborts `signal`, which
 * closes every server started so far (see `connectServers`' `signal`); a second one ends the CLI
 * at once. `received` is the first signal; `dispose()` removes the handlers.
 */
function abortOnSignals(): {
  signal: AbortSignal;
  received(): EndingSignal | undefined;
  dispose(): void;
} {
  const controller = new AbortController();
  let received: EndingSignal | undefined;
  const handlers = (Object.keys(SIGNAL_EXIT) as EndingSignal[]).map((signal) => {
    const handler = (): void => {
      if (received !== undefined) process.exit(SIGNAL_EXIT[received]);
      received = signal;
      controller.abort(new Error(`${signal} received`));
    };
    process.on(signal, handler);
    return { signal, handler };
  });
  return {
    signal: controller.signal,
    received: () => received,
    dispose() {
      for (const { signal, handler } of handlers) process.off(signal, handler);
    },
  };
}

/**
 * On Ctrl-C (SIGINT) or SIGTERM, closes the servers (each one's whole process group) and exits
 * 130 or 143, as a shell reports a process ended by that signal. A second signal while closing
 * ends the CLI at once. `close()` removes the handlers.
 */
function closeOnSignals(connections: ServerConnections): void {
  const handlers = (Object.keys(SIGNAL_EXIT) as EndingSignal[]).map((signal) => {
    const handler = (): void => {
      const code = SIGNAL_EXIT[signal];
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

/** The connections a command uses, and what it shows besides its output. */
export type CliConnections = ServerConnections & {
  example: boolean;
  /** Warnings about the configuration file, one line each. */
  configLines: string[];
};

/**
 * Connects the servers (serving their sampling requests when `sampling` is given), turning
 * every failure into a one-line {@link CliError} (exit 2), and closes them on SIGINT or SIGTERM.
 * A server's request for input is asked on `io`'s terminal, or declined when it is none. Stdio
 * servers' stderr is kept and shown, prefixed by the server's name, when the connections are
 * closed (or when connecting fails), or written to `--server-log`.
 */
export async function connect(
  flags: ServerFlags,
  toolSet: BuildToolSetOptions,
  io: PromptIo,
  sampling?: SamplingOptions,
): Promise<CliConnections> {
  const { stderr } = io;
  const configLines: string[] = [];
  const { entries, example } = await serverEntries(flags, configLines);
  const serverIds = entries.map((e) => e.serverId);
  const include = flags.include ?? [];
  const exclude = flags.exclude ?? [];
  const filters =
    include.length + exclude.length === 0
      ? {}
      : { filters: toolFilters(include, exclude, serverIds) };
  const log = new ServerLog();
  const interrupt = abortOnSignals();
  let connections: ServerConnections;
  try {
    connections = await connectServers(entries, {
      toolSet: { ...toolSet, ...filters },
      onStderr: log.add,
      capabilities: { elicitation: terminalElicitation(io) },
      ...serverOptions(entries, flags),
      auth: cliAuth(process.stderr),
      signal: interrupt.signal,
      ...(flags.timeout === undefined ? {} : { timeoutMs: flags.timeout }),
      ...(sampling === undefined ? {} : { sampling }),
    });
  } catch (error) {
    await log.flush(stderr, flags.serverLog);
    const signal = interrupt.received();
    if (signal !== undefined) throw interrupted(signal, entries);
    throw startFailure(entries, error);
  } finally {
    // closeOnSignals takes over below, with no wait in between: no signal falls through.
    interrupt.dispose();
  }
  const close = connections.close.bind(connections);
  for (const warning of connections.configWarnings) {
    if (warning.code === 'SERVER_ON_GEMINI') {
      configLines.push(`[CONFIG] ${flags.config ?? ''}#${warning.path}: ${warning.message}`);
    }
  }
  const cli: CliConnections = Object.assign(connections, {
    example,
    configLines,
    async close() {
      await close();
      await log.flush(stderr, flags.serverLog);
    },
  });
  closeOnSignals(cli);
  if (include.length + exclude.length === 0) return cli;
  // The tool set's warnings, with those about unqualified flag names reduced.
  const current = Object.getOwnPropertyDescriptor(cli, 'warnings')?.get?.bind(cli);
  return Object.defineProperty(cli, 'warnings', {
    get: (): ToolSetWarning[] => flagWarnings(current?.() ?? [], include, exclude, serverIds),
  });
}

/**
 * Per-server options: `--instructions` opts servers in to their instructions (a name no entry
 * has is a usage error), `--run-on` moves some (see {@link serverSide}).
 */
function serverOptions(
  entries: readonly ServerEntry[],
  flags: ServerFlags,
): ReturnType<typeof serverSide> {
  const placed = serverSide(entries, flags.runOn);
  const ids = entries.map((entry) => entry.serverId);
  const opted = flags.instructions ?? [];
  const unknown = opted.filter((id) => !ids.includes(id));
  if (unknown.length > 0) {
    throw new CliError(
      `--instructions ${terminalSafe(unknown.join(', '))}: no such server (the servers are ${terminalSafe(ids.join(', '))})`,
    );
  }
  if (opted.length === 0) return placed;
  const given = placed.servers ?? {};
  const servers: Record<string, ServerOptions> = Object.fromEntries([
    ...Object.entries(given),
    ...opted.map((id) => [
      id,
      { ...(Object.hasOwn(given, id) ? given[id] : {}), instructions: true },
    ]),
  ]);
  return { ...placed, servers };
}

/**
 * With `--run-on`: where the servers run, and no terminal elicitation for those that can move
 * (the prompt is the CLI's own offer, not a need of the server; on Gemini nobody answers it).
 */
function serverSide(
  entries: readonly ServerEntry[],
  runOn: RunOn | undefined,
): { runOn?: RunOn; servers?: Record<string, ServerOptions> } {
  if (runOn === undefined) return {};
  const { placements } = placeServers(entries, { runOn, capable: new Set() });
  const moving = placements.filter((placement) => placement.runOn === 'gemini');
  return {
    runOn,
    servers: Object.fromEntries(
      moving.map(({ serverId }) => [serverId, { capabilities: { elicitation: false } }]),
    ),
  };
}

/** Connecting stopped by a signal: one line, the exit code a shell gives for the signal. */
function interrupted(signal: EndingSignal, entries: readonly ServerEntry[]): CliError {
  const what = signal === 'SIGINT' ? 'interrupted (Ctrl-C)' : 'terminated (SIGTERM)';
  return new CliError(
    `${what} while connecting to ${entries.length} server(s); every server started was stopped`,
    SIGNAL_EXIT[signal],
  );
}

/** A failure to connect as one line. */
function startFailure(entries: readonly ServerEntry[], error: unknown): unknown {
  if (!(error instanceof GeminiMcpError)) return error;
  const id = /server "([^"]+)"/.exec(error.message)?.[1] ?? '?';
  const cause = error.cause as NodeJS.ErrnoException | undefined;
  if (cause?.code === 'ENOENT') {
    const command = commandOf(entries, error.message) ?? cause.path ?? 'the command';
    return new CliError(
      `server "${id}": command "${command}" not found (check its "command" and PATH)`,
      2,
      { cause: error },
    );
  }
  if (/Connection closed/i.test(error.message)) {
    return new CliError(
      `server "${id}" exited before answering the MCP handshake (its own output above may say why)`,
      2,
      { cause: error },
    );
  }
  return new CliError(error.message, 2, { cause: error });
}
