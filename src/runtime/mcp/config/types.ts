/**
 * The shapes of the server configurations users keep for other MCP clients, and of the checked
 * entries gemini-mcp-kit connects.
 */
import type { ToolFilter } from '../../../adapter/tools/toolset-types.js';
import type { Warning } from '../../../errors.js';
import type { OAuthSettings } from '../auth/settings.js';

/**
 * Where a server runs: `'client'`, connected by gemini-mcp-kit and declared to the model as
 * functions; `'gemini'`, sent to the API as a `Tool.mcpServers` entry that Gemini calls itself
 * (Streamable HTTP with a public `https:` URL and static headers only; Gemini API only).
 */
export type RunOn = 'client' | 'gemini';

/** Fields every entry may carry, whatever its transport. */
interface CommonServerFields {
  /**
   * gemini-mcp-kit: where the server runs (default: `connectServers`' `runOn`, else
   * `'client'`). `"gemini"` here moves it even when only its filters would keep it, and a server
   * that cannot run there (stdio, sse, OAuth, a client capability, a private host) is refused.
   */
  runOn?: RunOn;
  /** Left out of the connection when `true`. */
  disabled?: boolean;
  /** Only these tool names of the server are exposed (gemini-cli's allow list; exact names). */
  includeTools?: string[];
  /** These tool names of the server are never exposed (applied after `includeTools`). */
  excludeTools?: string[];
  /**
   * gemini-cli: the limit, in milliseconds, for connecting to this server and listing its tools
   * (read in gemini-cli settings only; other clients use other units).
   */
  timeout?: number;
  /**
   * gemini-cli's key: the server is trusted, so its tools' annotations (read-only, destructive,
   * open world) are believed by the approval policies (`onToolCall`); given to the hook as
   * `trusted`. Default: not trusted.
   */
  trust?: boolean;
  /** A note for people: ignored. */
  description?: string;
}

/** A server started as a child process and spoken to over stdio. */
export interface StdioServerConfig extends CommonServerFields {
  type?: 'stdio';
  command: string;
  args?: string[];
  /** Added to the SDK's safe default environment (PATH, HOME, ...). */
  env?: Record<string, string>;
  /** VS Code, Cursor: a dotenv file whose variables are added too (`env` wins). */
  envFile?: string;
  cwd?: string;
}

/**
 * A server reached over HTTP. `type` `"sse"` is the legacy HTTP+SSE transport (protocol
 * 2024-11-05); `"http"` or no type is Streamable HTTP, falling back to SSE when the server
 * answers the first POST with a 4xx but 401 and 403 (as the MCP specification describes). In a
 * gemini-cli settings file a `url` without type is SSE.
 */
export interface HttpServerConfig extends CommonServerFields {
  type?: 'http' | 'streamable-http' | 'streamableHttp' | 'sse';
  url: string;
  headers?: Record<string, string>;
  /** How to authorize with OAuth (gemini-cli's `oauth` section). */
  oauth?: OAuthSettings;
}

/** gemini-cli: a server reached over Streamable HTTP (no fallback). */
export interface GeminiCliHttpServerConfig extends CommonServerFields {
  httpUrl: string;
  headers?: Record<string, string>;
  /** How to authorize with OAuth. */
  oauth?: OAuthSettings;
}

/** One server of a configuration file. */
export type ServerConfig = StdioServerConfig | HttpServerConfig | GeminiCliHttpServerConfig;

/**
 * The shape of Claude Desktop's, Cursor's, Claude Code's and gemini-cli's files:
 * `{"mcpServers": {"name": {...}}}` (other top-level keys of a settings file are left alone).
 */
export interface McpServersConfig {
  mcpServers: Record<string, ServerConfig>;
}

/** VS Code's `.vscode/mcp.json`: `{"servers": {"name": {...}}, "inputs": [...]}`. */
export interface VsCodeServersConfig {
  servers: Record<string, ServerConfig>;
  /** Prompted values (`${input:id}`): gemini-mcp-kit prompts for nothing and refuses them. */
  inputs?: unknown[];
}

