import { event, stream, type ContractContext } from './contract-fixture';

/** Reading the global log: its order, and reads after a position, limited or filtered. */
export function globalLogContract(current: ContractContext): void {
  describe('the global log', () => {
    it('orders events of all streams by a position that only grows', async () => {
      const before = await current.store.headPosition();
      const a = stream();
      const b = stream();
      await current.store.append(a, [event('A1')], 'no_stream');
      await current.store.append(b, [event('B1'), event('B2')], 'no_stream');
      await current.store.append(a, [event('A2')], 0n);
      const all = await current.store.readAll({ after: before });
      expect(all.map((e) => e.type)).toEqual(['A1', 'B1', 'B2', 'A2']);
      for (let i = 1; i < all.length; i++) expect(all[i].position > all[i - 1].position).toBe(true);
      expect(await current.store.headPosition()).toBe(all[all.length - 1].position);
    });

    it('reads after a position, a limited count, and by stream prefix and event type', async () => {
      const before = await current.store.headPosition();
      await current.store.append(stream('keep'), [event('X'), event('Y')], 'no_stream');
      await current.store.append(stream('drop'), [event('X')], 'no_stream');
      await current.store.append(stream('keep'), [event('Z')], 'no_stream');
      const all = await current.store.readAll({ after: before });
      expect(await current.store.readAll({ after: all[1].position })).toEqual(all.slice(2));
      expect(await current.store.readAll({ after: before, maxCount: 2 })).toEqual(all.slice(0, 2));
      const byPrefix = await current.store.readAll({ after: before, filter: { streamNamePrefixes: ['keep-'] } });
      expect(byPrefix.map((e) => e.type)).toEqual(['X', 'Y', 'Z']);
      const byType = await current.store.readAll({ after: before, filter: { eventTypes: ['X'] } });
      expect(byType.map((e) => e.streamName.split('-')[0])).toEqual(['keep', 'drop']);
    });

    it('returns the types a filter names without their data and metadata, everything else about them intact', async () => {
      const before = await current.store.headPosition();
      const name = stream('light');
      await current.store.append(
        name,
        [event('Heavy', { body: 'x'.repeat(5000) }), event('Kept', { n: 2 })],
        'no_stream',
      );
      const full = await current.store.readAll({ after: before });
      const light = await current.store.readAll({
        after: before,
        filter: { streamNamePrefixes: ['light-'], typesWithoutData: ['Heavy'] },
      });
      expect(light).toEqual([{ ...full[0], data: undefined, metadata: {} }, full[1]]);
      expect(light[0]).toEqual(expect.objectContaining({ streamName: name, type: 'Heavy', revision: 0n }));
      // The next read without the option has the data again: nothing was changed in the store.
      const again = (await current.store.readAll({ after: before }))[0];
      expect(again.data).toEqual({ body: 'x'.repeat(5000) });
      expect(again.metadata).toEqual(full[0].metadata);
      expect(Object.keys(full[0].metadata)).not.toHaveLength(0);
    });
  });
}
