// Proves the test server against the real @eventstore/db-client 6.2.1: streams and $all.
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
  jsonEvent,
} from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import type { EsdbTestServer } from './index';
import { clientFor, connect, collect, event } from './__fixtures__/esdb-clients';

describe('esdb test server: streams', () => {
  let client: EventStoreDBClient;
  let server: EsdbTestServer;
  beforeAll(async () => ({ client, server } = await connect()));

  it('appends JSON and binary events and reads them back with revisions from 0', async () => {
    const stream = `order-${randomUUID()}`;
    const first = jsonEvent({ type: 'OrderPlaced', data: { total: 12 }, metadata: { by: 'alice' } });
    const result = await client.appendToStream(stream, [first, event('OrderPaid', { ok: true })], {
      expectedRevision: NO_STREAM,
    });
    expect(result).toMatchObject({ success: true, nextExpectedRevision: 1n });
    expect(result.position?.commit).toBe(result.position?.prepare);
    await client.appendToStream(stream, binaryEvent({ type: 'Blob', data: Uint8Array.from([1, 2, 3]) }), {
      expectedRevision: 1n,
    });

    const events = await collect(client.readStream(stream));
    expect(events.map((e) => [e.event?.revision, e.event?.type, e.event?.streamId])).toEqual([
      [0n, 'OrderPlaced', stream],
      [1n, 'OrderPaid', stream],
      [2n, 'Blob', stream],
    ]);
    expect(events[0].event).toMatchObject({
      id: first.id,
      isJson: true,
      data: { total: 12 },
      metadata: { by: 'alice' },
    });
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
    await expect(
      client.appendToStream(`missing-${randomUUID()}`, event('C', {}), { expectedRevision: STREAM_EXISTS }),
    ).rejects.toMatchObject({
      expectedVersion: STREAM_EXISTS,
      actualVersion: NO_STREAM,
    });
    await expect(
      client.appendToStream(`missing-${randomUUID()}`, event('C', {}), { expectedRevision: 3n }),
    ).rejects.toMatchObject({
      expectedVersion: 3n,
      actualVersion: NO_STREAM,
    });
    expect(await client.appendToStream(stream, event('C', {}), { expectedRevision: 1n })).toMatchObject({
      nextExpectedRevision: 2n,
    });
    expect(await client.appendToStream(stream, event('D', {}), { expectedRevision: STREAM_EXISTS })).toMatchObject({
      nextExpectedRevision: 3n,
    });
  });

  it('answers wrong expected version without throwing when throwOnAppendFailure is off', async () => {
    const lenient = clientFor(`${server.connectionString}&throwOnAppendFailure=false`);
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
    expect(await client.appendToStream(stream, next, { expectedRevision: 1n })).toMatchObject({
      nextExpectedRevision: 2n,
    });
    expect(await client.appendToStream(stream, next, { expectedRevision: ANY })).toMatchObject({
      nextExpectedRevision: 2n,
    });
    expect((await collect(client.readStream(stream))).map((e) => e.event?.type)).toEqual(['A', 'B', 'C']);
  });

  it('reads a stream forwards and backwards from START, END and a revision, honouring maxCount', async () => {
    const stream = `seq-${randomUUID()}`;
    await client.appendToStream(
      stream,
      ['e0', 'e1', 'e2', 'e3'].map((type) => event(type, {})),
    );
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
    expect(all.map((e) => `${e.event?.streamId}/${e.event?.type}@${e.event?.revision}`)).toEqual([
      'a/a1@0',
      'b/b1@0',
      'b/b2@1',
      'a/a2@1',
    ]);
    const positions = all.map((e) => e.event!.position!);
    positions.forEach((p) => expect(p.commit).toBe(p.prepare));
    positions.slice(1).forEach((p, i) => expect(p.commit).toBeGreaterThan(positions[i].commit));
    expect(positions[0]).toEqual(a1.position);
    expect(all.map((e) => e.commitPosition)).toEqual(positions.map((p) => p.commit));
    // The first event is not at 0: a position of {0,0} stays "before everything".
    expect(positions[0].commit).toBeGreaterThan(0n);

    const types = async (options: Parameters<EventStoreDBClient['readAll']>[0]) =>
      (await collect(client.readAll(options))).map((e) => e.event?.type);
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
