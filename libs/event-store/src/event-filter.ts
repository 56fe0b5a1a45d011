import type { EventFilter, RecordedEvent } from './event-store.port';

/** Whether an event passes a port filter (every criterion given must match). */
export function matchesFilter(event: RecordedEvent, filter: EventFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.streamNamePrefixes && !filter.streamNamePrefixes.some((prefix) => event.streamName.startsWith(prefix)))
    return false;
  if (filter.eventTypes && !filter.eventTypes.includes(event.type)) return false;
  return true;
}
