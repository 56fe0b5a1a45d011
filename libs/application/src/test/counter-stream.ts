import type { EventStore } from '@gw/event-store';
import { MemoryEventStore, MemoryLog } from '@gw/event-store/memory';
import type { StreamModel } from '../command-handler';

// What the command-handler specs share: a counter stream and two writers on one in-memory log.

/** The counter's one event. */
export type Added = { type: 'Added'; data: { by: number } };
/** The counter's state: its total, and how many events it folded. */
export type Total = { total: number; seen: number };
/** A stream model that adds up `Added` events and knows no other type. */
export const counter: StreamModel<Added, Total> = {
  initialState: () => ({ total: 0, seen: 0 }),
  evolve: (state, event) => ({ total: state.total + event.data.by, seen: state.seen + 1 }),
  isEvent: (event): event is Added => event.type === 'Added',
};
/** A decision that adds `by`. */
export const add = (by: number) => (): Added[] => [{ type: 'Added', data: { by } }];

/** The real in-memory store, with its stream reads counted: whole ones, and the events range reads returned. */
export function counting(store: EventStore): {
  store: EventStore;
  fullReads: () => number;
  rangeReads: () => bigint[][];
} {
  let reads = 0;
  const ranges: bigint[][] = [];
  const wrapped = Object.create(store) as EventStore;
  wrapped.readStream = async (name, range) => {
    if (!range) reads += 1;
    const events = await store.readStream(name, range);
    if (range) ranges.push(events.map((e) => e.revision));
    return events;
  };
  return { store: wrapped, fullReads: () => reads, rangeReads: () => ranges };
}

/** Two writers on one log: `store`, whose reads and appends are under test, and `other`, a concurrent writer. */
export function twoWritersOnOneLog(): { store: MemoryEventStore; other: MemoryEventStore } {
  const log = new MemoryLog();
  return { store: new MemoryEventStore(log), other: new MemoryEventStore(log) };
}
