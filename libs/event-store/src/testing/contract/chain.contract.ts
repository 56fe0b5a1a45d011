import { chainHash, storedChain, verifyStreamChain } from '../../event-chain';
import { event, stream, type ContractContext } from './contract-fixture';

/** The hash chain every adapter writes in each event's metadata (event-chain.ts). */
export function chainContract(current: ContractContext): void {
  describe('hash chain', () => {
    it("chains each event to the one before it in its stream, keeping the writer's metadata", async () => {
      const name = stream();
      await current.store.append(
        name,
        [{ ...event('A', { a: [1, 'x'] }), metadata: { z: 1, a: { b: 2 } } }, event('B')],
        'no_stream',
      );
      await current.store.append(name, [{ ...event('C', { c: 'é\u2028"' }), metadata: { by: 'test' } }], 1n);
      await current.store.append(stream(), [event('Elsewhere')], 'no_stream');
      const read = await current.store.readStream(name);
      expect(verifyStreamChain(read)).toEqual({ ok: true });
      expect(read[0].metadata).toEqual({ z: 1, a: { b: 2 }, chain: chainHash('', read[0]) });
      expect(Object.keys(read[0].metadata)).toEqual(['z', 'a', 'chain']);
      expect(storedChain(read[2])).toBe(chainHash(storedChain(read[1])!, read[2]));
      expect(storedChain(read[2])).toMatch(/^[0-9a-f]{64}$/);
    });

    it('ignores a chain the caller passes in metadata, and computes its own', async () => {
      const name = stream();
      await current.store.append(name, [{ ...event(), metadata: { chain: 'forged', kept: true } }], 'no_stream');
      const [read] = await current.store.readStream(name);
      expect(read.metadata).toEqual({ kept: true, chain: chainHash('', { ...read, metadata: { kept: true } }) });
      expect(verifyStreamChain([read])).toEqual({ ok: true });
    });

    it('stays whole when an append is retried', async () => {
      const name = stream();
      const batch = [event('A'), event('B')];
      await current.store.append(name, batch, 'no_stream');
      await current.store.append(name, batch, 'no_stream');
      await current.store.append(name, [batch[1]], 'any');
      await current.store.append(name, [event('C')], 1n);
      const read = await current.store.readStream(name);
      expect(read.map((e) => e.type)).toEqual(['A', 'B', 'C']);
      expect(verifyStreamChain(read)).toEqual({ ok: true });
    });

    it('stays whole under many concurrent appends with any to one stream, from two clients, all of which land', async () => {
      const name = stream();
      const other = await current.fixture.openAnother();
      try {
        const results = await Promise.allSettled(
          Array.from({ length: 16 }, (_, i) =>
            (i % 2 ? other : current.store).append(name, [event('Any', { i }), event('Any', { i })], 'any'),
          ),
        );
        expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
        const read = await current.store.readStream(name);
        expect(read).toHaveLength(32);
        expect(new Set(read.map((e) => storedChain(e))).size).toBe(32);
        expect(verifyStreamChain(read)).toEqual({ ok: true });
      } finally {
        await other.close();
      }
    });

    it('starts again from nothing in a stream deleted and made anew', async () => {
      const name = stream();
      await current.store.append(name, [event('Old'), event('Old')], 'no_stream');
      await current.store.deleteStream(name);
      await current.store.append(name, [event('New')], 'no_stream');
      await current.store.append(name, [event('Newer')], 'any');
      const read = await current.store.readStream(name);
      expect(read.map((e) => e.type)).toEqual(['New', 'Newer']);
      expect(storedChain(read[0])).toBe(chainHash('', read[0]));
      expect(verifyStreamChain(read)).toEqual({ ok: true });
    });

    it('names the event of a stream whose content no longer matches its hash', async () => {
      const name = stream();
      await current.store.append(name, [event('A', { n: 1 }), event('B', { n: 2 }), event('C', { n: 3 })], 'no_stream');
      const read = await current.store.readStream(name);
      const altered = read.map((e) => (e.revision === read[1].revision ? { ...e, data: { n: 20 } } : e));
      expect(verifyStreamChain(altered)).toMatchObject({ ok: false, revision: read[1].revision });
      const withoutMiddle = [read[0], { ...read[2], revision: read[1].revision }];
      expect(verifyStreamChain(withoutMiddle)).toMatchObject({ ok: false, revision: read[1].revision });
    });
  });
}
