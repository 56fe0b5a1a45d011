import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { WrongExpectedRevisionError } from '../event-store.errors';
import type { EventStore, EventToAppend, RecordedEvent, SubscribeOptions, SubscriptionMessage } from '../event-store.port';

/** A fresh, empty store plus a way to open a second client on the same data (another connection,
 * as another process would have). */
export interface StoreFixture {
  store: EventStore;
  openAnother(): Promise<EventStore>;
  /**
   * Starts another process that appends to this store one event at a time, printing each event id
   * on its own stdout line once the append has returned (see append-child.ts). Absent for a store
   * that lives in one process's memory.
   */
  spawnAppender?(streamPrefix: string, concurrency?: number): ChildProcess;
  /** Transactions the store has committed for `store`'s own appends, where the adapter counts them
   * (the embedded store's group commit); absent where the server does the grouping. */
  commits?(store: EventStore): number;
  cleanup(): Promise<void>;
}

export interface EventStoreContractHarness {
  name: string;
  create(): Promise<StoreFixture>;
  /** false for a store that claims no durability (in memory): the SIGKILL cases are not part of
   * its contract, so they are not defined for it (not skipped: they do not exist there). */
  durable?: boolean;
}

const event = (type = 'Tested', data: unknown = { n: 1 }): EventToAppend => ({ id: randomUUID(), type, data });
const stream = (prefix = 'test') => `${prefix}-${randomUUID()}`;

