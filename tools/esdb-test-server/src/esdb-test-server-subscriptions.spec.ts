// Proves the test server against the real @eventstore/db-client 6.2.1: subscriptions and outages.
import {
  END,
  EventStoreDBClient,
  START,
  eventTypeFilter,
  excludeSystemEvents,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type Position,
} from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import { clientFor, connect, collect, event, until } from './__fixtures__/esdb-clients';

describe('esdb test server: subscribeToAll', () => {
  let client: EventStoreDBClient;
  beforeAll(async () => ({ client } = await connect()));

  function record(subscription: AllStreamSubscription) {
    const seen: string[] = [];
    subscription.on('data', (resolved: AllStreamResolvedEvent) =>
      seen.push(`${resolved.event?.streamId}/${resolved.event?.type}`),
    );
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
      filter: streamNameFilter({
        prefixes: ['wanted-'],
        maxSearchWindow: 2,
        checkpointInterval: 1,
        checkpointReached: (_s, p) => void checkpoints.push(p),
      }),
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
    const first = await fresh.appendToStream('t-1', [
      event('Keep', {}),
      event('$system', {}),
      event('Drop', {}),
      event('Keep', {}),
    ]);
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
    const idle = clientFor(server.connectionString);
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
