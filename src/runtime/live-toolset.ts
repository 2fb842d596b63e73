/**
 * One tool set over several servers' tool lists, rebuilt whenever one list is replaced.
 * Replacements of the same server run one at a time, in the order they were asked for;
 * refreshes that notifications trigger are coalesced (one running, at most one more waiting).
 */
import { buildToolSet } from '../adapter/toolset.js';
import type {
  BuildToolSetOptions,
  BuildToolSetResult,
  ToolSet,
  ToolSetWarning,
} from '../adapter/toolset-types.js';

/** What listeners hear after a server's tool list was replaced (or failed to be). */
export type ToolsChange =
  | { serverId: string; toolset: ToolSet; warnings: readonly ToolSetWarning[] }
  /** The refresh failed; the previous tool set stays in use. */
  | { serverId: string; error: unknown };

/**
 * A tool set kept current over changing tool lists.
 *
 * @example
 * ```ts
 * const live = new LiveToolSet(new Map([['bitcoin', tools]]));
 * live.onChange((change) => console.log(change.serverId, 'toolset' in change));
 * await live.replace('bitcoin', () => listAllTools(client));
 * live.toolset; // rebuilt
 * ```
 */
export class LiveToolSet {
  readonly #lists: Map<string, readonly unknown[]>;
  readonly #options: BuildToolSetOptions | undefined;
  readonly #queues = new Map<string, Promise<void>>();
  readonly #listeners = new Set<(change: ToolsChange) => void>();
  /** Per server, the notified refresh running now and whether another one is owed after it. */
  readonly #notified = new Map<string, { again: boolean; done: Promise<void> }>();
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
    this.#queues.set(
      serverId,
      next.catch(() => undefined),
    );
    return next;
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
    const running = this.#notified.get(serverId);
    if (running !== undefined) {
      running.again = true;
      return running.done;
    }
    const state = { again: true, done: Promise.resolve() };
    const rounds = async (): Promise<void> => {
      try {
        while (state.again) {
          state.again = false;
          await this.#replaceAndTell(serverId, fetch);
        }
      } finally {
        this.#notified.delete(serverId);
      }
    };
    this.#notified.set(serverId, state);
    state.done = rounds();
    return state.done;
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
