/**
 * One tool set over several servers' tool lists, rebuilt whenever one list is replaced.
 * Replacements of the same server run one at a time, in the order they were asked for;
 * refreshes that notifications trigger are coalesced (one running, at most one more waiting),
 * and a bounded wait tells when none is in flight.
 */

import { buildToolSet } from '../../adapter/tools/toolset.js';
import type {
  BuildToolSetOptions,
  BuildToolSetResult,
  ToolSet,
  ToolSetWarning,
} from '../../adapter/tools/toolset-types.js';
import { checkTimeout } from '../options.js';
import { CoalescedRounds } from './coalesced-rounds.js';

/** What listeners hear after a server's tool list was replaced (or failed to be). */
export type ToolsChange =
  | { serverId: string; toolset: ToolSet; warnings: readonly ToolSetWarning[] }
  /** The refresh failed; the previous tool set stays in use. */
  | { serverId: string; error: unknown };

/** How long a wait for tool refreshes in flight lasts by default: 5 000 ms. */
export const DEFAULT_TOOLS_REFRESH_TIMEOUT_MS = 5_000;

/** Options of a bounded wait for tool refreshes in flight. */
export interface ToolsSettleOptions {
  /**
   * The longest wait, in ms.
   *
   * @defaultValue 5000
   */
  timeoutMs?: number;
  /** Ends the wait early (the result is then `false`). */
  signal?: AbortSignal;
}

/**
 * A tool set that servers may refresh (`tools/list_changed`), and a way to wait for the
 * refreshes in flight: what `connectServers` returns fits. Give it to `runConversation` as
 * `toolset` and each request waits for a refresh a tool call started.
 *
 * @example
 * ```ts
 * const source: ToolSetSource = await connectServers('mcp.json');
 * if (await source.toolsSettled({ timeoutMs: 2_000 })) console.log(source.toolset.entries.length);
 * ```
 */
export interface ToolSetSource {
  /** The current tool set. */
  readonly toolset: ToolSet;
  /**
   * Resolves `true` once no tool refresh is in flight (refreshes that start while it waits
   * included), or `false` when `timeoutMs` passed or `signal` fired first. Rejects only for a
   * `timeoutMs` outside (0, 2^31 - 1] (INVALID_INPUT naming it).
   */
  toolsSettled(options?: ToolsSettleOptions): Promise<boolean>;
}

/**
 * A tool set kept current over changing tool lists.
 *
 * @example
 * ```ts
 * const live = new LiveToolSet(new Map([['bitcoin', tools]]));
 * live.onChange((change) => console.log(change.serverId, 'toolset' in change));
 * void live.replaceAndNotify('bitcoin', () => listAllTools(client)); // as list_changed does
 * await live.toolsSettled({ timeoutMs: 5_000 });
 * live.toolset; // rebuilt
 * ```
 */
export class LiveToolSet implements ToolSetSource {
  readonly #lists: Map<string, readonly unknown[]>;
  readonly #options: BuildToolSetOptions | undefined;
  readonly #queues = new Map<string, Promise<void>>();
  readonly #listeners = new Set<(change: ToolsChange) => void>();
  /** Per server, the notified refresh running now and whether another one is owed after it. */
  readonly #notified = new CoalescedRounds();
  /** Every replacement and notified refresh not yet settled. */
  readonly #inFlight = new Set<Promise<void>>();
  #built: BuildToolSetResult;

  /** Builds the first set; throws what `buildToolSet` throws (e.g. NAME_COLLISION). */
  constructor(lists: ReadonlyMap<string, readonly unknown[]>, options?: BuildToolSetOptions) {
    this.#lists = new Map(lists);
    this.#options = options;
    this.#built = this.#build();
  }

  /** The current tool set. */
  get toolset(): ToolSet {
    return this.#built.toolset;
  }

  /** The current tool set's warnings. */
  get warnings(): readonly ToolSetWarning[] {
    return this.#built.warnings;
  }

  #build(lists: ReadonlyMap<string, readonly unknown[]> = this.#lists): BuildToolSetResult {
    const servers = [...lists].map(([serverId, tools]) => ({ serverId, tools }));
    return buildToolSet(servers, this.#options);
  }

  /**
   * Replaces one server's list with what `fetch` returns and rebuilds the set, after any
   * replacement of that server still running. Rejects, keeping the previous set, when `fetch`
   * or the rebuild fails.
   */
  replace(serverId: string, fetch: () => Promise<readonly unknown[]>): Promise<void> {
    const run = async (): Promise<void> => {
      const tools = await fetch();
      this.#built = this.#build(new Map(this.#lists).set(serverId, tools));
      this.#lists.set(serverId, tools);
    };
    const next = (this.#queues.get(serverId) ?? Promise.resolve()).then(run);
    this.#queues.set(serverId, this.#track(next));
    return next;
  }

  /** Counts `work` as in flight until it settles; the returned promise never rejects. */
  #track(work: Promise<void>): Promise<void> {
    const settled = work.catch(() => undefined);
    this.#inFlight.add(settled);
    void settled.then(() => this.#inFlight.delete(settled));
    return settled;
  }

  /**
   * Waits until no replacement or notified refresh is in flight (including any that start
   * while it waits), at most `timeoutMs`, or until `signal` fires. Resolves `true` when
   * settled, `false` when the wait ended first. Rejects only for a `timeoutMs` outside
   * (0, 2^31 - 1] (INVALID_INPUT naming it).
   */
  async toolsSettled(options: ToolsSettleOptions = {}): Promise<boolean> {
    checkTimeout('timeoutMs', options.timeoutMs);
    const { signal, timeoutMs = DEFAULT_TOOLS_REFRESH_TIMEOUT_MS } = options;
    if (this.#inFlight.size === 0) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stop: (() => void) | undefined;
    const cut = new Promise<false>((resolve) => {
      stop = () => resolve(false);
      timer = setTimeout(stop, timeoutMs);
      signal?.addEventListener('abort', stop, { once: true });
    });
    const drained = async (): Promise<true> => {
      for (;;) {
        const next = this.#inFlight.values().next();
        if (next.done === true) return true;
        await next.value;
        // The entry leaves the set one turn after it settles: let it go before looking again.
        this.#inFlight.delete(next.value);
      }
    };
    try {
      return signal?.aborted === true ? false : await Promise.race([drained(), cut]);
    } finally {
      clearTimeout(timer);
      if (stop !== undefined) signal?.removeEventListener('abort', stop);
    }
  }

  /** Adds a listener for {@link ToolsChange}s; returns its unsubscribe. */
  onChange(listener: (change: ToolsChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Replaces one server's list like {@link replace}, then tells every listener how it went.
   * Coalesced: while one such refresh of the server runs, further calls only ask for one more
   * round after it (however many arrive), so a storm of `list_changed` notifications costs at
   * most two re-lists at a time, not one per notification. Every call's promise settles when
   * the round that covers it has been announced.
   */
  replaceAndNotify(serverId: string, fetch: () => Promise<readonly unknown[]>): Promise<void> {
    const done = this.#notified.run(serverId, () => this.#replaceAndTell(serverId, fetch));
    void this.#track(done);
    return done;
  }

  async #replaceAndTell(serverId: string, fetch: () => Promise<readonly unknown[]>): Promise<void> {
    let change: ToolsChange;
    try {
      await this.replace(serverId, fetch);
      change = { serverId, toolset: this.toolset, warnings: this.warnings };
    } catch (error) {
      change = { serverId, error };
    }
    for (const listener of this.#listeners) listener(change);
  }

  /** Drops every listener. */
  clearListeners(): void {
    this.#listeners.clear();
  }
}
