import type { EventStore } from '../../event-store.port';
import { event, type ContractContext } from './contract-fixture';

async function listed(store: EventStore, prefix: string): Promise<string[]> {
  const names: string[] = [];
  for await (const name of store.streamNames!(prefix)) names.push(name);
  return names;
}

/** Listing streams by name (EventStore.streamNames), for a store that has it. */
export function streamNamesContract(current: ContractContext): void {
  describe('stream names', () => {
    it('lists each stream that starts with the prefix once, in the byte order of its name', async () => {
      const { store } = current;
      // Names around the prefixes in byte order, a stream of many events, and names beyond ASCII:
      // é is 0xC3 0xA9 in UTF-8, after every ASCII byte; ａ (U+FF41) is 0xEF 0xBD 0xA1, before 😀
      // (0xF0 ...), where JavaScript's own order of UTF-16 units puts it after (0xFF41 > 0xD83D).
      const names = [
        'few-b',
        'few-a',
        'fewer-1',
        'fev-1',
        'fex-1',
        'few-😀',
        'few-ａ',
        'few-é',
        'few',
        'fe',
        'few-a-2',
      ];
      for (const name of names) await store.append(name, [event()], 'any');
      await store.append('few-a', [event(), event(), event()], 'any');
      expect(await listed(store, 'few-')).toEqual(['few-a', 'few-a-2', 'few-b', 'few-é', 'few-ａ', 'few-😀']);
      expect(await listed(store, 'few')).toEqual([
        'few',
        'few-a',
        'few-a-2',
        'few-b',
        'few-é',
        'few-ａ',
        'few-😀',
        'fewer-1',
      ]);
      expect(await listed(store, 'few-é')).toEqual(['few-é']);
      expect(await listed(store, 'nothing-')).toEqual([]);
      expect(await listed(store, '')).toEqual(
        [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
      );
    });

    it('leaves out a deleted stream, and lists it again once it holds events again', async () => {
      const { store } = current;
      for (const name of ['key-1', 'key-2', 'key-3']) await store.append(name, [event()], 'no_stream');
      await store.deleteStream('key-2');
      expect(await listed(store, 'key-')).toEqual(['key-1', 'key-3']);
      await store.append('key-2', [event()], 'any');
      expect(await listed(store, 'key-')).toEqual(['key-1', 'key-2', 'key-3']);
    });
  });
}
