/**
 * Every server's resources and resource templates, kept current: listed at connect (servers
 * that declare the resources capability), listed again on `notifications/resources/list_changed`
 * (coalesced: one refresh running per server, at most one more owed), and the subscriptions to
 * single resources (`resources/subscribe` and `notifications/resources/updated`; on a 2026-07-28
 * connection of v2's client, a `subscriptions/listen` stream).
 */

import { GeminiMcpError } from '../../../errors.js';
import { readMcpResourceUpdatedNotificationParams } from '../../../generated/guards-mcp.js';
import type { McpResource, McpResourceTemplate } from '../../../generated/types.js';
import { checkTimeout } from '../../options.js';
import { CoalescedRounds } from '../coalesced-rounds.js';
import {
  type ListResourcesOptions,
  listServerResources,
  type ResourceListWarning,
  type ServerResourceLists,
} from './list.js';
import {
  AS_RECEIVED,
  isModern,
  type ListenSubscription,
  onServerNotification,
  type ResourceClient,
  resourcesCapability,
} from './resource-client.js';

/** A resource, with the server that publishes it: resources are namespaced per server. */
export interface ListedResource {
  readonly serverId: string;
  readonly resource: McpResource;
}

/** A resource template, with the server that publishes it. */
export interface ListedResourceTemplate {
  readonly serverId: string;
  readonly template: McpResourceTemplate;
}

/** What listeners hear after a server's resources were listed again (or failed to be). */
export type ResourcesChange =
  | {
      readonly serverId: string;
      readonly resources: readonly ListedResource[];
      readonly templates: readonly ListedResourceTemplate[];
    }
  /** The refresh failed; the previous lists stay. */
  | { readonly serverId: string; readonly error: unknown };

/** A `notifications/resources/updated` a subscription heard. */
export interface ResourceUpdate {
  readonly serverId: string;
  readonly uri: string;
}

/** Options of {@link ResourceCatalog.subscribe}. */
export interface SubscribeOptions {
  /** The server to subscribe on; needed only when several servers could hold the URI. */
  readonly serverId?: string;
  /** Limit of the subscribe request, in ms (default the connection's `timeoutMs`). */
  readonly timeoutMs?: number;
}

/**
 * Every connected server's resources and templates (`connections.resources`), kept current on
 * `resources/list_changed`, and subscriptions to single resources.
 */
export interface ResourceCatalog {
  /** Every server's resources, in configuration order, then each server's order. */
  readonly resources: readonly ListedResource[];
  /** Every server's resource templates, in the same order. */
  readonly templates: readonly ListedResourceTemplate[];
  /** What listing left out or could not do (malformed entries, caps, failed lists). */
  readonly warnings: readonly ResourceListWarning[];
  /** Lists one server's resources again (every server's when `serverId` is omitted). */
  refresh(serverId?: string): Promise<void>;
  /** Calls `listener` after each refresh `notifications/resources/list_changed` triggers; returns an unsubscribe. */
  onChange(listener: (change: ResourcesChange) => void): () => void;
  /**
   * Subscribes to one resource: `listener` hears each `notifications/resources/updated` the
   * server sends for `uri` (read with the generated MCP read contract; a malformed one is
   * dropped, a throw from the listener ignored). The first listener of a URI sends
   * `resources/subscribe` (on a 2026-07-28 connection: opens `subscriptions/listen` with
   * `resourceSubscriptions`); the returned function removes the listener, and the last one's
   * sends `resources/unsubscribe` (closes the stream). INVALID_INPUT when the server did not
   * declare `resources.subscribe`, or no single server can be told from the URI.
   */
  subscribe(
    uri: string,
    listener: (update: ResourceUpdate) => void,
    options?: SubscribeOptions,
  ): Promise<() => Promise<void>>;
}

/** Options of {@link openResourceCatalog}: how each list is read (timeout, signal, notices). */
type ResourceCatalogOptions = ListResourcesOptions;

/** The longest URI subscribed to, in characters. */
const MAX_SUBSCRIBED_URI = 8192;

/** One URI's subscription on one server: its listeners and how it was opened. */
interface Subscription {
  readonly listeners: Set<(update: ResourceUpdate) => void>;
  opened: Promise<ListenSubscription | undefined>;
}

/** The catalog over the servers that declared resources. */
class LiveResources implements ResourceCatalog {
  readonly #clients: ReadonlyMap<string, ResourceClient>;
  readonly #lists = new Map<string, ServerResourceLists>();
  readonly #listeners = new Set<(change: ResourcesChange) => void>();
  readonly #refreshing = new CoalescedRounds();
  readonly #subscriptions = new Map<string, Subscription>();
  readonly #options: ResourceCatalogOptions;
  /** The `subscriptions/listen` streams opened for list changes (2026-07-28 connections). */
  readonly #streams: ListenSubscription[] = [];
  #resources: readonly ListedResource[] = [];
  #templates: readonly ListedResourceTemplate[] = [];
  #warnings: readonly ResourceListWarning[] = [];

