import { describe, expect, it } from 'vitest';
import { LiveToolSet, type ToolsChange } from '../../src/runtime/live-toolset.js';

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
