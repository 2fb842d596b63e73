/** The shapes of a tool set: its entries, the options that build it, the warnings it reports. */
import type { Warning } from '../../errors.js';
import type { McpTool } from '../../generated/types.js';
import type { PrefixMode } from './names.js';

/** One exposed tool. */
export interface ToolSetEntry {
  /**
   * The name Gemini sees and calls: a letter or `_`, then up to 63 letters, digits, `_` or `-`
   * (`/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/`).
   */
  readonly exposedName: string;
  /** The id of the MCP server that owns the tool. */
  readonly serverId: string;
  /** The tool as the server listed it. */
  readonly tool: McpTool;
}

/**
 * The tools of several MCP servers under unique exposed names. `resolve` and `exposedName`
 * are exact inverses over `entries`.
 */
export interface ToolSet {
  /** Every exposed tool, servers in the order given, each server's tools in its own order. */
  readonly entries: readonly ToolSetEntry[];
  /** The entry Gemini means by `exposedName`, or `undefined`. */
  resolve(exposedName: string): ToolSetEntry | undefined;
  /** The name `toolName` of `serverId` is exposed under, or `undefined` when it is not exposed. */
  exposedName(serverId: string, toolName: string): string | undefined;
}

/** One server's tools, as `tools/list` returned them (every page). */
export interface ServerTools {
  /** The id the caller knows the server by (a key of its `mcpServers` config). */
  readonly serverId: string;
  /** The tools, unchecked: each is validated against the MCP Tool schema. */
  readonly tools: readonly unknown[];
}

/** Which tools of one server to expose. */
export interface ToolFilter {
  /** Only these tool names (default: all). */
  readonly include?: readonly string[];
  /** Never these tool names (applied after `include`). */
  readonly exclude?: readonly string[];
}

/** Options of `buildToolSet`. */
export interface BuildToolSetOptions {
  /**
   * `'on-collision'` (default): a name held by several tools becomes `server__tool` for all of
   * them; `'always'`: every name is `server__tool`; `'never'`: a tool name present on several
   * servers throws NAME_COLLISION.
   */
  readonly prefix?: PrefixMode;
  /** Per-server include/exclude lists, keyed by server id. */
  readonly filters?: Readonly<Record<string, ToolFilter>>;
}

/** What a {@link ToolSetWarning} is about. */
export type ToolSetWarningCode =
  /** A tool fails the MCP Tool schema (its read contract) and is left out. */
  | 'TOOL_INVALID'
  /**
   * A tool holds what no known MCP version defines (an enum value newer than them): it is kept
   * as it came; `data.notices` says where.
   */
  | 'TOOL_NOVELTY'
  /** A server lists one tool name more than once; every copy is left out. */
  | 'TOOL_DUPLICATE'
  /**
   * A tool's `x-mcp-header` annotations break MCP 2026-07-28's rules (SEP-2243) on a Streamable
   * HTTP connection of that revision: it is left out; `data.reason` says why.
   */
  | 'TOOL_HEADER_INVALID'
  /** A tool is exposed under a name other than its own. */
  | 'TOOL_RENAMED'
  /**
   * A tool's name looks like another server's tool (case, accents, look-alike letters), or
   * starts with another server's prefix (`fs__...` on server `evil`; then `data.claimedServerId`).
   */
  | 'TOOL_SHADOWS'
  /** An input property name Gemini may refuse. */
  | 'PARAMETER_NAME'
  /** A filter names a server or tool that does not exist. */
  | 'FILTER_UNMATCHED';

/** Something `buildToolSet` changed or left out, for the user to see. */
export interface ToolSetWarning extends Warning<ToolSetWarningCode> {
  readonly serverId: string;
  /** The tool concerned, as the server names it (when one is). */
  readonly toolName?: string;
  /** For `PARAMETER_NAME`: the JSON pointer of the property's schema inside the tool's inputSchema. */
  readonly path?: string;
  /** Code-specific facts: `exposedName`, `violations`, `shadows`, `property`, ... */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** The result of `buildToolSet`. */
export interface BuildToolSetResult {
  readonly toolset: ToolSet;
  readonly warnings: readonly ToolSetWarning[];
}
