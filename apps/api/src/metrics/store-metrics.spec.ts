import type { EventStore } from '@gw/event-store';
import { MemoryEventStore } from '@gw/event-store/memory';
import { StoreMetrics } from './store-metrics';

async function listed(store: EventStore, prefix: string): Promise<string[]> {
  const names: string[] = [];
  for await (const name of store.streamNames!(prefix)) names.push(name);
  return names;
}

describe('the measured event store', () => {
  it('lists stream names where the store can, and offers no listing where it cannot', async () => {
    const inner = new MemoryEventStore();
    await inner.append('datakey-a-20261129', [{ id: 'k1', type: 'DataKeyCreated', data: {} }], 'no_stream');
    await inner.append('instance-a', [{ id: 'i1', type: 'InstanceCreated', data: {} }], 'no_stream');
    expect(await listed(new StoreMetrics().measure(inner), 'datakey-')).toEqual(['datakey-a-20261129']);
    // A store with only the port's required methods (as EventStoreDB, which cannot list): callers
    // see no listing and read the log instead.
    const required: EventStore = {
      append: (...args) => inner.append(...args),
      readStream: (...args) => inner.readStream(...args),
      readLastEvent: (...args) => inner.readLastEvent(...args),
      readAll: (...args) => inner.readAll(...args),
      headPosition: () => inner.headPosition(),
      subscribeToAll: (...args) => inner.subscribeToAll(...args),
      deleteStream: (...args) => inner.deleteStream(...args),
      close: () => inner.close(),
    };
    expect(new StoreMetrics().measure(required).streamNames).toBeUndefined();
  });
});
