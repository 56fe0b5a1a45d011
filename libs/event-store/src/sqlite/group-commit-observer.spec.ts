import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WrongExpectedRevisionError } from '../event-store.errors';
import type { EventStore } from '../event-store.port';
import { openEventStore } from '../open/open-event-store';
import { SqliteEventStore } from './sqlite-event-store';

type Group = { appends: number; events: number; seconds: number };

const event = (id: string) => ({ id, type: 'T', data: { id } });

describe('the embedded store tells an observer of each group commit', () => {
  let dir: string;
  let store: EventStore | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-store-observer-'));
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts the appends and events committed together, and how long the commit took', async () => {
    const groups: Group[] = [];
    store = new SqliteEventStore({
      file: join(dir, 'events.sqlite'),
      onGroupCommitted: (appends, events, seconds) => groups.push({ appends, events, seconds }),
    });
    // Submitted in one turn of the event loop: one group, one transaction.
    await Promise.all([
      store.append('a', [event('a1')], 'no_stream'),
      store.append('b', [event('b1'), event('b2')], 'no_stream'),
      store.append('c', [event('c1'), event('c2'), event('c3')], 'no_stream'),
    ]);
    expect(groups).toEqual([{ appends: 3, events: 6, seconds: expect.any(Number) }]);
    expect(groups[0].seconds).toBeGreaterThan(0);
    expect(groups[0].seconds).toBeLessThan(5);

    await store.append('a', [event('a2')], 0n);
    expect(groups.map((g) => [g.appends, g.events])).toEqual([
      [3, 6],
      [1, 1],
    ]);
  });

  it('leaves out an append that its group refused', async () => {
    const groups: Group[] = [];
    store = new SqliteEventStore({
      file: join(dir, 'events.sqlite'),
      onGroupCommitted: (appends, events, seconds) => groups.push({ appends, events, seconds }),
    });
    await store.append('s', [event('s1')], 'no_stream');
    const [kept, refused] = await Promise.allSettled([
      store.append('t', [event('t1'), event('t2')], 'no_stream'),
      store.append('s', [event('s2'), event('s3')], 'no_stream'),
    ]);
    expect(kept.status).toBe('fulfilled');
    expect(refused.status === 'rejected' && refused.reason).toBeInstanceOf(WrongExpectedRevisionError);
    expect(groups.map((g) => [g.appends, g.events])).toEqual([
      [1, 1],
      [1, 2],
    ]);
  });

  it('keeps appends that committed when the observer throws', async () => {
    store = new SqliteEventStore({
      file: join(dir, 'events.sqlite'),
      onGroupCommitted: () => {
        throw new Error('observer broke');
      },
    });
    await expect(store.append('x', [event('x1')], 'no_stream')).resolves.toEqual({
      nextExpectedRevision: 0n,
      position: 1n,
    });
    expect((await store.readStream('x')).map((e) => e.id)).toEqual(['x1']);
  });

  it('is passed through openEventStore', async () => {
    const groups: Group[] = [];
    store = openEventStore(
      { kind: 'embedded', file: join(dir, 'events.sqlite') },
      { onGroupCommitted: (appends, events, seconds) => groups.push({ appends, events, seconds }) },
    );
    await store.append('o', [event('o1'), event('o2')], 'no_stream');
    expect(groups.map((g) => [g.appends, g.events])).toEqual([[1, 2]]);
  });

  it('takes its group interval through openEventStore (the notifier sets its own)', () => {
    // The store checks the interval before it opens the file: a bad one shows that it got there.
    expect(() =>
      openEventStore({ kind: 'embedded', file: join(dir, 'events.sqlite') }, { groupIntervalMs: -1 }),
    ).toThrow(new RangeError('groupIntervalMs must be a number of milliseconds, 0 or more, not -1'));
    expect(existsSync(join(dir, 'events.sqlite'))).toBe(false);
  });

  /** Appends `store` makes on every turn of the event loop for `ms`, none waiting for the one before. */
  async function steadyStream(target: EventStore, ms: number, prefix: string): Promise<number> {
    const appends: Array<Promise<unknown>> = [];
    const until = performance.now() + ms;
    for (let n = 0; performance.now() < until; n++) {
      appends.push(target.append(`${prefix}${n}`, [event(`${prefix}e${n}`)], 'no_stream'));
      await new Promise((next) => setImmediate(next));
    }
    await Promise.all(appends);
    return appends.length;
  }

  it('spaces a steady stream of group commits while another connection writes to the file', async () => {
    const groups: Group[] = [];
    const file = join(dir, 'events.sqlite');
    store = new SqliteEventStore({
      file,
      groupIntervalMs: 50,
      onGroupCommitted: (appends, events, seconds) => groups.push({ appends, events, seconds }),
    });
    const other = new SqliteEventStore({ file });
    try {
      await other.append('other-0', [event('o0')], 'no_stream');
      // The other connection commits every 5 ms or so while this one streams for 0.3 s.
      let writing = true;
      const elsewhere = (async () => {
        for (let n = 1; writing; n++) {
          await other.append(`other-${n}`, [event(`o${n}`)], 'no_stream');
          await sleep(5);
        }
      })();
      const started = performance.now();
      const appended = await steadyStream(store, 300, 's');
      // Until the last group was answered: longer than the 0.3 s on a busy machine.
      const elapsed = performance.now() - started;
      writing = false;
      await elsewhere;
      // A group or two before the other's commits are seen, then at most one every 50 ms (without
      // the interval: one per commit, about a hundred here).
      expect(groups.length).toBeLessThanOrEqual(3 + Math.ceil((elapsed + 50) / 50));
      expect(groups.reduce((sum, g) => sum + g.appends, 0)).toBe(appended);
    } finally {
      await other.close();
    }
  });

  it('does not space group commits while no other connection writes to the file', async () => {
    const groups: Group[] = [];
    // An interval no test would wait for.
    store = new SqliteEventStore({
      file: join(dir, 'events.sqlite'),
      groupIntervalMs: 60_000,
      onGroupCommitted: (appends, events, seconds) => groups.push({ appends, events, seconds }),
    });
    const started = performance.now();
    const appended = await steadyStream(store, 300, 's');
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(groups.reduce((sum, g) => sum + g.appends, 0)).toBe(appended);
  });

  it('refuses a group interval that is not a number of milliseconds', () => {
    for (const groupIntervalMs of [-1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => new SqliteEventStore({ file: join(dir, 'events.sqlite'), groupIntervalMs })).toThrow(
        /groupIntervalMs must be a number of milliseconds/,
      );
    // Refused before the file is opened (or made).
    expect(existsSync(join(dir, 'events.sqlite'))).toBe(false);
  });
});
