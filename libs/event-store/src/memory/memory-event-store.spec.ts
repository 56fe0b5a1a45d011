import { eventStoreContractSuite } from '../testing/event-store-contract';
import { MemoryEventStore, MemoryLog } from './memory-event-store';

eventStoreContractSuite({
  name: 'in memory',
  durable: false,
  async create() {
    const log = new MemoryLog();
    const store = new MemoryEventStore(log);
    const others: MemoryEventStore[] = [];
    return {
      store,
      // Another client of the same log, as another connection of one process would be.
      async openAnother() {
        const other = new MemoryEventStore(log);
        others.push(other);
        return other;
      },
      async cleanup() {
        await Promise.all([store, ...others].map((s) => s.close()));
      },
    };
  },
});

describe('in-memory store', () => {
  it('keeps copies: changing what was appended or read changes nothing stored', async () => {
    const store = new MemoryEventStore();
    const data = { list: [1] };
    await store.append('s-1', [{ id: 'a', type: 'T', data }], 'no_stream');
    data.list.push(2);
    const [read] = await store.readStream('s-1');
    (read.data as { list: number[] }).list.push(3);
    expect((await store.readStream('s-1'))[0].data).toEqual({ list: [1] });
  });

  it('refuses every call once closed, as an outage', async () => {
    const store = new MemoryEventStore();
    await store.close();
    await expect(store.headPosition()).rejects.toThrow('closed');
  });
});
