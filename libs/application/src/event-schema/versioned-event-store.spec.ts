import { randomUUID } from 'node:crypto';
import type { EventStore, RecordedEvent } from '@gw/event-store';
import { REAL_STORES, type RealStore } from './__fixtures__/real-stores';
import { SAMPLES } from './stored-event-samples';
import {
  UnreadableEventVersion,
  UnregisteredEventType,
  VersionedEventStore,
  WRITTEN_AT_KEY,
  storedForm,
  withEventSchemas,
  writtenAt,
} from './versioned-event-store';

/** NotificationCreated as written before batching (version 1, no schemaVersion in its metadata). */
const legacyCreated = () => {
  const { sourceEventIds: _ids, noticeKey: _key, ...rest } = SAMPLES.NotificationCreated;
  return { id: randomUUID(), type: 'NotificationCreated', data: { ...rest, sourceEventId: 'ev-0' } };
};

async function subscribedEvents(store: EventStore, stream: string): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for await (const message of store.subscribeToAll({ filter: { streamNamePrefixes: [stream] } })) {
    if (message.kind === 'event') events.push(message.event);
    if (message.kind === 'caughtUp') break;
  }
  return events;
}

describe.each(REAL_STORES)('versioned events on %s', (_name, open) => {
  let real: RealStore;
  let store: EventStore;
  beforeAll(async () => {
    real = await open();
    store = withEventSchemas(real.raw);
  });
  afterAll(() => real.stop());
  const stream = () => `versioned-${randomUUID()}`;

  it('stamps the current schema version on append, keeping the writer’s metadata', async () => {
    const name = stream();
    await store.append(
      name,
      [
        {
          id: randomUUID(),
          type: 'MessageReceived',
          data: SAMPLES.MessageReceived,
          metadata: { correlationId: 'c-1' },
        },
        { id: randomUUID(), type: 'NotificationCreated', data: SAMPLES.NotificationCreated },
      ],
      'no_stream',
    );
    const stored = await real.raw.readStream(name);
    expect(stored.map((e) => e.metadata)).toEqual([
      expect.objectContaining({ correlationId: 'c-1', schemaVersion: 1 }),
      expect.objectContaining({ schemaVersion: 3 }),
    ]);
    // The time of the append is in the metadata, under the hash chain, and is what an audit shows.
    const at = stored[0].metadata[WRITTEN_AT_KEY] as string;
    expect(new Date(at).toISOString()).toBe(at);
    expect(Math.abs(Date.parse(at) - Date.now())).toBeLessThan(60_000);
    expect(stored.map(writtenAt)).toEqual([at, at]);
    const unstamped = { ...stored[0], metadata: {}, recordedAt: '2001-02-03T04:05:06.007Z' };
    expect(writtenAt(unstamped)).toBe('2001-02-03T04:05:06.007Z');
  });

  it('refuses to append a type that has no registered schema, and writes nothing', async () => {
    const name = stream();
    const appending = store.append(
      name,
      [
        { id: randomUUID(), type: 'WebhookSet', data: {} },
        { id: randomUUID(), type: 'SomethingNew', data: {} },
      ],
      'no_stream',
    );
    await expect(appending).rejects.toBeInstanceOf(UnregisteredEventType);
    await expect(appending).rejects.toThrow(/SomethingNew/);
    expect(await real.raw.readStream(name)).toEqual([]);
  });

  it('upcasts an older version on every read path, and leaves the stored event as it was', async () => {
    const name = stream();
    await real.raw.append(name, [legacyCreated()], 'no_stream');
    const reads = [
      ...(await store.readStream(name)),
      await store.readLastEvent(name),
      ...(await store.readAll({ filter: { streamNamePrefixes: [name] } })),
      ...(await subscribedEvents(store, name)),
    ];
    expect(reads).toHaveLength(4);
    for (const event of reads) {
      expect(event?.data).toEqual(expect.objectContaining({ sourceEventIds: ['ev-0'] }));
      expect(event?.data).not.toHaveProperty('sourceEventId');
      expect(event?.metadata['schemaVersion']).toBe(3);
    }
    const [stored] = await real.raw.readStream(name);
    expect(stored.data).toHaveProperty('sourceEventId', 'ev-0');
    // The hash chain is over the stored form, which the unwrapped store gives.
    expect(storedForm(store)).toBe(real.raw);
  });

  it('returns an event already in its current version as the store gave it, not a copy', async () => {
    const name = stream();
    await store.append(
      name,
      [{ id: randomUUID(), type: 'InstanceDeleted', data: SAMPLES.InstanceDeleted }],
      'no_stream',
    );
    const [event] = await real.raw.readStream(name);
    expect((store as VersionedEventStore).current(event)).toBe(event);
  });

  it('fails loudly on a version newer than this code knows, naming the event, type and version', async () => {
    const name = stream();
    await real.raw.append(
      name,
      [
        {
          id: randomUUID(),
          type: 'NotificationCreated',
          data: SAMPLES.NotificationCreated,
          metadata: { schemaVersion: 4 },
        },
      ],
      'no_stream',
    );
    const expected = new RegExp(
      `${name}@0 is NotificationCreated version 4, but this code knows NotificationCreated up to version 3`,
    );
    await expect(store.readStream(name)).rejects.toThrow(expected);
    await expect(store.readLastEvent(name)).rejects.toBeInstanceOf(UnreadableEventVersion);
    await expect(store.readAll({ filter: { streamNamePrefixes: [name] } })).rejects.toThrow(expected);
    await expect(subscribedEvents(store, name)).rejects.toThrow(expected);
  });

  it('passes an event of a type it does not know through untouched: typed readers skip it', async () => {
    const name = stream();
    await real.raw.append(
      name,
      [{ id: randomUUID(), type: 'WrittenByANewerVersion', data: { anything: 1 }, metadata: { schemaVersion: 7 } }],
      'no_stream',
    );
    const [event] = await store.readStream(name);
    expect(event).toMatchObject({
      type: 'WrittenByANewerVersion',
      data: { anything: 1 },
      metadata: { schemaVersion: 7 },
    });
  });

  it('lists stream names where the store can, and offers no listing where it cannot', async () => {
    const name = stream();
    await store.append(
      name,
      [{ id: randomUUID(), type: 'InstanceDeleted', data: SAMPLES.InstanceDeleted }],
      'no_stream',
    );
    if (!real.raw.streamNames) {
      // EventStoreDB: callers read the log instead.
      expect(store.streamNames).toBeUndefined();
      return;
    }
    const names: string[] = [];
    for await (const listed of store.streamNames!(name)) names.push(listed);
    expect(names).toEqual([name]);
  });

  it('forwards deleteStream to the store', async () => {
    const name = stream();
    await store.append(
      name,
      [{ id: randomUUID(), type: 'InstanceDeleted', data: SAMPLES.InstanceDeleted }],
      'no_stream',
    );
    await store.deleteStream(name);
    expect(await store.readStream(name)).toEqual([]);
  });
});
