// Proves the test server against the real @eventstore/db-client 6.2.1.
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  binaryEvent,
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type Position,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import { startEsdbTestServer, type EsdbTestServer } from './index';

const servers: EsdbTestServer[] = [];
const clients: EventStoreDBClient[] = [];

async function connect(): Promise<{ server: EsdbTestServer; client: EventStoreDBClient }> {
  const server = await startEsdbTestServer();
  const client = EventStoreDBClient.connectionString(server.connectionString);
  servers.push(server);
  clients.push(client);
  return { server, client };
}

afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await Promise.all(servers.map((server) => server.stop()));
});

async function collect<E extends ResolvedEvent>(stream: AsyncIterable<E>): Promise<E[]> {
  const events: E[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const event = (type: string, data: Record<string, unknown>, id: string = randomUUID()) => jsonEvent({ id, type, data });

/** Resolves when `predicate` holds, polling the received events. */
async function until(predicate: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('esdb test server: streams', () => {
  let client: EventStoreDBClient;
  let server: EsdbTestServer;
  beforeAll(async () => ({ client, server } = await connect()));

  it('appends JSON and binary events and reads them back with revisions from 0', async () => {
    const stream = `order-${randomUUID()}`;
    const first = jsonEvent({ type: 'OrderPlaced', data: { total: 12 }, metadata: { by: 'alice' } });
    const result = await client.appendToStream(stream, [first, event('OrderPaid', { ok: true })], { expectedRevision: NO_STREAM });
    expect(result).toMatchObject({ success: true, nextExpectedRevision: 1n });
    expect(result.position?.commit).toBe(result.position?.prepare);
    await client.appendToStream(stream, binaryEvent({ type: 'Blob', data: Uint8Array.from([1, 2, 3]) }), { expectedRevision: 1n });

    const events = await collect(client.readStream(stream));
    expect(events.map((e) => [e.event?.revision, e.event?.type, e.event?.streamId])).toEqual([
      [0n, 'OrderPlaced', stream],
      [1n, 'OrderPaid', stream],
      [2n, 'Blob', stream],
    ]);
    expect(events[0].event).toMatchObject({ id: first.id, isJson: true, data: { total: 12 }, metadata: { by: 'alice' } });
    expect(events[2].event).toMatchObject({ isJson: false, data: Uint8Array.from([1, 2, 3]) });
    expect(events[1].event?.position).toEqual(result.position);
    expect(Math.abs(events[0].event!.created.getTime() - Date.now())).toBeLessThan(60_000);
    expect(server.log.stream(stream)).toHaveLength(3);
  });

  it('refuses a wrong expected revision with the actual revision', async () => {
    const stream = `account-${randomUUID()}`;
    await client.appendToStream(stream, [event('A', {}), event('B', {})]);

    const stale = client.appendToStream(stream, event('C', {}), { expectedRevision: 0n });
    await expect(stale).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await expect(stale).rejects.toMatchObject({ streamName: stream, expectedVersion: 0n, actualVersion: 1n });
    await expect(client.appendToStream(stream, event('C', {}), { expectedRevision: NO_STREAM })).rejects.toMatchObject({
      expectedVersion: NO_STREAM,
      actualVersion: 1n,
    });
    await expect(client.appendToStream(`missing-${randomUUID()}`, event('C', {}), { expectedRevision: STREAM_EXISTS })).rejects.toMatchObject({
      expectedVersion: STREAM_EXISTS,
      actualVersion: NO_STREAM,
    });
    await expect(client.appendToStream(`missing-${randomUUID()}`, event('C', {}), { expectedRevision: 3n })).rejects.toMatchObject({
      expectedVersion: 3n,
      actualVersion: NO_STREAM,
    });
    expect(await client.appendToStream(stream, event('C', {}), { expectedRevision: 1n })).toMatchObject({ nextExpectedRevision: 2n });
    expect(await client.appendToStream(stream, event('D', {}), { expectedRevision: STREAM_EXISTS })).toMatchObject({ nextExpectedRevision: 3n });
  });

  it('answers wrong expected version without throwing when throwOnAppendFailure is off', async () => {
    const lenient = EventStoreDBClient.connectionString(`${server.connectionString}&throwOnAppendFailure=false`);
    clients.push(lenient);
    const stream = `lenient-${randomUUID()}`;
    await lenient.appendToStream(stream, event('A', {}));
    expect(await lenient.appendToStream(stream, event('B', {}), { expectedRevision: 5n })).toEqual({
      success: false,
      nextExpectedRevision: 0n,
      position: undefined,
    });
  });

  it('treats the same event ids at the same expected revision as an idempotent retry', async () => {
    const stream = `idem-${randomUUID()}`;
    const batch = [event('A', { n: 1 }), event('B', { n: 2 })];
    const written = await client.appendToStream(stream, batch, { expectedRevision: NO_STREAM });
    const retried = await client.appendToStream(stream, batch, { expectedRevision: NO_STREAM });
    expect(retried).toEqual(written);

    const next = event('C', { n: 3 });
    await client.appendToStream(stream, next, { expectedRevision: 1n });
    expect(await client.appendToStream(stream, next, { expectedRevision: 1n })).toMatchObject({ nextExpectedRevision: 2n });
    expect(await client.appendToStream(stream, next, { expectedRevision: ANY })).toMatchObject({ nextExpectedRevision: 2n });
    expect((await collect(client.readStream(stream))).map((e) => e.event?.type)).toEqual(['A', 'B', 'C']);
  });

  it('reads a stream forwards and backwards from START, END and a revision, honouring maxCount', async () => {
    const stream = `seq-${randomUUID()}`;
    await client.appendToStream(stream, ['e0', 'e1', 'e2', 'e3'].map((type) => event(type, {})));
    const types = async (options: Parameters<EventStoreDBClient['readStream']>[1]) =>
      (await collect(client.readStream(stream, options))).map((e) => e.event?.type);

    expect(await types({ direction: BACKWARDS, fromRevision: END, maxCount: 1 })).toEqual(['e3']);
    expect(await types({ direction: BACKWARDS, fromRevision: END })).toEqual(['e3', 'e2', 'e1', 'e0']);
    expect(await types({ direction: BACKWARDS, fromRevision: 2n, maxCount: 2 })).toEqual(['e2', 'e1']);
    expect(await types({ direction: FORWARDS, fromRevision: 1n, maxCount: 2 })).toEqual(['e1', 'e2']);
    expect(await types({ direction: FORWARDS, fromRevision: START, maxCount: 1 })).toEqual(['e0']);
    expect(await types({ direction: FORWARDS, fromRevision: END })).toEqual([]);
    expect(await types({ fromRevision: 10n })).toEqual([]);
  });

  it('reports a missing stream as StreamNotFoundError', async () => {
    const stream = `nothing-${randomUUID()}`;
    const read = collect(client.readStream(stream));
    await expect(read).rejects.toBeInstanceOf(StreamNotFoundError);
    await expect(collect(client.readStream(stream))).rejects.toMatchObject({ streamName: stream });
  });
});

describe('esdb test server: $all', () => {
  let client: EventStoreDBClient;
  beforeAll(async () => ({ client } = await connect()));

  it('reads $all in append order with commit = prepare positions growing across streams', async () => {
    const a1 = await client.appendToStream('a', event('a1', { pad: 'x'.repeat(100) }));
    await client.appendToStream('b', [event('b1', {}), event('b2', {})]);
    await client.appendToStream('a', event('a2', {}));

    const all = await collect(client.readAll());
    expect(all.map((e) => `${e.event?.streamId}/${e.event?.type}@${e.event?.revision}`)).toEqual(['a/a1@0', 'b/b1@0', 'b/b2@1', 'a/a2@1']);
    const positions = all.map((e) => e.event!.position!);
    positions.forEach((p) => expect(p.commit).toBe(p.prepare));
    positions.slice(1).forEach((p, i) => expect(p.commit).toBeGreaterThan(positions[i].commit));
    expect(positions[0]).toEqual(a1.position);
    expect(all.map((e) => e.commitPosition)).toEqual(positions.map((p) => p.commit));
    // The first event is not at 0: a position of {0,0} stays "before everything".
    expect(positions[0].commit).toBeGreaterThan(0n);

    const types = async (options: Parameters<EventStoreDBClient['readAll']>[0]) => (await collect(client.readAll(options))).map((e) => e.event?.type);
    expect(await types({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })).toEqual(['a2']);
    expect(await types({ direction: BACKWARDS, fromPosition: END })).toEqual(['a2', 'b2', 'b1', 'a1']);
    expect(await types({ direction: FORWARDS, fromPosition: START, maxCount: 2 })).toEqual(['a1', 'b1']);
    expect(await types({ direction: FORWARDS, fromPosition: END })).toEqual([]);
    expect(await types({ direction: BACKWARDS, fromPosition: START })).toEqual([]);
    // Forwards from a position includes the event at it; backwards from it excludes it.
    expect(await types({ direction: FORWARDS, fromPosition: positions[1], maxCount: 2 })).toEqual(['b1', 'b2']);
    expect(await types({ direction: BACKWARDS, fromPosition: positions[2] })).toEqual(['b1', 'a1']);
  });
});

describe('esdb test server: subscribeToAll', () => {
  let client: EventStoreDBClient;
  beforeAll(async () => ({ client } = await connect()));

  function record(subscription: AllStreamSubscription) {
    const seen: string[] = [];
    subscription.on('data', (resolved: AllStreamResolvedEvent) => seen.push(`${resolved.event?.streamId}/${resolved.event?.type}`));
    subscription.on('caughtUp', () => seen.push('caughtUp'));
    subscription.on('error', () => undefined);
    return seen;
  }

  it('delivers the existing events, then caughtUp, then live events without gaps or duplicates', async () => {
    await client.appendToStream('s-1', [event('old1', {}), event('old2', {})]);
    const subscription = client.subscribeToAll({ fromPosition: START });
    const seen = record(subscription);
    await until(() => seen.includes('caughtUp'), 'caughtUp');
    expect(seen).toEqual(['s-1/old1', 's-1/old2', 'caughtUp']);

    const live = Array.from({ length: 20 }, (_, i) => client.appendToStream(`s-${i % 3}`, event(`live${i}`, {})));
    await Promise.all(live);
    await until(() => seen.length === 23, 'the live events');
    expect(seen.slice(3).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `s-${i % 3}/live${i}`).sort());
    const order = (await collect(client.readAll())).map((e) => `${e.event?.streamId}/${e.event?.type}`);
    expect(seen.filter((s) => s !== 'caughtUp')).toEqual(order);
    await subscription.unsubscribe();
  });

  it('honours a stream-name prefix filter and reports checkpoints at the filter interval', async () => {
    const { client: fresh } = await connect();
    for (let i = 0; i < 6; i += 1) await fresh.appendToStream(i % 2 ? 'other-1' : 'wanted-1', event(`e${i}`, {}));
    const checkpoints: Position[] = [];
    // maxSearchWindow 2 x checkpointInterval 1: a checkpoint after every 2 events considered.
    const subscription = fresh.subscribeToAll({
      fromPosition: START,
      filter: streamNameFilter({ prefixes: ['wanted-'], maxSearchWindow: 2, checkpointInterval: 1, checkpointReached: (_s, p) => void checkpoints.push(p) }),
    });
    const seen = record(subscription);
    await until(() => seen.includes('caughtUp'), 'caughtUp');
    expect(seen).toEqual(['wanted-1/e0', 'wanted-1/e2', 'wanted-1/e4', 'caughtUp']);
    const all = (await collect(fresh.readAll())).map((e) => e.event!.position!);
    expect(checkpoints).toEqual([all[1], all[3], all[5]]);

    await fresh.appendToStream('other-1', event('e6', {}));
    await fresh.appendToStream('wanted-2', event('e7', {}));
    await until(() => seen.length === 5 && checkpoints.length === 4, 'the live event and checkpoint');
    expect(seen[4]).toBe('wanted-2/e7');
    expect(checkpoints[3].commit).toBeGreaterThan(all[5].commit);
    await subscription.unsubscribe();
  });

  it('subscribes after a position (exclusive) and filters on event types, by prefix or regex', async () => {
    const { client: fresh } = await connect();
    const first = await fresh.appendToStream('t-1', [event('Keep', {}), event('$system', {}), event('Drop', {}), event('Keep', {})]);
    const all = await collect(fresh.readAll());

    const fromPosition = all[0].event!.position!;
    const after = record(fresh.subscribeToAll({ fromPosition }));
    const byType = record(fresh.subscribeToAll({ fromPosition: START, filter: eventTypeFilter({ prefixes: ['Ke'] }) }));
    const noSystem = record(fresh.subscribeToAll({ fromPosition: START, filter: excludeSystemEvents() }));
    const fromEnd = record(fresh.subscribeToAll({ fromPosition: END }));
    await until(() => [after, byType, noSystem, fromEnd].every((s) => s.includes('caughtUp')), 'caughtUp');
    expect(first.position).toEqual(all[3].event!.position);
    expect(after).toEqual(['t-1/$system', 't-1/Drop', 't-1/Keep', 'caughtUp']);
    expect(byType).toEqual(['t-1/Keep', 't-1/Keep', 'caughtUp']);
    expect(noSystem).toEqual(['t-1/Keep', 't-1/Drop', 't-1/Keep', 'caughtUp']);
    expect(fromEnd).toEqual(['caughtUp']);
    await fresh.appendToStream('t-2', event('Late', {}));
    await until(() => fromEnd.length === 2, 'the live event');
    expect(fromEnd).toEqual(['caughtUp', 't-2/Late']);
  });
});

describe('esdb test server: simulated outage', () => {
  it('fails calls and subscriptions with UNAVAILABLE during the outage and serves the same data after', async () => {
    const { server, client } = await connect();
    const stream = `outage-${randomUUID()}`;
    await client.appendToStream(stream, event('before', {}));
    // A second client that is connected but makes no call during the outage.
    const idle = EventStoreDBClient.connectionString(server.connectionString);
    clients.push(idle);
    await collect(idle.readStream(stream));
    const subscription = client.subscribeToAll({ fromPosition: START });
    const seen: string[] = [];
    const errors: Error[] = [];
    subscription.on('data', (e: AllStreamResolvedEvent) => seen.push(e.event!.type));
    subscription.on('error', (error: Error) => errors.push(error));
    await until(() => seen.length === 1, 'the subscription');

    const outage = server.simulateOutage(700);
    await until(() => errors.length === 1, 'the subscription to drop');
    expect(errors[0]).toMatchObject({ type: 'unavailable' });
    // Once the listener is closed, the connection is refused.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const append = await client.appendToStream(stream, event('during', {})).catch((error: unknown) => error);
    const read = await collect(client.readStream(stream)).catch((error: unknown) => error);
    // appendToStream rejects with the raw gRPC error (its sink's 'error' event comes before the
    // converted one), reads with the client's UnavailableError: both carry code 14 UNAVAILABLE.
    expect(append).toMatchObject({ code: 14 });
    expect(read).toMatchObject({ code: 14, type: 'unavailable' });
    await outage;

    await client.appendToStream(stream, event('after', {}), { expectedRevision: 0n });
    expect((await collect(client.readStream(stream))).map((e) => e.event?.type)).toEqual(['before', 'after']);
    const again = await collect(client.readAll());
    expect(again.map((e) => e.event?.type)).toEqual(['before', 'after']);
    expect((await collect(idle.readStream(stream))).map((e) => e.event?.type)).toEqual(['before', 'after']);
    // A subscription is not resumed by the client: subscribing again catches up with everything.
    const resubscribed = client.subscribeToAll({ fromPosition: START });
    const replay: string[] = [];
    resubscribed.on('data', (e: AllStreamResolvedEvent) => replay.push(e.event!.type));
    await until(() => replay.length === 2, 'the new subscription');
    expect(replay).toEqual(['before', 'after']);
    await resubscribed.unsubscribe();
  });
});
