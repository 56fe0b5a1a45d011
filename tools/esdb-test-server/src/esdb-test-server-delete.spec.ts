// Proves the test server's soft delete against the real @eventstore/db-client 6.2.1.
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import type { EsdbTestServer } from './index';
import { collect, connect, event } from './__fixtures__/esdb-clients';

describe('esdb test server: deleting streams (soft delete)', () => {
  let client: EventStoreDBClient;
  let server: EsdbTestServer;
  beforeAll(async () => ({ client, server } = await connect()));

  const types = async (stream: string, options?: Parameters<EventStoreDBClient['readStream']>[1]) =>
    (await collect(client.readStream(stream, options))).map((e) => `${e.event?.type}@${e.event?.revision}`);

  it('reads a deleted stream as not found, keeps its events in $all and records the deletion in its metastream', async () => {
    const stream = `gone-${randomUUID()}`;
    await client.appendToStream(stream, [event('A', {}), event('B', {})], { expectedRevision: NO_STREAM });
    const deleted = await client.deleteStream(stream);
    expect(deleted.position?.commit).toBeGreaterThan(0n);

    await expect(collect(client.readStream(stream))).rejects.toBeInstanceOf(StreamNotFoundError);
    await expect(
      collect(client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })),
    ).rejects.toBeInstanceOf(StreamNotFoundError);
    const all = await collect(client.readAll());
    expect(all.filter((e) => e.event?.streamId === stream).map((e) => e.event?.type)).toEqual(['A', 'B']);
    const [metadata] = await collect(client.readStream(`$$${stream}`));
    expect(metadata.event).toMatchObject({ type: '$metadata', data: { $tb: expect.any(Number) } });
    expect(metadata.event?.position).toEqual(deleted.position);
  });

  it('recreates a deleted stream on no_stream or any, its revisions continuing after the old ones', async () => {
    const stream = `again-${randomUUID()}`;
    await client.appendToStream(stream, [event('Old0', {}), event('Old1', {})]);
    await client.deleteStream(stream);
    await expect(
      client.appendToStream(stream, event('X', {}), { expectedRevision: STREAM_EXISTS }),
    ).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await expect(client.appendToStream(stream, event('X', {}), { expectedRevision: 1n })).rejects.toBeInstanceOf(
      WrongExpectedVersionError,
    );

    const recreated = await client.appendToStream(stream, event('New', {}), { expectedRevision: NO_STREAM });
    expect(recreated.nextExpectedRevision).toBe(2n);
    await client.appendToStream(stream, event('Newer', {}), { expectedRevision: 2n });
    expect(await types(stream)).toEqual(['New@2', 'Newer@3']);
    expect(await types(stream, { direction: BACKWARDS, fromRevision: END })).toEqual(['Newer@3', 'New@2']);
    expect(await types(stream, { direction: FORWARDS, fromRevision: 0n })).toEqual(['New@2', 'Newer@3']);
    const metadata = await collect(client.readStream(`$$${stream}`));
    expect(metadata.map((e) => e.event?.data)).toEqual([{ $tb: expect.any(Number) }, { $tb: 2 }]);

    await client.deleteStream(stream);
    expect(
      (await client.appendToStream(stream, event('Third', {}), { expectedRevision: ANY })).nextExpectedRevision,
    ).toBe(4n);
    expect(await types(stream)).toEqual(['Third@4']);
  });

  it('checks the expected revision of a delete, and deletes a missing stream as a no-op', async () => {
    const stream = `checked-${randomUUID()}`;
    await client.appendToStream(stream, [event('A', {}), event('B', {})]);
    await expect(client.deleteStream(stream, { expectedRevision: 0n })).rejects.toMatchObject({
      constructor: WrongExpectedVersionError,
      streamName: stream,
      expectedVersion: 0n,
      actualVersion: 1n,
    });
    await expect(client.deleteStream(stream, { expectedRevision: NO_STREAM })).rejects.toBeInstanceOf(
      WrongExpectedVersionError,
    );
    await client.deleteStream(stream, { expectedRevision: 1n });
    expect(await client.deleteStream(`missing-${randomUUID()}`)).toEqual({});
    expect(await client.deleteStream(stream)).toEqual({});
  });

  it('lets a test alter the stored bytes of an event, as editing the database files would', async () => {
    const stream = `tampered-${randomUUID()}`;
    await client.appendToStream(stream, [event('A', { amount: 100 }), event('B', { amount: 5 })]);
    server.log.alterEvent(stream, 1, { data: Buffer.from('{"amount":9}') });
    const events = await collect(client.readStream(stream));
    expect(events.map((e) => e.event?.data)).toEqual([{ amount: 100 }, { amount: 9 }]);
    expect(() => server.log.alterEvent(stream, 7, { data: Buffer.from('{}') })).toThrow();
  });
});
