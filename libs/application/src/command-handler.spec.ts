import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreUnavailableError, type EventStore } from '@gw/event-store';
import { MemoryEventStore, MemoryLog } from '@gw/event-store/memory';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import {
  ConflictRetriesExhausted,
  handleCommand,
  readState,
  StreamStateCache,
  type LoadedState,
  type StateCache,
  type StreamModel,
} from './command-handler';

type Added = { type: 'Added'; data: { by: number } };
type Total = { total: number; seen: number };
const counter: StreamModel<Added, Total> = {
  initialState: () => ({ total: 0, seen: 0 }),
  evolve: (state, event) => ({ total: state.total + event.data.by, seen: state.seen + 1 }),
  isEvent: (event): event is Added => event.type === 'Added',
};
const add = (by: number) => (): Added[] => [{ type: 'Added', data: { by } }];

/** The real in-memory store, with its stream reads counted: whole ones, and the events range reads returned. */
function counting(store: EventStore): { store: EventStore; fullReads: () => number; rangeReads: () => bigint[][] } {
  let reads = 0;
  const ranges: bigint[][] = [];
  const wrapped = Object.create(store) as EventStore;
  wrapped.readStream = async (name, range) => {
    if (!range) reads += 1;
    const events = await store.readStream(name, range);
    if (range) ranges.push(events.map((e) => e.revision));
    return events;
  };
  return { store: wrapped, fullReads: () => reads, rangeReads: () => ranges };
}

// Two writers on one log: `store`, whose reads and appends are under test, and `other`, a concurrent writer.
let store: MemoryEventStore;
let other: MemoryEventStore;

beforeEach(() => {
  const log = new MemoryLog();
  store = new MemoryEventStore(log);
  other = new MemoryEventStore(log);
});

