import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withEventSchemas } from '@gw/application';
import {
  isNotificationEvent,
  notificationHistory,
  notificationsStreamName,
  type NotificationBody,
  type NotificationEvent,
} from '@gw/domain-notifications';
import type { EventStore, RecordedEvent, StreamRange } from '@gw/event-store';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { InstanceNotifications, type InstanceNotificationsView } from './instance-notifications';

const at = '2026-11-23T10:00:00.000Z';

const bodyOf = (instanceId: string, sequence: number): NotificationBody => ({
  instanceId,
  sequence,
  messages: [
    {
      id: `m${sequence}`,
      fromMe: false,
      type: 'chat',
      time: 1_767_225_600 + sequence,
      sealed: `pd2.20261123.0000000${sequence % 10}.x`,
    },
  ],
});

function created(instanceId: string, sequence: number): NotificationEvent {
  const body = bodyOf(instanceId, sequence);
  return {
    type: 'NotificationCreated',
    data: {
      instanceId,
      webhookId: `msg_${sequence}`,
      sequence,
      body,
      sourceEventIds: [`src-${sequence}`],
      createdAt: at,
    },
  };
}
const delivered = (instanceId: string, sequence: number): NotificationEvent => ({
  type: 'NotificationDelivered',
  data: { instanceId, webhookId: `msg_${sequence}`, sequence, attempt: 1, at, status: 200, durationMs: 3 },
});
const cancelled = (instanceId: string, sequence: number): NotificationEvent => ({
  type: 'NotificationCancelled',
  data: { instanceId, webhookId: `msg_${sequence}`, sequence, reason: 'webhook cleared', at },
});
const redelivered = (instanceId: string, sequence: number): NotificationEvent => ({
  type: 'NotificationRedelivered',
  data: { instanceId, webhookId: `msg_${sequence}`, sequence, body: bodyOf(instanceId, sequence), at },
});

/** The real embedded store's readStream (all InstanceNotifications uses), counting the events it
 * returns, the reads, and the most bytes of data one read returned. */
class CountingStore {
  eventsRead = 0;
  reads = 0;
  largestRead = 0;
  constructor(readonly inner: EventStore) {}
  readStream = async (name: string, range?: StreamRange): Promise<RecordedEvent[]> => {
    const events = await this.inner.readStream(name, range);
    this.eventsRead += events.length;
    this.reads += 1;
    const bytes = events.reduce((sum, event) => sum + Buffer.byteLength(JSON.stringify(event.data)), 0);
    this.largestRead = Math.max(this.largestRead, bytes);
    return events;
  };
}