/** Any configuration gemini-mcp-kit reads. */
export type ServersConfig = McpServersConfig | VsCodeServersConfig;

/** Which client wrote the file, as far as its shape tells. */
export type ConfigFormat = 'mcp-servers' | 'vscode' | 'gemini-cli';

/** What a {@link ConfigWarning} is about. */
export type ConfigWarningCode =
  /** A key no reader of this format knows (a misspelling, with a "did you mean"): ignored. */
  | 'UNKNOWN_KEY'
  /** A key other clients read that gemini-mcp-kit does not act on (`sandbox`, a non-array `inputs`, ...): ignored. */
  | 'KEY_IGNORED'
  /**
   * A variable (`${env:NAME}`, `${NAME}`, `$NAME`) that is not set, without a default: it expands
   * to `""`. The first five are warned about one by one, the rest in one count.
   */
  | 'VARIABLE_UNSET'
  /**
   * An environment variable's value goes to a remote server (not `localhost`, `127.0.0.1` or
   * `[::1]`) in its URL or a header: named with the server, once per variable and server,
   * unless the name is in `allowRemoteVariables`.
   */
  | 'VARIABLE_SENT_REMOTE'
  /**
   * A server moved to Gemini carries something there: a header holding an environment
   * variable's value (it goes to Google), or filters Gemini does not apply.
   */
  | 'SERVER_ON_GEMINI';

/** Something in a configuration that was read but deserves the user's eye. */
export interface ConfigWarning extends Warning<ConfigWarningCode> {
  /** JSON pointer to the place in the configuration (`/mcpServers/fs/evn`). */
  readonly path: string;
}

/** How a configuration is read. */
export interface ConfigReadOptions {
  /** The format; default `'auto'`: told by the shape (see the README's "Configuration files"). */
  format?: ConfigFormat | 'auto';
  /**
   * `${workspaceFolder}`. Default: the folder holding the file (its parent for a file in
   * `.vscode/`, `.cursor/` or `.gemini/`), or the current directory for an object.
   */
  workspaceFolder?: string;
  /** The environment `${env:NAME}` reads; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Receives each warning (unknown keys with a did-you-mean, ignored keys, unset variables). */
  onWarning?: (warning: ConfigWarning) => void;
  /**
   * Environment variables whose values may go to remote servers (in a URL or a header) without
   * a `VARIABLE_SENT_REMOTE` warning, e.g. `['GITHUB_TOKEN']`; added to the configuration's own
   * top-level `allowRemoteVariables` list. Default: none.
   */
  allowRemoteVariables?: readonly string[];
}

interface EntryFields {
  serverId: string;
  /** JSON pointer to the entry in its configuration. */
  pointer: string;
  /** The entry's `includeTools`/`excludeTools`, when it has either. */
  filter?: ToolFilter;
  /** The entry's own connect-and-list limit (gemini-cli `timeout`), in milliseconds. */
  timeoutMs?: number;
  /** Where the entry asks to run (its `runOn`), when it says. */
  runOn?: RunOn;
  /** The server is trusted (its `trust`): the approval hook is told so (`trusted`). */
  trust?: boolean;
}

/** A checked stdio entry: variables expanded, `envFile` absolute (read when connecting). */
export interface StdioServerEntry extends EntryFields {
  transport: 'stdio';
  config: Pick<StdioServerConfig, 'command' | 'args' | 'env' | 'envFile' | 'cwd'>;
}

/** A checked HTTP entry: `'http'` is Streamable HTTP, `'sse'` the legacy HTTP+SSE transport. */
export interface HttpServerEntry extends EntryFields {
  transport: 'http' | 'sse';
  config: { url: string; headers?: Record<string, string>; oauth?: OAuthSettings };
  /** Streamable HTTP that falls back to SSE on a 4xx (but 401, 403) to the first POST. */
  sseFallback?: boolean;
}

/** A checked, enabled entry, tagged with its transport. */
export type ServerEntry = StdioServerEntry | HttpServerEntry;
