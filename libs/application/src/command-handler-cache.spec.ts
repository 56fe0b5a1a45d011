import type { MemoryEventStore } from '@gw/event-store/memory';
import { handleCommand, StreamStateCache, type LoadedState, type StateCache } from './command-handler';
import { add, counter, counting, twoWritersOnOneLog, type Total } from './test/counter-stream';

// handleCommand with a state cache: what it reads again, and when it must not trust what it holds.

// Two writers on one log: `store`, whose reads and appends are under test, and `other`, a concurrent writer.
let store: MemoryEventStore;
let other: MemoryEventStore;
beforeEach(() => ({ store, other } = twoWritersOnOneLog()));

describe('handleCommand with a state cache', () => {
  it('does not read a stream it wrote last in full again, and decides from the right state', async () => {
    const { store: spied, fullReads } = counting(store);
    const cache = new StreamStateCache<Total>();
    for (let i = 1; i <= 5; i++) {
      const { state } = await handleCommand(spied, 'counter-1', counter, add(i), { cache });
      expect(state).toEqual({ total: (i * (i + 1)) / 2, seen: i });
    }
    // The first command found nothing to cache; every later one read the last event only.
    expect(fullReads()).toBe(1);
    expect((await store.readStream('counter-1')).map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n]);
  });

  it("folds another writer's events into the cached state, reading only them and the event it was at", async () => {
    const { store: spied, fullReads, rangeReads } = counting(store);
    const cache = new StreamStateCache<Total>();
    await handleCommand(spied, 'counter-2', counter, add(1), { cache });
    await handleCommand(spied, 'counter-2', counter, add(1), { cache });
    await other.append(
      'counter-2',
      [
        { id: 'o1', type: 'Added', data: { by: 100 } },
        { id: 'o2', type: 'Unknown', data: {} },
        { id: 'o3', type: 'Added', data: { by: 10 } },
      ],
      'any',
    );
    const { state } = await handleCommand(spied, 'counter-2', counter, add(1), { cache });
    expect(state).toEqual({ total: 113, seen: 5 });
    // Only the first command (nothing cached) read the stream whole.
    expect(fullReads()).toBe(1);
    // The second command read the last event only; the third, from the cached event on.
    expect(rangeReads()).toEqual([[1n, 2n, 3n, 4n]]);
    expect(cache.get('counter-2')).toMatchObject({ state: { total: 113, seen: 5 }, revision: 5n });
  });

  it('does not take a stream deleted and created again at the same revision for the one it cached', async () => {
    const cache = new StreamStateCache<Total>();
    await handleCommand(store, 'counter-4', counter, add(1), { cache });
    await handleCommand(store, 'counter-4', counter, add(2), { cache });
    await other.deleteStream('counter-4');
    await other.append(
      'counter-4',
      [
        { id: 'n1', type: 'Added', data: { by: 50 } },
        { id: 'n2', type: 'Added', data: { by: 60 } },
      ],
      'no_stream',
    );
    // The new stream's last revision (1) is the cached one; its history is not.
    const { state } = await handleCommand(store, 'counter-4', counter, add(1), { cache });
    expect(state).toEqual({ total: 111, seen: 3 });
  });

  it('reads a stream deleted and created again, and grown past the cached revision, whole', async () => {
    const { store: spied, fullReads } = counting(store);
    const cache = new StreamStateCache<Total>();
    await handleCommand(spied, 'counter-5', counter, add(1), { cache });
    await other.deleteStream('counter-5');
    await other.append(
      'counter-5',
      [1, 2, 3].map((by) => ({ id: `n${by}`, type: 'Added', data: { by } })),
      'no_stream',
    );
    const { state } = await handleCommand(spied, 'counter-5', counter, add(4), { cache });
    expect(state).toEqual({ total: 10, seen: 4 });
    expect(fullReads()).toBe(2);
  });

  it('starts a stream deleted since it was cached from nothing', async () => {
    const cache = new StreamStateCache<Total>();
    await handleCommand(store, 'counter-6', counter, add(5), { cache });
    await other.deleteStream('counter-6');
    const { state, written } = await handleCommand(store, 'counter-6', counter, add(1), { cache });
    expect(state).toEqual({ total: 1, seen: 1 });
    expect(written?.nextExpectedRevision).toBe(0n);
  });

  it("trusts a trusted cache without asking the store, and folds the other writer's events in after a conflict", async () => {
    const held = new Map<string, LoadedState<Total>>();
    const trusted: StateCache<Total> = { trusted: true, get: (n) => held.get(n), set: (n, l) => void held.set(n, l) };
    const { store: spied, fullReads, rangeReads } = counting(store);
    let lastEventReads = 0;
    spied.readLastEvent = (name) => {
      lastEventReads += 1;
      return store.readLastEvent(name);
    };
    await handleCommand(spied, 'counter-3', counter, add(1), { cache: trusted });
    await handleCommand(spied, 'counter-3', counter, add(1), { cache: trusted });
    // The second command asked the store nothing.
    expect({ lastEventReads, rangeReads: rangeReads() }).toEqual({ lastEventReads: 0, rangeReads: [] });
    await other.append('counter-3', [{ id: 'from-other', type: 'Added', data: { by: 100 } }], 'any');
    const { state } = await handleCommand(spied, 'counter-3', counter, add(1), { cache: trusted, conflictRetries: 1 });
    expect(state).toEqual({ total: 103, seen: 4 });
    expect(held.get('counter-3')).toMatchObject({ state: { total: 103, seen: 4 }, revision: 3n });
    // The first command's empty read, then only the cached event and the other writer's.
    expect(fullReads()).toBe(1);
    expect(rangeReads()).toEqual([[1n, 2n]]);
  });

  it('reads the stream whole after a conflict when the trusted state has no position (restored from an older snapshot)', async () => {
    await other.append(
      'counter-7',
      [
        { id: 'a', type: 'Added', data: { by: 1 } },
        { id: 'b', type: 'Added', data: { by: 2 } },
      ],
      'no_stream',
    );
    const held = new Map<string, LoadedState<Total>>([['counter-7', { state: { total: 1, seen: 1 }, revision: 0n }]]);
    const trusted: StateCache<Total> = { trusted: true, get: (n) => held.get(n), set: (n, l) => void held.set(n, l) };
    const { store: spied, fullReads } = counting(store);
    const { state } = await handleCommand(spied, 'counter-7', counter, add(4), { cache: trusted, conflictRetries: 1 });
    expect(state).toEqual({ total: 7, seen: 3 });
    expect(fullReads()).toBe(1);
  });

  it('keeps at most its bound of streams, dropping the least recently used', () => {
    const cache = new StreamStateCache<number>(2);
    cache.set('a', { state: 1, revision: 0n });
    cache.set('b', { state: 2, revision: 0n });
    cache.get('a');
    cache.set('c', { state: 3, revision: 0n });
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map((found) => found?.state)).toEqual([1, undefined, 3]);
  });
});
