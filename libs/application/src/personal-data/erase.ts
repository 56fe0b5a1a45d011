import type { EventStore, RecordedEvent } from '@gw/event-store';
import { newEventId } from '../ids';
import {
  DATA_KEY_STREAM_PREFIX,
  dataKeyDayOf,
  dataKeyStreamName,
  erasureStreamName,
  type DataKeyCreated,
  type PersonalDataErased,
} from './personal-data.events';

const PAGE = 1000;

/** Every DataKeyCreated of the log whose stream starts with `prefix`, in log order, from `after`.
 * On EventStoreDB this includes keys already erased (a soft delete leaves them in `$all` until a
 * scavenge): callers check the stream itself before acting. */
export async function readDataKeyEvents(
  store: EventStore,
  prefix = DATA_KEY_STREAM_PREFIX,
  after?: bigint,
): Promise<{ events: RecordedEvent[]; position?: bigint }> {
  const events: RecordedEvent[] = [];
  let from = after;
  for (;;) {
    const page = await store.readAll({
      after: from,
      maxCount: PAGE,
      filter: { streamNamePrefixes: [prefix], eventTypes: ['DataKeyCreated'] },
    });
    events.push(...page);
    if (page.length < PAGE) break;
    from = page[page.length - 1].position;
  }
  return { events, position: events.length > 0 ? events[events.length - 1].position : after };
}

/** The days (YYYYMMDD) for which the instance has a data key now, ascending. Its key streams are
 * listed by name where the store can (EventStore.streamNames), else found in the log. */
export async function dataKeyDays(store: EventStore, instanceId: string): Promise<string[]> {
  const prefix = dataKeyStreamName(instanceId, '');
  const days = new Set<string>();
  if (store.streamNames) {
    for await (const name of store.streamNames(prefix)) {
      const day = dataKeyDayOf(name, instanceId);
      if (day !== undefined) days.add(day);
    }
  } else {
    for (const event of (await readDataKeyEvents(store, prefix)).events) {
      const day = dataKeyDayOf(event.streamName, instanceId);
      if (day !== undefined && (event.data as DataKeyCreated['data']).instanceId === instanceId) days.add(day);
    }
  }
  const live: string[] = [];
  for (const day of [...days].sort()) {
    if ((await store.readLastEvent(dataKeyStreamName(instanceId, day)))?.type === 'DataKeyCreated') live.push(day);
  }
  return live;
}

export interface Erasure {
  instanceId: string;
  /** The days to erase; null: every day the instance has a key for. */
  days: string[] | null;
  reason: PersonalDataErased['data']['reason'];
  at: string;
}

/**
 * Destroys data keys of an instance (docs/api.md section 9): deletes their streams with the store's
 * own delete, THEN records PersonalDataErased, so that the record never claims an erasure that did
 * not happen. Returns the days whose keys were destroyed. The sealed events stay in the log.
 */
export async function erasePersonalData(store: EventStore, erasure: Erasure): Promise<string[]> {
  const { instanceId, reason, at } = erasure;
  const days = erasure.days ?? (await dataKeyDays(store, instanceId));
  for (const day of days) await store.deleteStream(dataKeyStreamName(instanceId, day));
  // A repeated erasure whose first run failed after deleting finds no key left to delete: this
  // finishes the removal from the store's files all the same.
  await store.completeDeletes?.();
  // The days actually erased, never "all": a key made for a new day meanwhile is not erased.
  const event: PersonalDataErased = { type: 'PersonalDataErased', data: { instanceId, days, reason, at } };
  await store.append(erasureStreamName(instanceId), [{ id: newEventId(), type: event.type, data: event.data }], 'any');
  return days;
}
