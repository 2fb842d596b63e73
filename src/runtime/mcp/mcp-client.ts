/**
 * The MCP client that crosses gemini-mcp-kit's API, as a structural type: what our functions
 * call on it and nothing more. The `Client` of `@modelcontextprotocol/sdk` 1.x and the `Client`
 * of its successor `@modelcontextprotocol/client` 2.x both satisfy it, so an application passes
 * the client of whichever SDK it holds (one copy of it in the app), and gemini-mcp-kit never
 * imports that SDK for the type.
 */
import type { ZodType } from 'zod/v4';

/** A request as {@link McpClient.request} sends it. */
export interface McpRequest {
  method: string;
  params?: Record<string, unknown>;
}

/**
 * The per-request options gemini-mcp-kit gives: a timeout in ms, a signal that cancels,
 * (for a client whose input requests gemini-mcp-kit answers) `allowInputRequired`, which asks
 * the v2 SDK to hand a multi round-trip request's `input_required` result back (the v1 SDK
 * never receives one), and, for a v2 client on 2026-07-28, the request's `Mcp-Param-*`
 * headers (v1 has no use for them).
 */
export interface McpRequestOptions {
  timeout?: number;
  signal?: AbortSignal;
  allowInputRequired?: boolean;
  headers?: Readonly<Record<string, string>>;
}

/**
 * The transport of a connected client, as far as gemini-mcp-kit reads it: the handler the SDK
 * installed for the messages it receives (wrapped to read progress and malformed results as
 * they arrive). Typed loosely on purpose: each SDK types its messages its own way.
 */
export interface McpTransport {
  onmessage?: ((message: never, extra?: never) => void) | undefined;
}

/**
 * An MCP client, connected: what `listAllTools`, `executeToolCalls` (and everything that runs
 * calls: `answerCalls`, `runConversation`, `mcpCallableTool`) use. Both SDKs' `Client`
 * satisfies it.
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/client'; // or '@modelcontextprotocol/sdk/client/index.js'
 * const client: McpClient = new Client({ name: 'app', version: '1.0.0' });
 * ```
 */
export interface McpClient {
  /** Sends one request; the schema given lets any result through, as it came. */
  request(
    request: McpRequest,
    resultSchema: ZodType,
    options?: McpRequestOptions,
  ): Promise<unknown>;
  /** The transport, once connected. */
  readonly transport?: McpTransport | undefined;
  /** Hears the client's transport errors (gemini-mcp-kit chains its own reader in front). */
  onerror?: ((error: Error) => void) | undefined;
  close(): Promise<void>;
  /** What the server declared it offers (`prompts`, `resources`, `completions`, ...), once connected. */
  getServerCapabilities?():
    | { prompts?: unknown; resources?: unknown; completions?: unknown }
    | undefined;
  /** The `instructions` the server gave when it was reached, if any. */
  getInstructions?(): string | undefined;
}

/**
 * An MCP client not yet connected, able to declare capabilities and answer server requests:
 * what `serveSampling` equips. Both SDKs' `Client` satisfies it (v1 registers a handler by
 * request schema, v2 by method name; gemini-mcp-kit tells them apart).
 */
export interface McpClientWithHandlers extends McpClient {
  /** Merges capabilities into those the client declares (before it connects). */
  registerCapabilities(capabilities: Record<string, unknown>): void;
  /** Registers the handler of one server request (either SDK's signature). */
  setRequestHandler(schemaOrMethod: never, handler: never): void;
}
