import { WrongExpectedRevisionError } from '../../event-store.errors';
import { collect, event, stream, type ContractContext } from './contract-fixture';

/** Deleting a stream for good, and recreating it. */
export function deleteContract(current: ContractContext): void {
  describe('deleting a stream', () => {
    it('reads a deleted stream as missing, for every client, and leaves other streams alone', async () => {
      const gone = stream('gone');
      const kept = stream('kept');
      await current.store.append(gone, [event('A'), event('B')], 'no_stream');
      await current.store.append(kept, [event('K')], 'no_stream');
      await current.store.deleteStream(gone);
      const other = await current.fixture.openAnother();
      try {
        for (const client of [current.store, other]) {
          expect(await client.readStream(gone)).toEqual([]);
          expect(await client.readLastEvent(gone)).toBeUndefined();
          expect((await client.readStream(kept)).map((e) => e.type)).toEqual(['K']);
        }
      } finally {
        await other.close();
      }
    });

    it('never returns its events from the global log again (EventStoreDB: until a scavenge)', async () => {
      const start = await current.store.headPosition();
      const gone = stream('gone');
      await current.store.append(gone, [event('Gone')], 'no_stream');
      const marker = await current.store.append(stream('after'), [event('After')], 'no_stream');
      await current.store.deleteStream(gone);
      const all = await current.store.readAll({ after: start });
      const subscribed = await collect(current.store, { after: start }, (seen) =>
        seen.some((e) => e.position === marker.position),
      );
      if (current.harness.deleteKeepsEventsInGlobalLog) {
        // A soft delete: the events stay in $all until a scavenge (docs/api.md).
        expect(all.map((e) => e.type)).toEqual(['Gone', 'After']);
      } else {
        expect(all.map((e) => e.type)).toEqual(['After']);
        expect(subscribed.events.map((e) => e.type)).toEqual(['After']);
      }
    });

    it('is a no-op for a stream that does not exist, or no longer does', async () => {
      await current.store.deleteStream(stream());
      const name = stream();
      await current.store.append(name, [event()], 'no_stream');
      await current.store.deleteStream(name);
      await current.store.deleteStream(name);
      expect(await current.store.readStream(name)).toEqual([]);
    });

    it('treats a deleted stream as missing for expected revisions: stream_exists is refused', async () => {
      const name = stream();
      await current.store.append(name, [event()], 'no_stream');
      await current.store.deleteStream(name);
      await expect(current.store.append(name, [event()], 'stream_exists')).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      expect(await current.store.readStream(name)).toEqual([]);
    });

    it.each(['no_stream', 'any'] as const)(
      'recreates a deleted stream on an append with %s, holding only the new events',
      async (expected) => {
        const name = stream();
        await current.store.append(name, [event('Old'), event('Old')], 'no_stream');
        await current.store.deleteStream(name);
        const recreated = await current.store.append(name, [event('New', { n: 1 })], expected);
        const next = await current.store.append(name, [event('Newer')], recreated.nextExpectedRevision);
        const read = await current.store.readStream(name);
        expect(read.map((e) => e.type)).toEqual(['New', 'Newer']);
        // Revisions of a recreated stream may continue after the old ones (EventStoreDB), or restart.
        expect(read[1].revision).toBe(read[0].revision + 1n);
        expect(read[1].revision).toBe(next.nextExpectedRevision);
        expect(await current.store.readLastEvent(name)).toMatchObject({
          type: 'Newer',
          revision: next.nextExpectedRevision,
        });
        await expect(current.store.append(name, [event()], 'no_stream')).rejects.toBeInstanceOf(
          WrongExpectedRevisionError,
        );
      },
    );
  });
}