  constructor(clients: ReadonlyMap<string, ResourceClient>, options: ResourceCatalogOptions) {
    this.#clients = clients;
    this.#options = options;
  }

  get resources(): readonly ListedResource[] {
    return this.#resources;
  }

  get templates(): readonly ListedResourceTemplate[] {
    return this.#templates;
  }

  get warnings(): readonly ResourceListWarning[] {
    return this.#warnings;
  }

  /** The servers listed: those that declared resources (or whose capabilities are unknown). */
  servers(): string[] {
    return [...this.#clients].flatMap(([serverId, client]) =>
      client.getServerCapabilities === undefined || resourcesCapability(client) !== undefined
        ? [serverId]
        : [],
    );
  }

  #rebuild(): void {
    const order = [...this.#clients.keys()].filter((id) => this.#lists.has(id));
    this.#resources = Object.freeze(
      order.flatMap((serverId) =>
        (this.#lists.get(serverId)?.resources ?? []).map((resource) =>
          Object.freeze({ serverId, resource }),
        ),
      ),
    );
    this.#templates = Object.freeze(
      order.flatMap((serverId) =>
        (this.#lists.get(serverId)?.templates ?? []).map((template) =>
          Object.freeze({ serverId, template }),
        ),
      ),
    );
    this.#warnings = Object.freeze(
      order.flatMap((serverId) => this.#lists.get(serverId)?.warnings ?? []),
    );
  }

  async #list(serverId: string, signal?: AbortSignal): Promise<void> {
    const client = this.#clientOf(serverId);
    const { timeoutMs, onNotice } = this.#options;
    const lists = await listServerResources(client, serverId, {
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(onNotice === undefined ? {} : { onNotice }),
      ...(signal === undefined ? {} : { signal }),
    });
    this.#lists.set(serverId, lists);
    this.#rebuild();
  }

  #clientOf(serverId: string): ResourceClient {
    const client = this.#clients.get(serverId);
    if (client === undefined) {
      throw new GeminiMcpError('INVALID_INPUT', `no server "${serverId}" is connected`, {
        data: { serverId },
      });
    }
    return client;
  }

  /** Lists every server that declared resources, and wires the notifications. */
  async open(): Promise<void> {
    const servers = this.servers();
    await Promise.all(servers.map((serverId) => this.#list(serverId, this.#options.signal)));
    for (const serverId of servers) {
      const client = this.#clientOf(serverId);
      onServerNotification(client, 'notifications/resources/list_changed', () => {
        void this.#refreshAndTell(serverId);
      });
      onServerNotification(client, 'notifications/resources/updated', (notification) => {
        this.#updated(serverId, notification.params);
      });
      // On 2026-07-28, list changes come only over a stream the client opens.
      if (isModern(client) && resourcesCapability(client)?.listChanged === true) {
        const { timeoutMs } = this.#options;
        const stream = await client.listen?.(
          { resourcesListChanged: true },
          timeoutMs === undefined ? {} : { timeout: timeoutMs },
        );
        if (stream !== undefined) this.#streams.push(stream);
      }
    }
  }

  async refresh(serverId?: string): Promise<void> {
    const ids = serverId === undefined ? this.servers() : [serverId];
    await Promise.all(ids.map((id) => this.#list(id)));
  }

  onChange(listener: (change: ResourcesChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A refresh `list_changed` asked for: coalesced, then told to every listener. */
  #refreshAndTell(serverId: string): Promise<void> {
    return this.#refreshing.run(serverId, async () => {
      let change: ResourcesChange;
      try {
        await this.#list(serverId);
        change = {
          serverId,
          resources: this.#resources.filter((r) => r.serverId === serverId),
          templates: this.#templates.filter((t) => t.serverId === serverId),
        };
      } catch (error) {
        change = { serverId, error };
      }
      for (const listener of this.#listeners) listener(change);
    });
  }

  #updated(serverId: string, params: unknown): void {
    const { violations } = readMcpResourceUpdatedNotificationParams(params);
    if (violations.length > 0) return;
    const { uri } = params as { uri: string };
    const subscription = this.#subscriptions.get(subscriptionKey(serverId, uri));
    if (subscription === undefined) return;
    for (const listener of [...subscription.listeners]) {
      try {
        listener({ serverId, uri });
      } catch {
        // A listener's throw is its own: the other listeners still hear the update.
      }
    }
  }

  /** The one server a URI is on: `serverId`, the server listing it, or the only one listed. */
  serverOf(uri: string, serverId: string | undefined, owners: readonly string[]): string {
    if (serverId !== undefined) {
      this.#clientOf(serverId);
      return serverId;
    }
    const candidates = owners.length > 0 ? owners : this.servers();
    const [only, ...others] = [...new Set(candidates)];
    if (only !== undefined && others.length === 0) return only;
    throw new GeminiMcpError(
      'INVALID_INPUT',
      only === undefined
        ? `no connected server publishes resources, so none can hold ${JSON.stringify(uri.slice(0, 200))}`
        : `${JSON.stringify(uri.slice(0, 200))} could be on any of ${[...new Set(candidates)].map((id) => `"${id}"`).join(', ')}: name the server (serverId)`,
      { data: { uri: uri.slice(0, 200), servers: [...new Set(candidates)] } },
    );
  }

  async subscribe(
    uri: string,
    listener: (update: ResourceUpdate) => void,
    options: SubscribeOptions = {},
  ): Promise<() => Promise<void>> {
    checkTimeout('timeoutMs', options.timeoutMs);
    if (typeof uri !== 'string' || uri === '' || uri.length > MAX_SUBSCRIBED_URI) {
      throw new GeminiMcpError(
        'INVALID_INPUT',
        `subscribe: the URI must be a string of 1 to ${MAX_SUBSCRIBED_URI} characters`,
        {
          path: '/uri',
        },
      );
    }
    const owners = this.#resources.filter((r) => r.resource.uri === uri).map((r) => r.serverId);
    const serverId = this.serverOf(uri, options.serverId, owners);
    const client = this.#clientOf(serverId);
    const timeout = options.timeoutMs ?? this.#options.timeoutMs;
    const modern = isModern(client);
    if (!modern && resourcesCapability(client)?.subscribe !== true) {
      throw new GeminiMcpError(
        'INVALID_INPUT',
        `server "${serverId}" does not support resource subscriptions (no resources.subscribe capability)`,
        {
          data: { serverId },
        },
      );
    }
    const key = subscriptionKey(serverId, uri);
    let subscription = this.#subscriptions.get(key);
    if (subscription === undefined) {
      const opened = modern
        ? client.listen!({ resourceSubscriptions: [uri] }, timeout === undefined ? {} : { timeout })
        : client
            .request(
              { method: 'resources/subscribe', params: { uri } },
              AS_RECEIVED,
              timeout === undefined ? {} : { timeout },
            )
            .then(() => undefined);
      subscription = { listeners: new Set(), opened };
      this.#subscriptions.set(key, subscription);
      try {
        await opened;
      } catch (error) {
        this.#subscriptions.delete(key);
        throw error;
      }
    } else await subscription.opened;
    const held = subscription;
    // Each call's own listener, so subscribing one function twice needs two unsubscribes.
    const own = (update: ResourceUpdate): void => listener(update);
    held.listeners.add(own);
    return async () => {
      if (!held.listeners.delete(own) || held.listeners.size > 0) return;
      if (this.#subscriptions.get(key) === held) this.#subscriptions.delete(key);
      const stream = await held.opened;
      if (stream !== undefined) await stream.close();
      else {
        await client.request(
          { method: 'resources/unsubscribe', params: { uri } },
          AS_RECEIVED,
          timeout === undefined ? {} : { timeout },
        );
      }
    };
  }

  /** Ends every subscription stream and drops every listener (the clients close after it). */
  async close(): Promise<void> {
    this.#listeners.clear();
    const opened = [...this.#subscriptions.values()].map((s) => s.opened);
    this.#subscriptions.clear();
    const streams = [
      ...this.#streams,
      ...(await Promise.allSettled(opened)).flatMap((s) =>
        s.status === 'fulfilled' && s.value !== undefined ? [s.value] : [],
      ),
    ];
    this.#streams.length = 0;
    await Promise.allSettled(streams.map((stream) => stream.close()));
  }
}

function subscriptionKey(serverId: string, uri: string): string {
  return JSON.stringify([serverId, uri]);
}

/** The catalog of {@link openResourceCatalog}, with what connect needs besides the public interface. */
export interface OpenResourceCatalog extends ResourceCatalog {
  /** The one server a URI is on (see `resourceParts`). */
  serverOf(uri: string, serverId: string | undefined, owners: readonly string[]): string;
  /** Ends the subscription streams and drops every listener (the clients close after it). */
  close(): Promise<void>;
}

/**
 * Lists every server's resources and templates (the servers that declared the resources
 * capability), and keeps them current on `notifications/resources/list_changed`. A list that
 * fails is a `RESOURCES_UNAVAILABLE` warning, never a failed connection.
 *
 * @example
 * ```ts
 * const catalog = await openResourceCatalog(connections.clients, { timeoutMs: 10_000 });
 * console.log(catalog.resources.map((r) => `${r.serverId} ${r.resource.uri}`));
 * ```
 */
export async function openResourceCatalog(
  clients: ReadonlyMap<string, ResourceClient>,
  options: ResourceCatalogOptions = {},
): Promise<OpenResourceCatalog> {
  const catalog = new LiveResources(clients, options);
  await catalog.open();
  return catalog;
}
