/**
 * The shared vocabulary of the adapter and the runtime: a call the model made, the result an
 * MCP server returned, and the error that stands in for a result that could not be had.
 */
import type { McpCallToolResult, McpTool } from '../generated/types.js';

/**
 * A model's function call, resolved to the MCP tool it names. (Named apart from Gemini's own
 * `ToolCall`, a server-side tool call of the API.)
 */
export interface ResolvedCall {
  /** The id of the MCP server that owns the tool. */
  serverId: string;
  /** The tool's original MCP name, as the server knows it. */
  name: string;
  /** The name Gemini saw and called. */
  exposedName: string;
  /** The functionCall's `id`, or `null` when Gemini sent none. */
  callId: string | null;
  /** The call's arguments: always a plain object (`{}` when the model sent none). */
  arguments: Record<string, unknown>;
  /** The MCP tool the call resolved to, as the tool set holds it (its `outputSchema` checks results). */
  tool: McpTool;
}

/** A tool's result: an MCP `CallToolResult`. */
export type ToolResult = McpCallToolResult;

/** The codes a {@link ToolError} carries when gemini-mcp-kit made it. Servers' own codes pass through. */
export type ToolErrorCode =
  | 'TIMEOUT'
  | 'CANCELLED'
  | 'TRANSPORT'
  | 'CLIENT_CLOSED'
  | 'UNKNOWN_SERVER'
  | 'INVALID_RESULT'
  | 'OUTPUT_SCHEMA_MISMATCH'
  | 'PROTOCOL_ERROR'
  /** The approval hook (`onToolCall`) denied the call: it was not run. */
  | 'DENIED'
  /** The approval hook threw, gave no decision in time, or returned something that is none. */
  | 'APPROVAL_FAILED'
  /** The approval hook edited the arguments into ones that fail the tool's inputSchema. */
  | 'INVALID_EDIT'
  | 'INPUT_LIMIT'
  | 'INPUT_REFUSED';

/** A call that produced no result: timed out, cancelled, transport failure, unknown server, ... */
export interface ToolError {
  /** A {@link ToolErrorCode}, or a code the server gave. */
  code: ToolErrorCode | (string & {});
  /** What went wrong, in words the model can act on. */
  message: string;
  /** Anything else worth passing on (JSON-serialisable). */
  data?: unknown;
}

/** Tells a {@link ToolError} from a {@link ToolResult} (or from anything else: `false`). */
export function isToolError(value: unknown): value is ToolError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ToolError> & Partial<ToolResult>;
  return (
    typeof candidate.code === 'string' &&
    typeof candidate.message === 'string' &&
    !Array.isArray(candidate.content)
  );
}
