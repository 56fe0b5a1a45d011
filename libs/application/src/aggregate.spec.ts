import type { Decider } from '@gw/domain-core';
import { MemoryEventStore, MemoryLog } from '@gw/event-store/memory';
import { aggregate } from './aggregate';

type Add = { type: 'Add'; data: { by: number; max: number } };
type Added = { type: 'Added'; data: { by: number } };
const counterDecider: Decider<Add, Added, number> = {
  initialState: () => 0,
  evolve: (total, event) => total + event.data.by,
  decide: ({ data }, total) => {
    if (total + data.by > data.max) throw new Error(`over ${data.max}`);
    return [{ type: 'Added', data: { by: data.by } }];
  },
};
const counters = aggregate({
  decider: counterDecider,
  streamName: (id) => `counter-${id}`,
  isEvent: (e): e is Added => e.type === 'Added',
});

// Two writers on one log: `store` runs the commands under test, `other` gets in their way.
let store: MemoryEventStore;
let other: MemoryEventStore;

beforeEach(() => {
  const log = new MemoryLog();
  store = new MemoryEventStore(log);
  other = new MemoryEventStore(log);
});

describe('an aggregate bound once', () => {
  it('appends what its decider decides to the stream the id names, given only the id and the command', async () => {
    await counters.handle(store, 'a', { type: 'Add', data: { by: 2, max: 10 } });
    const { state } = await counters.handle(store, 'a', { type: 'Add', data: { by: 3, max: 10 } });
    expect(state).toBe(5);
    expect((await store.readStream('counter-a')).map((e) => e.data)).toEqual([{ by: 2 }, { by: 3 }]);
  });

  it('builds the command from the state it decides on, again after a concurrent change, with work done once per command', async () => {
    let built = 0;
    let lookups = 0;
    const { state } = await counters.handle(
      store,
      'b',
      async (total, { once }) => {
        built += 1;
        const by = await once('lookup', async () => {
          lookups += 1;
          return 4;
        });
        // Another writer gets in between the first read and its append.
        if (built === 1) await other.append('counter-b', [{ id: 'x', type: 'Added', data: { by: 100 } }], 'any');
        return { type: 'Add', data: { by: by + total, max: 1000 } };
      },
      { conflictRetries: 1 },
    );
    expect({ built, lookups }).toEqual({ built: 2, lookups: 1 });
    // Decided the second time from the state the other writer left.
    expect(state).toBe(204);
  });

  it('does the work before the append only for a command its decider accepted', async () => {
    const done: number[] = [];
    const beforeAppend = async (events: readonly Added[]) => void done.push(...events.map((e) => e.data.by));
    await counters.handle(store, 'c', { type: 'Add', data: { by: 1, max: 1 } }, { beforeAppend });
    await expect(
      counters.handle(store, 'c', { type: 'Add', data: { by: 1, max: 1 } }, { beforeAppend }),
    ).rejects.toThrow('over 1');
    expect(done).toEqual([1]);
    expect(await store.readStream('counter-c')).toHaveLength(1);
  });

  it('appends nothing when beforeAppend fails', async () => {
    const failing = () => Promise.reject(new Error('key store down'));
    await expect(
      counters.handle(store, 'd', { type: 'Add', data: { by: 1, max: 9 } }, { beforeAppend: failing }),
    ).rejects.toThrow('key store down');
    expect(await store.readStream('counter-d')).toEqual([]);
  });
});
