/**
 * What the resource functions use of a connected MCP client, structurally, on both SDKs:
 * `request`, the server's capabilities, notification handlers (v1 registers one by zod schema,
 * v2 by method name) and, on a 2026-07-28 connection of v2's client, `subscriptions/listen`.
 */
import { literal, object, unknown, type ZodType } from 'zod/v4';
import type { McpClient } from '../mcp-client.js';

/** A `subscriptions/listen` stream of v2's client: what it agreed to, and how to end it. */
export interface ListenSubscription {
  close(): Promise<void>;
}

/** The resource capability a server declared. */
export interface ResourcesCapability {
  readonly subscribe?: boolean | undefined;
  readonly listChanged?: boolean | undefined;
}

/** A connected client as the resource functions use it (both SDKs' `Client` satisfies it). */
export interface ResourceClient extends McpClient {
  /** The capabilities the server declared (both SDKs). */
  getServerCapabilities?(): { resources?: ResourcesCapability | undefined } | undefined;
  /** Registers the one handler of a notification method (v1: by schema, v2: by method name). */
  setNotificationHandler?(schemaOrMethod: never, handler: never): void;
  /** v2 only: the era of the connection. */
  getProtocolEra?(): string | undefined;
  /** v2 only, on a 2026-07-28 connection: opens a `subscriptions/listen` stream. */
  listen?(
    filter: Record<string, unknown>,
    options?: { timeout?: number },
  ): Promise<ListenSubscription>;
}

/** The schema handed to `request`: anything passes, as it came (our read contract checks it). */
export const AS_RECEIVED: ZodType = unknown();

/** Whether `client` is v2's `Client` (`@modelcontextprotocol/client`), which knows protocol eras. */
function isV2Client(client: ResourceClient): boolean {
  return typeof client.getProtocolEra === 'function';
}

/** Whether the connection is on the 2026-07-28 protocol (v2's client, modern era). */
export function isModern(client: ResourceClient): boolean {
  return (
    isV2Client(client) &&
    client.getProtocolEra?.() === 'modern' &&
    typeof client.listen === 'function'
  );
}

/** The server's resources capability, when it declared one. */
export function resourcesCapability(client: ResourceClient): ResourcesCapability | undefined {
  const capabilities = client.getServerCapabilities?.();
  const resources = capabilities?.resources;
  return typeof resources === 'object' && resources !== null ? resources : undefined;
}

/**
 * Registers the handler of a server notification on either SDK's client: v2 by method name,
 * v1 by a schema of that method (params passed through as sent, checked by the handler).
 */
export function onServerNotification(
  client: ResourceClient,
  method: string,
  handler: (notification: { params?: unknown }) => void,
): void {
  const register = client.setNotificationHandler?.bind(client) as
    | ((schemaOrMethod: unknown, handler: (notification: { params?: unknown }) => void) => void)
    | undefined;
  if (register === undefined) return;
  if (isV2Client(client)) register(method, handler);
  else register(object({ method: literal(method), params: unknown().optional() }), handler);
}
