import { RequiredStreamMissingError } from '../../event-store.errors';
import type { RequiredStream } from '../../event-store.port';
import { event, stream, type ContractContext } from './contract-fixture';

/** Appends that require another stream to exist and not to have ended (AppendOptions.requires). */
export function requiredStreamContract(current: ContractContext): void {
  describe('appending with a required stream', () => {
    const required = (streamName: string): RequiredStream => ({ streamName, endedBy: ['Ended'] });

    async function refusal(append: Promise<unknown>): Promise<RequiredStreamMissingError> {
      const error: unknown = await append.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(RequiredStreamMissingError);
      return error as RequiredStreamMissingError;
    }

    it('appends while the required stream exists and its last event does not end it', async () => {
      const owner = stream();
      // An ending type that is not the last event does not count.
      await current.store.append(owner, [event('Started'), event('Ended'), event('Restarted')], 'no_stream');
      const name = stream();
      const written = await current.store.append(name, [event('A')], 'any', { requires: required(owner) });
      expect(written.nextExpectedRevision).toBe(0n);
      expect((await current.store.readStream(name)).map((e) => e.type)).toEqual(['A']);
      expect(await current.store.readStream(owner)).toHaveLength(3);
    });

    it('refuses when the required stream does not exist, naming it, and writes nothing', async () => {
      const owner = stream();
      const name = stream();
      const error = await refusal(current.store.append(name, [event()], 'any', { requires: required(owner) }));
      expect(error.streamName).toBe(owner);
      expect(await current.store.readStream(name)).toEqual([]);
      expect(await current.store.readStream(owner)).toEqual([]);
    });

    it('refuses when the required stream has ended, or was deleted', async () => {
      const ended = stream();
      await current.store.append(ended, [event('Started'), event('Ended')], 'no_stream');
      const deleted = stream();
      await current.store.append(deleted, [event('Started')], 'no_stream');
      await current.store.deleteStream(deleted);
      const name = stream();
      await refusal(current.store.append(name, [event()], 'any', { requires: required(ended) }));
      await refusal(current.store.append(name, [event()], 'any', { requires: required(deleted) }));
      expect(await current.store.readStream(name)).toEqual([]);
    });

    it('refuses a retried append once the required stream has ended, though its events are stored', async () => {
      const owner = stream();
      await current.store.append(owner, [event('Started')], 'no_stream');
      const name = stream();
      const events = [event('A')];
      await current.store.append(name, events, 'any', { requires: required(owner) });
      await current.store.append(owner, [event('Ended')], 'any');
      await refusal(current.store.append(name, events, 'any', { requires: required(owner) }));
      expect(await current.store.readStream(name)).toHaveLength(1);
    });

    it('refuses only the append whose required stream is missing, among appends made at once', async () => {
      const owner = stream();
      await current.store.append(owner, [event('Started')], 'no_stream');
      const names = [stream(), stream(), stream()];
      const [a, refused, b] = await Promise.allSettled([
        current.store.append(names[0], [event()], 'any', { requires: required(owner) }),
        current.store.append(names[1], [event()], 'any', { requires: required(stream()) }),
        current.store.append(names[2], [event()], 'no_stream'),
      ]);
      expect([a.status, refused.status, b.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(RequiredStreamMissingError);
      expect(await current.store.readStream(names[0])).toHaveLength(1);
      expect(await current.store.readStream(names[1])).toEqual([]);
      expect(await current.store.readStream(names[2])).toHaveLength(1);
    });

    // Not defined for EventStoreDB, which reads the required stream before it appends: an end still
    // in flight there is not seen (README, "EventStoreDB").
    if (current.harness.checksRequiredStreamApart) return;
    it('sees an end submitted just before it, committed in the same group', async () => {
      const owner = stream();
      await current.store.append(owner, [event('Started')], 'no_stream');
      const name = stream();
      // Submitted one after the other without waiting: a group-committing store writes them together.
      const [ended, refused] = await Promise.allSettled([
        current.store.append(owner, [event('Ended')], 'any'),
        current.store.append(name, [event()], 'any', { requires: required(owner) }),
      ]);
      expect(ended.status).toBe('fulfilled');
      expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(RequiredStreamMissingError);
      expect(await current.store.readStream(name)).toEqual([]);
    });
  });
}
