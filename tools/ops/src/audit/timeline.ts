import { inboxStreamName } from '@gw/domain-inbox';
import { instanceStreamName } from '@gw/domain-instances';
import { notificationsStreamName } from '@gw/domain-notifications';
import type { EventStore, RecordedEvent } from '@gw/event-store';
import { timelineEntry, type Openers, type TimelineEntry } from './timeline-facts';

/** The instance or account asked for has no history. */
export class UnknownSubject extends Error {}

/** The streams that hold an instance's history (docs/api.md 9.1). Its data-key streams are left
 * out: they hold key material and nothing that happened. */
function instanceStreams(instanceId: string): string[] {
  return [
    instanceStreamName(instanceId),
    inboxStreamName(instanceId),
    notificationsStreamName(instanceId),
    `erasure-${instanceId}`,
  ];
}

async function readStreams(store: EventStore, names: readonly string[]): Promise<RecordedEvent[]> {
  const streams = await Promise.all(names.map((name) => store.readStream(name)));
  // The log's global order is the order things happened in, across streams.
  return streams.flat().sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
}

async function entries(events: readonly RecordedEvent[], open: Openers): Promise<TimelineEntry[]> {
  const out: TimelineEntry[] = [];
  for (const event of events) out.push(await timelineEntry(event, open));
  return out;
}

/** An instance's history, oldest first. */
export async function instanceTimeline(store: EventStore, instanceId: string, open: Openers): Promise<TimelineEntry[]> {
  const events = await readStreams(store, instanceStreams(instanceId));
  if (!events.some((event) => event.streamName === instanceStreamName(instanceId)))
    throw new UnknownSubject(`no instance ${instanceId}`);
  return entries(events, open);
}

/**
 * An account's history and that of each of its instances, interleaved in the log's order. Its
 * instances are found by their creation events, which name the account by its id; `describe` is
 * how the operator named the account, for the error.
 */
export async function accountTimeline(
  store: EventStore,
  accountId: string,
  describe: string,
  open: Openers,
): Promise<TimelineEntry[]> {
  const account = await store.readStream(`account-${accountId}`);
  if (account.length === 0) throw new UnknownSubject(`no account for ${describe}`);
  const created = await store.readAll({ filter: { eventTypes: ['InstanceCreated'] } });
  const instanceIds = created
    .map((event) => event.data as { instanceId?: unknown; accountId?: unknown })
    .filter((data) => data.accountId === accountId && typeof data.instanceId === 'string')
    .map((data) => data.instanceId as string);
  const events = await readStreams(store, [`account-${accountId}`, ...instanceIds.flatMap(instanceStreams)]);
  return entries(events, open);
}