describe('handleCommand', () => {
  it('creates a stream with no_stream and appends later commands at the revision it read', async () => {
    await handleCommand(store, 'counter-1', counter, add(2));
    const { state, written } = await handleCommand(store, 'counter-1', counter, (current) => [
      { type: 'Added', data: { by: current.total } },
    ]);
    expect(state).toEqual({ total: 4, seen: 2 });
    expect(written?.nextExpectedRevision).toBe(1n);
    expect((await store.readStream('counter-1')).map((e) => e.data)).toEqual([{ by: 2 }, { by: 2 }]);
  });

  it('appends nothing when the decision is empty', async () => {
    const outcome = await handleCommand(store, 'counter-0', counter, () => []);
    expect(outcome).toEqual({ state: { total: 0, seen: 0 }, events: [] });
    expect(await store.readStream('counter-0')).toEqual([]);
  });

  it('skips stored events of types the model does not know instead of folding them', async () => {
    await other.append(
      'counter-9',
      [
        { id: 'a', type: 'Added', data: { by: 1 } },
        { id: 'b', type: 'AddedTwiceV2', data: { twice: 5 } },
      ],
      'no_stream',
    );
    const last = await store.readLastEvent('counter-9');
    expect(await readState(store, 'counter-9', counter)).toEqual({
      state: { total: 1, seen: 1 },
      revision: 1n,
      position: last?.position,
    });
    // The next append still goes after the unknown event.
    const { written } = await handleCommand(store, 'counter-9', counter, add(1));
    expect(written?.nextExpectedRevision).toBe(2n);
  });

  it('decides again from a fresh read when another writer got in between, up to the retries allowed', async () => {
    let calls = 0;
    const { state } = await handleCommand(
      store,
      'counter-2',
      counter,
      async () => {
        calls += 1;
        if (calls === 1) await other.append('counter-2', [{ id: 'x', type: 'Added', data: { by: 100 } }], 'any');
        return [{ type: 'Added', data: { by: 1 } }];
      },
      { conflictRetries: 1 },
    );
    expect(calls).toBe(2);
    expect(state).toEqual({ total: 101, seen: 2 });
  });

  it('gives up with ConflictRetriesExhausted when the stream keeps changing', async () => {
    let n = 0;
    const racing = async (): Promise<Added[]> => {
      await other.append('counter-3', [{ id: `x${n++}`, type: 'Added', data: { by: 1 } }], 'any');
      return [{ type: 'Added', data: { by: 1 } }];
    };
    await expect(handleCommand(store, 'counter-3', counter, racing, { conflictRetries: 2 })).rejects.toEqual(
      new ConflictRetriesExhausted('counter-3', 3),
    );
  });

  it('lets a refusal from decide reach the caller and appends nothing', async () => {
    const refusal = new Error('wrong token');
    await expect(
      handleCommand(store, 'counter-4', counter, () => {
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(await store.readStream('counter-4')).toEqual([]);
  });

  it('returns the stream as stored when the store already held events with the same ids', async () => {
    const model: StreamModel<Added, Total> = { ...counter, eventId: (e) => `fixed-${e.data.by}` };
    await handleCommand(store, 'counter-5', model, add(7));
    await handleCommand(store, 'counter-5', model, add(1));
    // A second writer that decided from an older state retries the very same append.
    const stale = new StreamStateCache<Total>();
    stale.set('counter-5', { state: counter.initialState(), revision: -1n });
    const trustedStale: StateCache<Total> = { trusted: true, get: (n) => stale.get(n), set: (n, l) => stale.set(n, l) };
    const outcome = await handleCommand(other, 'counter-5', model, add(7), { cache: trustedStale });
    expect(outcome.events).toEqual([]);
    expect(outcome.state).toEqual({ total: 8, seen: 2 });
    expect(stale.get('counter-5')).toEqual({ state: { total: 8, seen: 2 }, revision: 1n, position: 2n });
    expect(await store.readStream('counter-5')).toHaveLength(2);
  });

  it('waits out an outage while onUnavailable allows it, and fails at once without it', async () => {
    let failures = 2;
    const flaky = Object.create(store) as EventStore;
    flaky.append = (...args) =>
      failures-- > 0 ? Promise.reject(new EventStoreUnavailableError('down')) : store.append(...args);
    const seen: number[] = [];
    const { state } = await handleCommand(flaky, 'counter-6', counter, add(1), {
      onUnavailable: async (_e, attempt) => void seen.push(attempt),
    });
    expect(seen).toEqual([0, 1]);
    expect(state.total).toBe(1);
    failures = 1;
    await expect(handleCommand(flaky, 'counter-6', counter, add(1))).rejects.toBeInstanceOf(EventStoreUnavailableError);
  });

  it('appends an append-only command at any revision without reading the stream', async () => {
    const { store: spied, fullReads } = counting(store);
    await other.append('inbox-1', [{ id: 'old', type: 'Added', data: { by: 1 } }], 'no_stream');
    const { written } = await handleCommand(spied, 'inbox-1', counter, add(2), { appendOnly: true });
    expect(written?.nextExpectedRevision).toBe(1n);
    expect(fullReads()).toBe(0);
  });
});

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

describe('commands on one stream in one process', () => {
  it('take turns: 64 at once never conflict, each decides on the state the one before leaves, and they share commits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-lanes-'));
    const sqlite = new SqliteEventStore({ file: join(dir, 'events.sqlite') });
    try {
      // Each command records the total it saw: with turns, 0, 1, 2, ... 63, and no retry is needed.
      const outcomes = await Promise.all(
        Array.from({ length: 64 }, () =>
          handleCommand(sqlite, 'counter-hot', counter, (state) => [{ type: 'Added', data: { by: state.seen } }], {
            conflictRetries: 0,
          }),
        ),
      );
      expect(outcomes.map((o) => o.written?.nextExpectedRevision)).toEqual(
        Array.from({ length: 64 }, (_, i) => BigInt(i)),
      );
      expect((await sqlite.readStream('counter-hot')).map((e) => (e.data as { by: number }).by)).toEqual(
        Array.from({ length: 64 }, (_, i) => i),
      );
      // Appends submitted while one is being committed share the next commit.
      expect(sqlite.writeStats.commits).toBeLessThan(32);
    } finally {
      await sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets a command on another stream go without waiting for the turns of a busy one', async () => {
    let unblock!: () => void;
    const blocked = handleCommand(store, 'counter-slow', counter, async () => {
      await new Promise<void>((resolve) => (unblock = resolve));
      return [{ type: 'Added', data: { by: 1 } }];
    });
    const other = await handleCommand(store, 'counter-fast', counter, add(5));
    expect(other.state.total).toBe(5);
    unblock();
    expect((await blocked).state.total).toBe(1);
  });

  it('retries a command whose predecessor was refused by another writer, on the stream as stored', async () => {
    await handleCommand(store, 'counter-2', counter, add(1));
    // Another process appends behind this one's back: the first command conflicts; the second decided
    // on the first's predicted state and conflicts too; both retry on the stream as stored.
    await other.append('counter-2', [{ id: 'x', type: 'Added', data: { by: 100 } }], 0n);
    const cache = new StreamStateCache<Total>(10);
    const [a, b] = await Promise.all([
      handleCommand(store, 'counter-2', counter, add(2), { conflictRetries: 3 }),
      handleCommand(store, 'counter-2', counter, add(3), { conflictRetries: 3, cache }),
    ]);
    // Both were recorded once, after the other writer's event.
    expect([a.written?.nextExpectedRevision, b.written?.nextExpectedRevision].sort()).toEqual([2n, 3n]);
    expect(
      (await store.readStream('counter-2')).map((e) => (e.data as { by: number }).by).sort((x, y) => x - y),
    ).toEqual([1, 2, 3, 100]);
  });
});
