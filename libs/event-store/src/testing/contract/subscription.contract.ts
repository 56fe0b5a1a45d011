import { collect, event, stream, type ContractContext } from './contract-fixture';

/** Subscriptions to the global log: catch-up, then live, filtered, across clients. */
export function subscriptionContract(current: ContractContext): void {
  describe('subscriptions', () => {
    it('catches up, signals it, then goes live without gaps or duplicates', async () => {
      const name = stream();
      const start = await current.store.headPosition();
      await current.store.append(
        name,
        Array.from({ length: 30 }, () => event('Early')),
        'no_stream',
      );
      const expected = 30 + 4 * 25;
      const writers = (async () => {
        // Live appends from this client and from a second one, interleaved with the catch-up.
        const other = await current.fixture.openAnother();
        try {
          for (let i = 0; i < 25; i++) {
            await Promise.all([
              current.store.append(stream('live'), [event('Live'), event('Live')], 'no_stream'),
              other.append(stream('live'), [event('Other'), event('Other')], 'no_stream'),
            ]);
          }
        } finally {
          await other.close();
        }
      })();
      const { events, messages } = await collect(current.store, { after: start }, (seen) => seen.length >= expected);
      await writers;
      expect(events).toHaveLength(expected);
      expect(new Set(events.map((e) => e.id)).size).toBe(expected);
      const logged = await current.store.readAll({ after: start });
      expect(events.map((e) => e.id)).toEqual(logged.map((e) => e.id));
      expect(messages.some((m) => m.kind === 'caughtUp')).toBe(true);
    });

    it('resumes after a position without repeating what came before', async () => {
      const name = stream();
      const start = await current.store.headPosition();
      await current.store.append(name, [event('One'), event('Two'), event('Three')], 'no_stream');
      const [one] = await current.store.readAll({ after: start });
      const { events } = await collect(current.store, { after: one.position }, (seen) => seen.length >= 2);
      expect(events.map((e) => e.type)).toEqual(['Two', 'Three']);
    });

    it('delivers only matching events and still reports progress to the head', async () => {
      const start = await current.store.headPosition();
      await current.store.append(stream('wanted'), [event('W')], 'no_stream');
      await current.store.append(stream('other'), [event('O'), event('O')], 'no_stream');
      const head = await current.store.headPosition();
      const { events, messages } = await collect(
        current.store,
        { after: start, filter: { streamNamePrefixes: ['wanted-'] } },
        (_seen, message) => message.kind === 'caughtUp' && message.position >= head,
      );
      expect(events.map((e) => e.type)).toEqual(['W']);
      const last = messages[messages.length - 1];
      expect(last).toEqual({ kind: 'caughtUp', position: head });
    });

    it('delivers the types a filter names without their data and metadata, while catching up and live', async () => {
      const start = await current.store.headPosition();
      await current.store.append(
        stream('thin'),
        [event('Heavy', { body: 'old' }), event('Kept', { n: 1 })],
        'no_stream',
      );
      const { events } = await collect(
        current.store,
        { after: start, filter: { streamNamePrefixes: ['thin-'], typesWithoutData: ['Heavy'] } },
        (seen, message) => {
          if (message.kind === 'caughtUp' && seen.length === 2)
            void current.store.append(stream('thin'), [event('Heavy', { body: 'new' })], 'no_stream');
          return seen.length >= 3;
        },
      );
      // Without their metadata too; the other type keeps its own (the chain the store adds, at least).
      expect(events.map((e) => [e.type, e.data, Object.keys(e.metadata).length > 0])).toEqual([
        ['Heavy', undefined, false],
        ['Kept', { n: 1 }, true],
        ['Heavy', undefined, false],
      ]);
    });

    it('sees events appended by another client while live', async () => {
      const start = await current.store.headPosition();
      const other = await current.fixture.openAnother();
      try {
        const received = collect(current.store, { after: start }, (seen) => seen.length >= 1);
        await new Promise((r) => setTimeout(r, 100));
        await other.append(stream(), [event('FromOther')], 'no_stream');
        const { events } = await received;
        expect(events.map((e) => e.type)).toEqual(['FromOther']);
      } finally {
        await other.close();
      }
    });
  });
}
