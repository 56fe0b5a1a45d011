import { event, stream, type ContractContext } from './contract-fixture';

/** Appending to a stream and reading it back, retries included. */
export function appendContract(current: ContractContext): void {
  describe('appending and reading a stream', () => {
    it('numbers a new stream from revision 0 and reads it back in order', async () => {
      const name = stream();
      const result = await current.store.append(name, [event('A', { a: 1 }), event('B', { b: [2] })], 'no_stream');
      expect(result.nextExpectedRevision).toBe(1n);
      const read = await current.store.readStream(name);
      expect(read.map((e) => [e.type, e.revision, e.data])).toEqual([
        ['A', 0n, { a: 1 }],
        ['B', 1n, { b: [2] }],
      ]);
      expect(read[1].position).toBe(result.position);
      expect(read[0].streamName).toBe(name);
      expect(Number.isNaN(Date.parse(read[0].recordedAt))).toBe(false);
    });

    it('reads an unknown stream as empty', async () => {
      expect(await current.store.readStream(stream())).toEqual([]);
      expect(await current.store.readLastEvent(stream())).toBeUndefined();
    });

    it("reads a stream's last event alone", async () => {
      const name = stream();
      await current.store.append(name, [event('First'), event('Second'), event('Last')], 'no_stream');
      expect(await current.store.readLastEvent(name)).toMatchObject({ type: 'Last', revision: 2n, streamName: name });
    });

    it('reads part of a stream: from a revision on, at most a number of events', async () => {
      const name = stream();
      await current.store.append(
        name,
        ['e0', 'e1', 'e2', 'e3', 'e4'].map((type) => event(type)),
        'no_stream',
      );
      const types = async (range: { fromRevision?: bigint; maxCount?: number }) =>
        (await current.store.readStream(name, range)).map((e) => `${e.type}@${e.revision}`);
      expect(await types({ fromRevision: 2n })).toEqual(['e2@2', 'e3@3', 'e4@4']);
      expect(await types({ fromRevision: 1n, maxCount: 2 })).toEqual(['e1@1', 'e2@2']);
      expect(await types({ maxCount: 1 })).toEqual(['e0@0']);
      expect(await types({})).toEqual(['e0@0', 'e1@1', 'e2@2', 'e3@3', 'e4@4']);
      expect(await types({ fromRevision: 5n })).toEqual([]);
      expect(await current.store.readStream(stream(), { fromRevision: 1n, maxCount: 3 })).toEqual([]);
    });

    it('appends at the exact expected revision', async () => {
      const name = stream();
      const first = await current.store.append(name, [event()], 'no_stream');
      const second = await current.store.append(name, [event()], first.nextExpectedRevision);
      expect(second.nextExpectedRevision).toBe(1n);
      expect(second.position > first.position).toBe(true);
    });
  });

  describe('idempotent appends', () => {
    it('stores an event id once when the same append is retried', async () => {
      const name = stream();
      const events = [event(), event()];
      const first = await current.store.append(name, events, 'no_stream');
      const retried = await current.store.append(name, events, 'no_stream');
      expect(retried.position).toBe(first.position);
      expect(retried.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect(await current.store.readStream(name)).toHaveLength(2);
    });
  });
}
