import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent, SubscriptionMessage } from '../event-store.port';
import { SqliteEventStore } from './sqlite-event-store';

/** A log of 200 events in which every 37th is in a `rare-` stream: a filter on it matches few. */
async function sparseLog(store: SqliteEventStore): Promise<string[]> {
  const rare: string[] = [];
  for (let i = 1; i <= 200; i++) {
    const stream = i % 37 === 0 ? `rare-${i}` : `common-${i % 5}`;
    if (stream.startsWith('rare-')) rare.push(`e${i}`);
    await store.append(stream, [{ id: `e${i}`, type: i % 37 === 0 ? 'Rare' : 'Common', data: { i } }], 'any');
  }
  return rare;
}

describe('filtered reads of the embedded store, in windows of positions', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-filtered-'));
    // A window of 7 positions: the 200 events take 29 queries.
    store = new SqliteEventStore({
      file: join(dir, 'events.sqlite'),
      filterWindow: 7,
      batchSize: 3,
      pollIntervalMs: 20,
    });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds every matching event across windows, in order, from any position, up to maxCount', async () => {
    const rare = await sparseLog(store);
    const ids = (events: RecordedEvent[]) => events.map((e) => e.id);
    expect(ids(await store.readAll({ filter: { streamNamePrefixes: ['rare-'] } }))).toEqual(rare);
    expect(ids(await store.readAll({ filter: { eventTypes: ['Rare'] } }))).toEqual(rare);
    expect(ids(await store.readAll({ filter: { streamNamePrefixes: ['rare-'] }, maxCount: 3 }))).toEqual(
      rare.slice(0, 3),
    );
    const [, second] = await store.readAll({ filter: { streamNamePrefixes: ['rare-'] } });
    expect(ids(await store.readAll({ after: second.position, filter: { streamNamePrefixes: ['rare-'] } }))).toEqual(
      rare.slice(2),
    );
    expect(await store.readAll({ filter: { streamNamePrefixes: ['none-'] } })).toEqual([]);
    // A dense filter still comes back whole and in position order.
    const common = await store.readAll({ filter: { streamNamePrefixes: ['common-'] } });
    expect(common).toHaveLength(200 - rare.length);
    expect(common.every((e, i) => i === 0 || e.position > common[i - 1].position)).toBe(true);
  });

  it('lets the event loop turn between windows while it reads', async () => {
    await sparseLog(store);
    let turns = 0;
    const ticking = setInterval(() => (turns += 1), 0);
    const counting = (async () => {
      // Each window is its own turn: a timer set before the read runs before it ends.
      let seen = 0;
      for (let i = 0; i < 5; i++) seen += (await store.readAll({ filter: { streamNamePrefixes: ['rare-'] } })).length;
      return seen;
    })();
    try {
      expect(await counting).toBe(25);
      expect(turns).toBeGreaterThan(0);
    } finally {
      clearInterval(ticking);
    }
  });

  it('delivers a sparse subscription whole, then a checkpoint at the head and caught up', async () => {
    const rare = await sparseLog(store);
    const head = await store.headPosition();
    const controller = new AbortController();
    const seen: SubscriptionMessage[] = [];
    for await (const message of store.subscribeToAll({
      filter: { streamNamePrefixes: ['rare-'] },
      signal: controller.signal,
    })) {
      seen.push(message);
      if (message.kind === 'caughtUp') controller.abort();
    }
    expect(seen.filter((m) => m.kind === 'event').map((m) => (m.kind === 'event' ? m.event.id : ''))).toEqual(rare);
    expect(seen.slice(-2)).toEqual([
      { kind: 'checkpoint', position: head },
      { kind: 'caughtUp', position: head },
    ]);
  });

  it('stops scanning windows once its subscription is aborted, and reports nothing of that scan', async () => {
    const rare = await sparseLog(store);
    const reads = store['filteredReads'];
    const controller = new AbortController();
    let queries = 0;
    const read = reads.events.bind(reads);
    jest.spyOn(reads, 'events').mockImplementation((...args) => {
      // Aborted during the sixth window's query, which finds the first rare event (position 37): no
      // seventh is made (29 windows make the whole log), and what was found is not delivered.
      if (++queries === 6) controller.abort();
      return read(...args);
    });
    const seen: SubscriptionMessage[] = [];
    for await (const message of store.subscribeToAll({
      filter: { streamNamePrefixes: ['rare-'] },
      signal: controller.signal,
    }))
      seen.push(message);
    expect(queries).toBe(6);
    expect(rare[0]).toBe('e37');
    expect(seen).toEqual([]);
  });

  it('refuses a window that would never move on', () => {
    for (const filterWindow of [0, -1, 1.5, Number.NaN]) {
      expect(() => new SqliteEventStore({ file: join(dir, `w${filterWindow}.sqlite`), filterWindow })).toThrow(
        /filterWindow must be a positive integer/,
      );
    }
  });
});
