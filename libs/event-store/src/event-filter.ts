import type { EventFilter, RecordedEvent } from './event-store.port';

/** Whether an event passes a port filter (every criterion given must match). */
export function matchesFilter(event: RecordedEvent, filter: EventFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.streamNamePrefixes && !filter.streamNamePrefixes.some((prefix) => event.streamName.startsWith(prefix)))
    return false;
  if (filter.eventTypes && !filter.eventTypes.includes(event.type)) return false;
  return true;
}

/** The event as a read with `filter` returns it: without its data and metadata when the filter asks
 * so of its type. */
export function asFiltered(event: RecordedEvent, filter: EventFilter | undefined): RecordedEvent {
  return filter?.typesWithoutData?.includes(event.type) ? { ...event, data: undefined, metadata: {} } : event;
}
