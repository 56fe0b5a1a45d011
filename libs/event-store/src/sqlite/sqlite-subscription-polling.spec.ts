import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nextPollWait } from './poll-wait';
import { SqliteEventStore } from './sqlite-event-store';

describe('how often a live subscription looks for other processes’ appends', () => {
  const waits = { busy: 2, quiet: 10 };

  it('looks again soon after a look that found the log moved', () => {
    expect(nextPollWait(10, true, waits)).toBe(2);
    expect(nextPollWait(8, true, waits)).toBe(2);
  });

  it('waits twice as long after each look that found nothing new, up to the quiet interval', () => {
    const seen: number[] = [];
    let wait = nextPollWait(10, true, waits);
    for (let look = 0; look < 5; look++) seen.push((wait = nextPollWait(wait, false, waits)));
    expect(seen).toEqual([4, 8, 10, 10, 10]);
  });

  it("follows another connection's appends closely while they keep coming, whatever the quiet interval", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-poll-'));
    const file = join(dir, 'events.sqlite');
    // A quiet log is looked at only every 5 s here: an append seen within a second was seen by a
    // look the moving log brought forward.
    const store = new SqliteEventStore({ file, pollIntervalMs: 5000, busyPollIntervalMs: 2 });
    const other = new SqliteEventStore({ file });
    const abort = new AbortController();
    const seenAt = new Map<string, number>();
    let caughtUp!: () => void;
    const live = new Promise<void>((resolve) => (caughtUp = resolve));
    const following = (async () => {
      for await (const message of store.subscribeToAll({ signal: abort.signal })) {
        if (message.kind === 'caughtUp') caughtUp();
        if (message.kind === 'event') seenAt.set(message.event.id, performance.now());
      }
    })();
    try {
      await live;
      // This client's own append wakes its subscription at once: the log is moving from here on.
      await store.append('poll-own', [{ id: 'own', type: 'T', data: {} }], 'no_stream');
      const appendedAt = new Map<string, number>();
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        await other.append(
          'poll-other',
          [{ id: `other-${i}`, type: 'T', data: {} }],
          i === 0 ? 'no_stream' : BigInt(i - 1),
        );
        appendedAt.set(`other-${i}`, performance.now());
      }
      const deadline = performance.now() + 10_000;
      while (seenAt.size < 6 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      for (const [id, at] of appendedAt) expect((seenAt.get(id) ?? Number.POSITIVE_INFINITY) - at).toBeLessThan(1000);
    } finally {
      abort.abort();
      await following;
      await Promise.all([store.close(), other.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('a paced subscription (SubscribeOptions.paceMs)', () => {
    let dir: string;
    let store: SqliteEventStore;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'gw-pace-'));
      store = new SqliteEventStore({ file: join(dir, 'events.sqlite'), pollIntervalMs: 10 });
    });
    afterEach(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Follows the log from the start, noting when each event is seen; `onEvent` runs before the next. */
    function follow(paceMs: number | undefined, signal: AbortSignal, onEvent?: (id: string) => Promise<void>) {
      const seenAt = new Map<string, number>();
      let caughtUp!: () => void;
      const live = new Promise<void>((resolve) => (caughtUp = resolve));
      const done = (async () => {
        for await (const message of store.subscribeToAll({ signal, paceMs })) {
          if (message.kind === 'caughtUp') caughtUp();
          if (message.kind === 'event') {
            seenAt.set(message.event.id, performance.now());
            await onEvent?.(message.event.id);
          }
        }
      })();
      return { seenAt, live, done };
    }
    const until = async (done: () => boolean, ms: number) => {
      const deadline = performance.now() + ms;
      while (!done() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    };

    it("is not woken by its own client's appends, and looks at once when nudged", async () => {
      const abort = new AbortController();
      const paced = follow(60_000, abort.signal);
      const unpaced = follow(undefined, abort.signal);
      try {
        await Promise.all([paced.live, unpaced.live]);
        await store.append('pace-a', [{ id: 'a', type: 'T', data: {} }], 'no_stream');
        await until(() => unpaced.seenAt.has('a'), 5000);
        expect(unpaced.seenAt.has('a')).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(paced.seenAt.has('a')).toBe(false);

        store.nudge();
        await until(() => paced.seenAt.has('a'), 5000);
        expect(paced.seenAt.has('a')).toBe(true);
      } finally {
        abort.abort();
        await Promise.all([paced.done, unpaced.done]);
      }
    });

    it('keeps a nudge made while it was reading, and looks again instead of waiting its pace', async () => {
      await store.append('pace-b', [{ id: 'first', type: 'T', data: {} }], 'no_stream');
      const abort = new AbortController();
      // While the subscription is in the middle of its first read (it waits for this callback
      // before going on), a new event is appended and the store nudged.
      const paced = follow(60_000, abort.signal, async (id) => {
        if (id !== 'first') return;
        await store.append('pace-b', [{ id: 'second', type: 'T', data: {} }], 0n);
        store.nudge();
      });
      try {
        await until(() => paced.seenAt.has('second'), 5000);
        expect(paced.seenAt.has('second')).toBe(true);
      } finally {
        abort.abort();
        await paced.done;
      }
    });
  });
});
