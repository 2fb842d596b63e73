/**
 * Rounds of one job per key (a server id), coalesced: while a key's job runs, further asks only
 * owe it one more round after it, however many arrive. A storm of `list_changed` notifications
 * so costs at most two listings of a server at a time, not one per notification.
 */
export class CoalescedRounds {
  readonly #running = new Map<string, { again: boolean; done: Promise<void> }>();

  /**
   * Runs `round` for `key`, or, while one runs, asks for one more round after it. The promise
   * settles once the round that covers this ask is done. `round` must not reject: it keeps or
   * reports its own failures.
   */
  run(key: string, round: () => Promise<void>): Promise<void> {
    const running = this.#running.get(key);
    if (running !== undefined) {
      running.again = true;
      return running.done;
    }
    const state = { again: true, done: Promise.resolve() };
    const rounds = async (): Promise<void> => {
      try {
        while (state.again) {
          state.again = false;
          await round();
        }
      } finally {
        this.#running.delete(key);
      }
    };
    this.#running.set(key, state);
    state.done = rounds();
    return state.done;
  }
}