/** Collects subscription messages until `until` says stop or the time runs out. */
export async function collect(
  store: EventStore,
  options: SubscribeOptions,
  until: (events: RecordedEvent[], message: SubscriptionMessage) => boolean,
  timeoutMs = 10_000,
): Promise<{ events: RecordedEvent[]; messages: SubscriptionMessage[] }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const events: RecordedEvent[] = [];
  const messages: SubscriptionMessage[] = [];
  try {
    for await (const message of store.subscribeToAll({ ...options, signal: controller.signal })) {
      messages.push(message);
      if (message.kind === 'event') events.push(message.event);
      if (until(events, message)) break;
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return { events, messages };
}

/**
 * The behaviour every adapter of the event-store port must have. Call it inside a Jest file with a
 * harness for the adapter under test.
 */
export function eventStoreContractSuite(harness: EventStoreContractHarness): void {
  describe(`event store contract: ${harness.name}`, () => {
    let fixture: StoreFixture;
    let store: EventStore;

    beforeEach(async () => {
      fixture = await harness.create();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    describe('appending and reading a stream', () => {
      it('numbers a new stream from revision 0 and reads it back in order', async () => {
        const name = stream();
        const result = await store.append(name, [event('A', { a: 1 }), event('B', { b: [2] })], 'no_stream');
        expect(result.nextExpectedRevision).toBe(1n);
        const read = await store.readStream(name);
        expect(read.map((e) => [e.type, e.revision, e.data])).toEqual([
          ['A', 0n, { a: 1 }],
          ['B', 1n, { b: [2] }],
        ]);
        expect(read[1].position).toBe(result.position);
        expect(read[0].streamName).toBe(name);
        expect(Number.isNaN(Date.parse(read[0].recordedAt))).toBe(false);
      });

      it('reads an unknown stream as empty', async () => {
        expect(await store.readStream(stream())).toEqual([]);
        expect(await store.readLastEvent(stream())).toBeUndefined();
      });

      it("reads a stream's last event alone", async () => {
        const name = stream();
        await store.append(name, [event('First'), event('Second'), event('Last')], 'no_stream');
        expect(await store.readLastEvent(name)).toMatchObject({ type: 'Last', revision: 2n, streamName: name });
      });

      it('appends at the exact expected revision', async () => {
        const name = stream();
        const first = await store.append(name, [event()], 'no_stream');
        const second = await store.append(name, [event()], first.nextExpectedRevision);
        expect(second.nextExpectedRevision).toBe(1n);
        expect(second.position > first.position).toBe(true);
      });
    });

    describe('optimistic concurrency', () => {
      it('refuses no_stream on an existing stream, naming the actual revision', async () => {
        const name = stream();
        await store.append(name, [event()], 'no_stream');
        await expect(store.append(name, [event()], 'no_stream')).rejects.toMatchObject({
          name: 'WrongExpectedRevisionError',
          actual: 0n,
        });
      });

      it('refuses a stale exact revision and writes nothing', async () => {
        const name = stream();
        await store.append(name, [event(), event()], 'no_stream');
        await expect(store.append(name, [event()], 0n)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(name)).toHaveLength(2);
      });

      it('refuses an exact revision or stream_exists on a missing stream', async () => {
        await expect(store.append(stream(), [event()], 0n)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        await expect(store.append(stream(), [event()], 'stream_exists')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      });

      it('lets any append regardless of revision', async () => {
        const name = stream();
        await store.append(name, [event()], 'any');
        await store.append(name, [event()], 'any');
        expect(await store.readStream(name)).toHaveLength(2);
      });

      it('lets exactly one of several writers at the same revision win, across clients', async () => {
        const other = await fixture.openAnother();
        try {
          const name = stream();
          await store.append(name, [event()], 'no_stream');
          const attempts = await Promise.allSettled(
            Array.from({ length: 6 }, (_, i) => (i % 2 ? other : store).append(name, [event()], 0n)),
          );
          expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
          for (const a of attempts) {
            if (a.status === 'rejected') expect(a.reason).toBeInstanceOf(WrongExpectedRevisionError);
          }
          expect(await store.readStream(name)).toHaveLength(2);
        } finally {
          await other.close();
        }
      });
    });

    describe('concurrent appends (group commit)', () => {
      it('lets exactly one of many appends made at once at one expected revision win', async () => {
        const name = stream();
        await store.append(name, [event()], 'no_stream');
        const attempts = await Promise.allSettled(Array.from({ length: 20 }, () => store.append(name, [event()], 0n)));
        expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
        for (const a of attempts) {
          if (a.status === 'rejected') expect(a.reason).toBeInstanceOf(WrongExpectedRevisionError);
        }
        expect(await store.readStream(name)).toHaveLength(2);
      });

      it('keeps every one of many appends made at once to many streams, each with its own result', async () => {
        const commitsBefore = fixture.commits?.(store);
        const names = Array.from({ length: 200 }, () => stream('many'));
        const results = await Promise.all(names.map((name, i) => store.append(name, [event('Many', { i })], 'no_stream')));
        expect(new Set(results.map((r) => r.position)).size).toBe(200);
        for (const r of results) expect(r.nextExpectedRevision).toBe(0n);
        const reader = await fixture.openAnother();
        try {
          for (const [i, name] of names.entries()) expect((await reader.readStream(name)).map((e) => e.data)).toEqual([{ i }]);
        } finally {
          await reader.close();
        }
        if (commitsBefore !== undefined) {
          // One fsync per group, not per append.
          expect(fixture.commits!(store) - commitsBefore).toBeLessThan(200);
        }
      });

      it('refuses only the conflicting append of a group, and keeps the rest', async () => {
        const taken = stream();
        await store.append(taken, [event()], 'no_stream');
        const fresh = [stream(), stream()];
        const [a, conflict, b] = await Promise.allSettled([
          store.append(fresh[0], [event()], 'no_stream'),
          store.append(taken, [event()], 'no_stream'),
          store.append(fresh[1], [event()], 'no_stream'),
        ]);
        expect([a.status, conflict.status, b.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect((conflict as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(taken)).toHaveLength(1);
        for (const name of fresh) expect(await store.readStream(name)).toHaveLength(1);
      });
    });

    describe('idempotent appends', () => {
      it('stores an event id once when the same append is retried', async () => {
        const name = stream();
        const events = [event(), event()];
        const first = await store.append(name, events, 'no_stream');
        const retried = await store.append(name, events, 'no_stream');
        expect(retried.position).toBe(first.position);
        expect(retried.nextExpectedRevision).toBe(first.nextExpectedRevision);
        expect(await store.readStream(name)).toHaveLength(2);
      });

    });

    describe('the global log', () => {
      it('orders events of all streams by a position that only grows', async () => {
        const before = await store.headPosition();
        const a = stream();
        const b = stream();
        await store.append(a, [event('A1')], 'no_stream');
        await store.append(b, [event('B1'), event('B2')], 'no_stream');
        await store.append(a, [event('A2')], 0n);
        const all = await store.readAll({ after: before });
        expect(all.map((e) => e.type)).toEqual(['A1', 'B1', 'B2', 'A2']);
        for (let i = 1; i < all.length; i++) expect(all[i].position > all[i - 1].position).toBe(true);
        expect(await store.headPosition()).toBe(all[all.length - 1].position);
      });

      it('reads after a position, a limited count, and by stream prefix and event type', async () => {
        const before = await store.headPosition();
        await store.append(stream('keep'), [event('X'), event('Y')], 'no_stream');
        await store.append(stream('drop'), [event('X')], 'no_stream');
        await store.append(stream('keep'), [event('Z')], 'no_stream');
        const all = await store.readAll({ after: before });
        expect(await store.readAll({ after: all[1].position })).toEqual(all.slice(2));
        expect(await store.readAll({ after: before, maxCount: 2 })).toEqual(all.slice(0, 2));
        const byPrefix = await store.readAll({ after: before, filter: { streamNamePrefixes: ['keep-'] } });
        expect(byPrefix.map((e) => e.type)).toEqual(['X', 'Y', 'Z']);
        const byType = await store.readAll({ after: before, filter: { eventTypes: ['X'] } });
        expect(byType.map((e) => e.streamName.split('-')[0])).toEqual(['keep', 'drop']);
      });
    });

    if (harness.durable !== false) describe('durability', () => {
      /** Runs an appender child until it acknowledged `count` appends, kills it with SIGKILL, and
       * returns the acknowledged event ids that the store does not have. */
      async function lostAfterKill(concurrency: number, count: number): Promise<string[]> {
        if (!fixture.spawnAppender) throw new Error(`${harness.name} is durable but cannot start an appender process`);
        const child = fixture.spawnAppender(`crash${randomUUID().slice(0, 8)}`, concurrency);
        const acked: string[] = [];
        let buffered = '';
        await new Promise<void>((done, fail) => {
          child.on('error', fail);
          child.on('exit', (code) => (acked.length < count ? fail(new Error(`appender exited early (${code})`)) : undefined));
          child.stdout!.on('data', (chunk: Buffer) => {
            buffered += chunk.toString();
            const lines = buffered.split('\n');
            buffered = lines.pop() ?? '';
            acked.push(...lines);
            if (acked.length >= count) {
              child.kill('SIGKILL');
              done();
            }
          });
        });
        await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r)));
        const reader = await fixture.openAnother();
        try {
          const stored = new Set((await reader.readAll()).map((e) => e.id));
          return acked.filter((id) => !stored.has(id));
        } finally {
          await reader.close();
        }
      }

      it('keeps every acknowledged append when the writing process is killed with SIGKILL', async () => {
        expect(await lostAfterKill(1, 200)).toEqual([]);
      });

      it('keeps every acknowledged append when the process is killed in the middle of a group', async () => {
        // 32 appends in flight at once: the kill lands while groups are being committed.
        expect(await lostAfterKill(32, 2000)).toEqual([]);
      });
    });

    describe('subscriptions', () => {
      it('catches up, signals it, then goes live without gaps or duplicates', async () => {
        const name = stream();
        const start = await store.headPosition();
        await store.append(name, Array.from({ length: 30 }, () => event('Early')), 'no_stream');
        const expected = 30 + 4 * 25;
        const writers = (async () => {
          // Live appends from this client and from a second one, interleaved with the catch-up.
          const other = await fixture.openAnother();
          try {
            for (let i = 0; i < 25; i++) {
              await Promise.all([
                store.append(stream('live'), [event('Live'), event('Live')], 'no_stream'),
                other.append(stream('live'), [event('Other'), event('Other')], 'no_stream'),
              ]);
            }
          } finally {
            await other.close();
          }
        })();
        const { events, messages } = await collect(store, { after: start }, (seen) => seen.length >= expected);
        await writers;
        expect(events).toHaveLength(expected);
        expect(new Set(events.map((e) => e.id)).size).toBe(expected);
        const logged = await store.readAll({ after: start });
        expect(events.map((e) => e.id)).toEqual(logged.map((e) => e.id));
        expect(messages.some((m) => m.kind === 'caughtUp')).toBe(true);
      });

      it('resumes after a position without repeating what came before', async () => {
        const name = stream();
        const start = await store.headPosition();
        await store.append(name, [event('One'), event('Two'), event('Three')], 'no_stream');
        const [one] = await store.readAll({ after: start });
        const { events } = await collect(store, { after: one.position }, (seen) => seen.length >= 2);
        expect(events.map((e) => e.type)).toEqual(['Two', 'Three']);
      });

      it('delivers only matching events and still reports progress to the head', async () => {
        const start = await store.headPosition();
        await store.append(stream('wanted'), [event('W')], 'no_stream');
        await store.append(stream('other'), [event('O'), event('O')], 'no_stream');
        const head = await store.headPosition();
        const { events, messages } = await collect(
          store,
          { after: start, filter: { streamNamePrefixes: ['wanted-'] } },
          (_seen, message) => message.kind === 'caughtUp' && message.position >= head,
        );
        expect(events.map((e) => e.type)).toEqual(['W']);
        const last = messages[messages.length - 1];
        expect(last).toEqual({ kind: 'caughtUp', position: head });
      });

      it('sees events appended by another client while live', async () => {
        const start = await store.headPosition();
        const other = await fixture.openAnother();
        try {
          const received = collect(store, { after: start }, (seen) => seen.length >= 1);
          await new Promise((r) => setTimeout(r, 100));
          await other.append(stream(), [event('FromOther')], 'no_stream');
          const { events } = await received;
          expect(events.map((e) => e.type)).toEqual(['FromOther']);
        } finally {
          await other.close();
        }
      });
    });
  });
}