describe('InstanceNotifications: histories held between requests, on the embedded store', () => {
  let dir: string;
  let store: EventStore;
  let counting: CountingStore;
  const revision = new Map<string, bigint>();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-notifications-'));
    store = withEventSchemas(new SqliteEventStore({ file: join(dir, 'events.sqlite') }));
    counting = new CountingStore(store);
    revision.clear();
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function pageOf(view: InstanceNotificationsView, from: number, limit: number) {
    const records = [];
    for await (const record of view.withBodies(from, limit)) records.push(record);
    return records;
  }
  const notifications = (max?: number) => new InstanceNotifications(counting as unknown as EventStore, max);
  async function append(instanceId: string, events: NotificationEvent[]): Promise<void> {
    const name = notificationsStreamName(instanceId);
    const expected = revision.get(name) ?? 'no_stream';
    const result = await store.append(
      name,
      events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data })),
      expected,
    );
    revision.set(name, result.nextExpectedRevision);
  }
  /** What folding the whole stream once gives: the reference. */
  async function wholeFold(instanceId: string) {
    const events = (await store.readStream(notificationsStreamName(instanceId))).map(({ type, data }) => ({
      type,
      data,
    }));
    return notificationHistory(events.filter(isNotificationEvent));
  }

  it('folds only what was appended since the last request, and answers as a whole fold would', async () => {
    const held = notifications();
    await append('i1', [created('i1', 1), created('i1', 2), delivered('i1', 1), created('i1', 3)]);
    const first = await held.read('i1');
    expect(first.lastSequence).toBe(3);
    expect(await pageOf(first, 1, 100)).toEqual(await wholeFold('i1'));

    // Later events change old notifications' outcomes and add new ones.
    await append('i1', [cancelled('i1', 2), created('i1', 4), redelivered('i1', 1), delivered('i1', 4)]);
    counting.eventsRead = 0;
    const second = await held.read('i1');
    // The four new events only.
    expect(counting.eventsRead).toBe(4);
    expect(second.lastSequence).toBe(4);
    const all = await pageOf(second, 1, 100);
    // Then the page's bodies, at revisions 0, 1, 3 and 5: one read of six events.
    expect(counting.eventsRead).toBe(4 + 6);
    expect(all).toEqual(await wholeFold('i1'));
    expect(all.map((n) => [n.sequence, n.state])).toEqual([
      [1, 'pending'],
      [2, 'cancelled'],
      [3, 'pending'],
      [4, 'delivered'],
    ]);
  });

  it('pages by sequence and reads only the page bodies', async () => {
    const held = notifications();
    const events: NotificationEvent[] = [];
    for (let sequence = 1; sequence <= 50; sequence++) events.push(created('i1', sequence), delivered('i1', sequence));
    await append('i1', events);
    const view = await held.read('i1');
    counting.eventsRead = 0;
    const page = await pageOf(view, 21, 5);
    expect(page.map((n) => n.sequence)).toEqual([21, 22, 23, 24, 25]);
    expect(page.map((n) => n.body)).toEqual([21, 22, 23, 24, 25].map((s) => bodyOf('i1', s)));
    // From the first page body's revision to the last one's: 9 events, not the stream's 100.
    expect(counting.eventsRead).toBe(9);
    expect(await pageOf(view, 51, 5)).toEqual([]);
    expect(await pageOf(view, 10, 3)).toEqual((await wholeFold('i1')).slice(9, 12));
  });

  it('lists references to a range without reading a body, and reads bodies a few at a time as they are taken', async () => {
    const held = notifications();
    const events: NotificationEvent[] = [];
    for (let sequence = 1; sequence <= 30; sequence++) events.push(created('i1', sequence), delivered('i1', sequence));
    await append('i1', events);
    const view = await held.read('i1');
    counting.eventsRead = 0;
    expect(view.refs(3, 5, 100)).toEqual(
      [3, 4, 5].map((sequence) => ({ webhookId: `msg_${sequence}`, sequence, createdRevision: 2 * (sequence - 1) })),
    );
    expect(counting.eventsRead).toBe(0);
    // A reader that stops after the first record has read the first few bodies only.
    for await (const record of view.withBodies(1, 100)) {
      expect(record.sequence).toBe(1);
      break;
    }
    expect(counting.eventsRead).toBeLessThanOrEqual(16);
  });

  it('catches up with a long history of large bodies a few MiB per read, and with one of small events in few reads', async () => {
    const MiB = 1024 * 1024;
    // 120 notifications of one 60 KB message each: 7 MiB of bodies.
    const large = (sequence: number): NotificationEvent => {
      const event = created('big', sequence);
      if (event.type !== 'NotificationCreated' || !('messages' in event.data.body)) throw new Error('a message body');
      event.data.body.messages[0].sealed = `pd2.20261123.00000001.${'x'.repeat(60_000)}`;
      return event;
    };
    for (let first = 1; first <= 120; first += 20)
      await append(
        'big',
        Array.from({ length: 20 }, (_, i) => large(first + i)),
      );
    const held = notifications();
    const view = await held.read('big');
    expect(view.lastSequence).toBe(120);
    // Each read stays near 2 MiB (the one that measured the stream's events: 16 of them, under 1).
    expect(counting.largestRead).toBeLessThan(2.5 * MiB);
    expect(await pageOf(view, 1, 100)).toEqual((await wholeFold('big')).slice(0, 100));

    // 6,000 small events: a first read of a few, then the rest in two.
    const events: NotificationEvent[] = [];
    for (let sequence = 1; sequence <= 3_000; sequence++)
      events.push(created('small', sequence), delivered('small', sequence));
    await append('small', events);
    counting.reads = 0;
    expect((await held.read('small')).lastSequence).toBe(3_000);
    expect(counting.reads).toBe(3);
  });

  it('answers an instance with no notifications with nothing, and sees its first one on the next request', async () => {
    const held = notifications();
    const empty = await held.read('i9');
    expect(empty.lastSequence).toBe(0);
    expect(await pageOf(empty, 1, 100)).toEqual([]);
    await append('i9', [created('i9', 1)]);
    expect((await held.read('i9')).lastSequence).toBe(1);
  });

  it('keeps a view at its moment while later requests catch up', async () => {
    const held = notifications();
    await append('i1', [created('i1', 1)]);
    const view = await held.read('i1');
    await append('i1', [created('i1', 2)]);
    await held.read('i1');
    expect(view.lastSequence).toBe(1);
    expect((await pageOf(view, 1, 100)).map((n) => n.sequence)).toEqual([1]);
  });

  it('folds each event once when requests for one instance overlap', async () => {
    const held = notifications();
    await append('i1', [created('i1', 1), created('i1', 2)]);
    const reads = Promise.all([held.read('i1'), held.read('i1'), held.read('i1')]);
    await append('i1', [delivered('i1', 1), created('i1', 3)]);
    await reads;
    const after = await held.read('i1');
    expect(await pageOf(after, 1, 100)).toEqual(await wholeFold('i1'));
    expect(held.heldCount).toBe(3);
  });

  it('forgets the instances used least recently beyond its budget, and still answers them in full', async () => {
    const held = notifications(5);
    await append('a', [created('a', 1), created('a', 2), created('a', 3)]);
    await append('b', [created('b', 1), created('b', 2), created('b', 3), delivered('b', 2)]);
    await held.read('a');
    expect(held.heldCount).toBe(3);
    await held.read('b');
    // a was used least recently: forgotten, b kept.
    expect(held.heldCount).toBe(3);
    counting.eventsRead = 0;
    const again = await held.read('a');
    expect(counting.eventsRead).toBe(3);
    expect(await pageOf(again, 1, 100)).toEqual(await wholeFold('a'));

    // An instance over the budget alone is answered, and not held; it does not push the others out.
    await append(
      'c',
      [1, 2, 3, 4, 5, 6].map((sequence) => created('c', sequence)),
    );
    const big = await held.read('c');
    expect(big.lastSequence).toBe(6);
    expect(await pageOf(big, 1, 100)).toEqual(await wholeFold('c'));
    expect(held.heldCount).toBe(3);
    counting.eventsRead = 0;
    await held.read('a');
    expect(counting.eventsRead).toBe(0);
  });
});
