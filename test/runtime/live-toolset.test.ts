import { describe, expect, it } from 'vitest';
import { LiveToolSet, type ToolsChange } from '../../src/runtime/mcp/live-toolset.js';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

describe('EX-5: LiveToolSet', () => {
  it('EX-5: replacing one server rebuilds the set over every server, and listeners hear it', async () => {
    const live = new LiveToolSet(
      new Map([
        ['a', [tool('one')]],
        ['b', [tool('two')]],
      ]),
    );
    const changes: ToolsChange[] = [];
    live.onChange((change) => changes.push(change));
    await live.replaceAndNotify('a', async () => [tool('one'), tool('three')]);
    expect(live.toolset.entries.map((e) => e.exposedName)).toEqual(['one', 'three', 'two']);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ serverId: 'a', toolset: live.toolset });
  });

  it('EX-5: a failed refresh keeps the previous set and reports the error', async () => {
    const live = new LiveToolSet(new Map([['a', [tool('one')]]]));
    const before = live.toolset;
    const changes: ToolsChange[] = [];
    const unsubscribe = live.onChange((change) => changes.push(change));
    await live.replaceAndNotify('a', async () => {
      throw new Error('server gone');
    });
    expect(live.toolset).toBe(before);
    expect(changes).toEqual([{ serverId: 'a', error: new Error('server gone') }]);
    unsubscribe();
    await live.replaceAndNotify('a', async () => [tool('two')]);
    expect(changes).toHaveLength(1);
  });

  it('EX-5: replacements of one server run in order, one at a time', async () => {
    const live = new LiveToolSet(new Map([['a', [tool('zero')]]]));
    let release: () => void = () => {};
    const slow = live.replace(
      'a',
      () =>
        new Promise((resolve) => {
          release = () => resolve([tool('first')]);
        }),
    );
    const fast = live.replace('a', async () => [tool('second')]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(live.toolset.entries.map((e) => e.exposedName)).toEqual(['zero']);
    release();
    await Promise.all([slow, fast]);
    expect(live.toolset.entries.map((e) => e.exposedName)).toEqual(['second']);
  });

  it('EX-5: a rebuild that fails (prefix never, a new collision) keeps the previous set', async () => {
    const live = new LiveToolSet(
      new Map([
        ['a', [tool('one')]],
        ['b', [tool('two')]],
      ]),
      { prefix: 'never' },
    );
    await expect(live.replace('b', async () => [tool('one')])).rejects.toMatchObject({
      code: 'NAME_COLLISION',
    });
    expect(live.toolset.entries.map((e) => e.exposedName)).toEqual(['one', 'two']);
  });
});

describe('EX-5: LiveToolSet.toolsSettled (issue 15)', () => {
  /** A fetch that answers `tools` when `release` is called. */
  function gated(tools: unknown[]): { fetch: () => Promise<unknown[]>; release: () => void } {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    return { fetch: () => gate.then(() => tools), release };
  }

  it('EX-5: true at once when nothing is in flight', async () => {
    const live = new LiveToolSet(new Map([['a', [tool('one')]]]));
    expect(await live.toolsSettled()).toBe(true);
  });

  it('EX-5: waits for a notified refresh, and for one that starts while it waits', async () => {
    const live = new LiveToolSet(
      new Map([
        ['a', [tool('one')]],
        ['b', [tool('two')]],
      ]),
    );
    const first = gated([tool('one'), tool('three')]);
    const second = gated([tool('two'), tool('four')]);
    void live.replaceAndNotify('a', first.fetch);
    let settled = false;
    const waiting = live.toolsSettled().then((result) => {
      settled = true;
      return result;
    });
    void live.replaceAndNotify('b', second.fetch);
    first.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    second.release();
    expect(await waiting).toBe(true);
    expect(live.toolset.entries.map((e) => e.exposedName)).toEqual(['one', 'three', 'two', 'four']);
  });

  it('EX-5: a storm of notifications is one wait: the coalesced rounds, then settled', async () => {
    const live = new LiveToolSet(new Map([['a', [tool('one')]]]));
    let lists = 0;
    const fetch = async () => {
      lists++;
      return [tool(`t${lists}`)];
    };
    for (let i = 0; i < 500; i++) void live.replaceAndNotify('a', fetch);
    expect(await live.toolsSettled()).toBe(true);
    expect(lists).toBe(2);
    expect(live.toolset.entries.map((e) => e.exposedName)).toEqual(['t2']);
  });

  it('EX-5: a failed refresh settles too (the previous set stays)', async () => {
    const live = new LiveToolSet(new Map([['a', [tool('one')]]]));
    void live.replaceAndNotify('a', async () => {
      throw new Error('gone');
    });
    void live.replace('a', async () => [tool('x'), tool('x')]).catch(() => undefined);
    expect(await live.toolsSettled()).toBe(true);
  });

  it('EX-5: bounded: false when timeoutMs passes or the signal fires first; a bad timeoutMs is refused', async () => {
    const live = new LiveToolSet(new Map([['a', [tool('one')]]]));
    void live.replaceAndNotify('a', () => new Promise(() => {}));
    expect(await live.toolsSettled({ timeoutMs: 20 })).toBe(false);
    const controller = new AbortController();
    const waiting = live.toolsSettled({ signal: controller.signal });
    controller.abort();
    expect(await waiting).toBe(false);
    expect(await live.toolsSettled({ signal: AbortSignal.abort() })).toBe(false);
    await expect(live.toolsSettled({ timeoutMs: Number.NaN })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      data: { option: 'timeoutMs' },
    });
  });
});
