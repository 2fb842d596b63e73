/**
 * The plug point for client capabilities: a feature (elicitation, roots, sampling, ...) names
 * the capabilities it declares and registers its handlers for requests servers send. Both must
 * happen before `Client.connect`: the initialize request carries the capabilities, and the SDK
 * refuses a handler for a capability that was not declared. A client gets only the features
 * configured for its server, so only those capabilities are advertised.
 */
import {
  type AnyObjectSchema,
  type SchemaOutput,
  safeParse,
} from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { ClientCapabilities, ClientResult } from '@modelcontextprotocol/sdk/types.js';
import { answerInputRequestsWith } from '../input-required.js';
import type { McpClientWithHandlers } from '../mcp-client.js';

/** What a handler knows about the request it answers. */
export interface ServerRequestContext {
  /** The id of the server (its `mcpServers` key) that sent the request. */
  readonly serverId: string;
  /** Aborted when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
}

/** Registers typed handlers for requests a server sends to the client. */
interface ServerRequestRegistry {
  /** Answers requests matching `schema` (an SDK request schema, e.g. `ElicitRequestSchema`). */
  handle<S extends AnyObjectSchema>(
    schema: S,
    handler: (
      request: SchemaOutput<S>,
      context: ServerRequestContext,
    ) => ClientResult | Promise<ClientResult>,
  ): void;
}

/** One client capability: what it declares, and the handlers that answer its requests. */
export interface ClientFeature {
  /** Merged into the client's capabilities before it connects. */
  readonly capabilities: ClientCapabilities;
  /** Registers the feature's request handlers (called once per client, before it connects). */
  install(registry: ServerRequestRegistry): void;
}

/**
 * Declares each feature's capabilities on a not yet connected `client` and registers its
 * handlers; a handler gets the request, typed by its schema, with the server id and the
 * request's abort signal. On a v2 client the same handlers answer the input requests of
 * 2026-07-28 multi round-trip calls (`input_required`), which `executeToolCalls` fulfils within
 * its `inputRequired` limits.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'app', version: '1.0.0' });
 * equipClient(client, 'docs', [
 *   {
 *     capabilities: { roots: { listChanged: true } },
 *     install: (registry) => registry.handle(ListRootsRequestSchema, () => ({ roots: [] })),
 *   },
 * ]);
 * await client.connect(transport);
 * ```
 */
export function equipClient(
  client: McpClientWithHandlers,
  serverId: string,
  features: readonly ClientFeature[],
): void {
  for (const feature of features) client.registerCapabilities(feature.capabilities);
  const register = client.setRequestHandler.bind(client) as (
    schemaOrMethod: unknown,
    handler: (request: never, context: never) => unknown,
  ) => void;
  const modern = isV2Client(client);
  const registry: ServerRequestRegistry = {
    handle(schema, handler) {
      if (modern) {
        // v2 registers by method name, validates the request itself and hands `ctx.mcpReq`.
        const method = methodOf(schema);
        register(method, (request: SchemaOutput<typeof schema>, ctx: V2Context) =>
          handler(request, { serverId, signal: ctx.mcpReq.signal }),
        );
        // On 2026-07-28 the same requests arrive inside `input_required` results.
        answerInputRequestsWith(
          client,
          serverId,
          method,
          (request) => safeParse(schema, request),
          handler,
        );
      } else {
        register(schema, (request: SchemaOutput<typeof schema>, extra: { signal: AbortSignal }) =>
          handler(request, { serverId, signal: extra.signal }),
        );
      }
    },
  };
  for (const feature of features) feature.install(registry);
}

/** What a v2 (`@modelcontextprotocol/client`) handler is given beside the request. */
interface V2Context {
  mcpReq: { signal: AbortSignal };
}

/** Whether `client` is the v2 SDK's `Client` (`@modelcontextprotocol/client`), which knows protocol eras. */
function isV2Client(client: McpClientWithHandlers): boolean {
  return typeof (client as { getProtocolEra?: unknown }).getProtocolEra === 'function';
}

/** The method a v1 request schema matches (its `method` literal). */
function methodOf(schema: AnyObjectSchema): string {
  return (schema as unknown as { shape: { method: { value: string } } }).shape.method.value;
}
