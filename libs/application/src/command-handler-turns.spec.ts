import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryEventStore } from '@gw/event-store/memory';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { handleCommand, StreamStateCache } from './command-handler';
import { add, counter, twoWritersOnOneLog, type Total } from './test/counter-stream';

// Commands on one stream in one process take turns (stream-lanes.ts), on the embedded store too.

// Two writers on one log: `store`, whose reads and appends are under test, and `other`, a concurrent writer.
let store: MemoryEventStore;
let other: MemoryEventStore;
beforeEach(() => ({ store, other } = twoWritersOnOneLog()));

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
