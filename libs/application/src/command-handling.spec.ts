import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Decider } from '@gw/domain-core';
import { SqliteEventStore, type EventStore } from '@gw/event-store';
import { handleCommand, StreamStateCache } from './command-handling';

type Added = { type: 'Added'; data: { by: number } };
const counter: Decider<{ add: number }, Added, { total: number; seen: number }> = {
  initialState: () => ({ total: 0, seen: 0 }),
  evolve: (state, event) => ({ total: state.total + event.data.by, seen: state.seen + 1 }),
  decide: (command) => [{ type: 'Added', data: { by: command.add } }],
};

/** The real store, with its full stream reads counted. */
function counting(store: EventStore): { store: EventStore; fullReads: () => number } {
  let reads = 0;
  const wrapped = Object.create(store) as EventStore;
  wrapped.readStream = (name) => {
    reads += 1;
    return store.readStream(name);
  };
  return { store: wrapped, fullReads: () => reads };
}

describe('handleCommand with a stream state cache', () => {
  let dir: string;
  let store: SqliteEventStore;
  let other: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-handle-'));
    store = new SqliteEventStore({ file: join(dir, 'events.sqlite') });
    other = new SqliteEventStore({ file: join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await Promise.all([store.close(), other.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('does not read a stream it wrote last in full again, and decides from the right state', async () => {
    const { store: spied, fullReads } = counting(store);
    const cache = new StreamStateCache();
    for (let i = 1; i <= 5; i++) {
      const { state } = await handleCommand(spied, 'counter-1', counter, () => ({ add: i }), 3, cache);
      expect(state).toEqual({ total: (i * (i + 1)) / 2, seen: i });
    }
    // The first command found nothing to cache; every later one read the last event only.
    expect(fullReads()).toBe(1);
    expect((await store.readStream('counter-1')).map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n]);
  });

  it("reads the stream again when another writer changed it, and folds that writer's events in", async () => {
    const { store: spied, fullReads } = counting(store);
    const cache = new StreamStateCache();
    await handleCommand(spied, 'counter-2', counter, () => ({ add: 1 }), 3, cache);
    await handleCommand(spied, 'counter-2', counter, () => ({ add: 1 }), 3, cache);
    await other.append('counter-2', [{ id: 'from-other', type: 'Added', data: { by: 100 } }], 'any');
    const { state } = await handleCommand(spied, 'counter-2', counter, () => ({ add: 1 }), 3, cache);
    expect(state).toEqual({ total: 103, seen: 4 });
    // The first command (nothing cached) and the one after the other writer's append.
    expect(fullReads()).toBe(2);
  });

  it('keeps at most its bound of streams, dropping the least recently used', () => {
    const cache = new StreamStateCache(2);
    cache.set('a', { state: 1, revision: 0n });
    cache.set('b', { state: 2, revision: 0n });
    cache.get('a');
    cache.set('c', { state: 3, revision: 0n });
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map((found) => found?.state)).toEqual([1, undefined, 3]);
  });
});
