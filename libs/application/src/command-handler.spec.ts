import { EventStoreUnavailableError, type EventStore } from '@gw/event-store';
import type { MemoryEventStore } from '@gw/event-store/memory';
import {
  ConflictRetriesExhausted,
  handleCommand,
  readState,
  StreamStateCache,
  type StateCache,
  type StreamModel,
} from './command-handler';
import { add, counter, counting, twoWritersOnOneLog, type Added, type Total } from './test/counter-stream';

// handleCommand: load, decide, append at the revision read, with retries on conflict and outage.

// Two writers on one log: `store`, whose reads and appends are under test, and `other`, a concurrent writer.
let store: MemoryEventStore;
let other: MemoryEventStore;
beforeEach(() => ({ store, other } = twoWritersOnOneLog()));

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
