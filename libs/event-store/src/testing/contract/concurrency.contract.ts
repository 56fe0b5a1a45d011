import { WrongExpectedRevisionError } from '../../event-store.errors';
import { event, stream, type ContractContext } from './contract-fixture';

/** Optimistic concurrency, across clients and within one group commit. */
export function concurrencyContract(current: ContractContext): void {
  describe('optimistic concurrency', () => {
    it('refuses no_stream on an existing stream, naming the actual revision', async () => {
      const name = stream();
      await current.store.append(name, [event()], 'no_stream');
      await expect(current.store.append(name, [event()], 'no_stream')).rejects.toMatchObject({
        name: 'WrongExpectedRevisionError',
        actual: 0n,
      });
    });

    it('refuses a stale exact revision and writes nothing', async () => {
      const name = stream();
      await current.store.append(name, [event(), event()], 'no_stream');
      await expect(current.store.append(name, [event()], 0n)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect(await current.store.readStream(name)).toHaveLength(2);
    });

    it('refuses an exact revision or stream_exists on a missing stream', async () => {
      await expect(current.store.append(stream(), [event()], 0n)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(current.store.append(stream(), [event()], 'stream_exists')).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
    });

    it('lets any append regardless of revision', async () => {
      const name = stream();
      await current.store.append(name, [event()], 'any');
      await current.store.append(name, [event()], 'any');
      expect(await current.store.readStream(name)).toHaveLength(2);
    });

    it('lets exactly one of several writers at the same revision win, across clients', async () => {
      const other = await current.fixture.openAnother();
      try {
        const name = stream();
        await current.store.append(name, [event()], 'no_stream');
        const attempts = await Promise.allSettled(
          Array.from({ length: 6 }, (_, i) => (i % 2 ? other : current.store).append(name, [event()], 0n)),
        );
        expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
        for (const a of attempts) {
          if (a.status === 'rejected') expect(a.reason).toBeInstanceOf(WrongExpectedRevisionError);
        }
        expect(await current.store.readStream(name)).toHaveLength(2);
      } finally {
        await other.close();
      }
    });
  });

  describe('concurrent appends (group commit)', () => {
    it('lets exactly one of many appends made at once at one expected revision win', async () => {
      const name = stream();
      await current.store.append(name, [event()], 'no_stream');
      const attempts = await Promise.allSettled(
        Array.from({ length: 20 }, () => current.store.append(name, [event()], 0n)),
      );
      expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
      for (const a of attempts) {
        if (a.status === 'rejected') expect(a.reason).toBeInstanceOf(WrongExpectedRevisionError);
      }
      expect(await current.store.readStream(name)).toHaveLength(2);
    });

    it('keeps every one of many appends made at once to many streams, each with its own result', async () => {
      const commitsBefore = current.fixture.commits?.(current.store);
      const names = Array.from({ length: 200 }, () => stream('many'));
      const results = await Promise.all(
        names.map((name, i) => current.store.append(name, [event('Many', { i })], 'no_stream')),
      );
      expect(new Set(results.map((r) => r.position)).size).toBe(200);
      for (const r of results) expect(r.nextExpectedRevision).toBe(0n);
      const reader = await current.fixture.openAnother();
      try {
        for (const [i, name] of names.entries())
          expect((await reader.readStream(name)).map((e) => e.data)).toEqual([{ i }]);
      } finally {
        await reader.close();
      }
      if (commitsBefore !== undefined) {
        // One fsync per group, not per append.
        expect(current.fixture.commits!(current.store) - commitsBefore).toBeLessThan(200);
      }
    });

    it('refuses only the conflicting append of a group, and keeps the rest', async () => {
      const taken = stream();
      await current.store.append(taken, [event()], 'no_stream');
      const fresh = [stream(), stream()];
      const [a, conflict, b] = await Promise.allSettled([
        current.store.append(fresh[0], [event()], 'no_stream'),
        current.store.append(taken, [event()], 'no_stream'),
        current.store.append(fresh[1], [event()], 'no_stream'),
      ]);
      expect([a.status, conflict.status, b.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((conflict as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
      expect(await current.store.readStream(taken)).toHaveLength(1);
      for (const name of fresh) expect(await current.store.readStream(name)).toHaveLength(1);
    });
  });
}
