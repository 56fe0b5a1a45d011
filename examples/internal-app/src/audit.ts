import { erasureStreamName } from '@gw/application';
import { inboxStreamName, isInboxEvent } from '@gw/domain-inbox';
import { instanceStreamName, isInstanceEvent } from '@gw/domain-instances';
import { isNotificationEvent, notificationsStreamName } from '@gw/domain-notifications';
import type { EventStore, RecordedEvent } from '@gw/event-store';

/** This app's own view of an instance's history: what an audit wants to know, folded from the log. */
export interface InstanceAudit {
  instanceid: string;
  /** Every event of the instance's streams that was folded. */
  events: number;
  packageid?: string;
  createdAt?: string;
  expiresAt?: string;
  deleted: boolean;
  messages: number;
  acks: number;
  notificationsCreated: number;
  notificationsDelivered: number;
  /** Events of types this app does not know (written by a newer service): counted, not folded. */
  unknown: number;
}

/** The streams an instance's history is in (its data keys' streams hold key material, not history). */
const streamsOf = (instanceId: string): string[] => [
  instanceStreamName(instanceId),
  inboxStreamName(instanceId),
  notificationsStreamName(instanceId),
  erasureStreamName(instanceId),
];

/** One event folded into the audit. Not exhaustive on purpose: a log written by a newer service may
 * hold types this build of the packages does not know, and an audit must still read it. */
function evolve(audit: InstanceAudit, event: RecordedEvent): InstanceAudit {
  const next = { ...audit, events: audit.events + 1 };
  if (isInstanceEvent(event)) {
    if (event.type === 'InstanceCreated') {
      const { packageId, createdAt, expiresAt } = event.data;
      return { ...next, packageid: packageId, createdAt, expiresAt };
    }
    if (event.type === 'InstanceRenewed') return { ...next, expiresAt: event.data.expiresAt };
    if (event.type === 'InstanceDeleted') return { ...next, deleted: true };
    return next;
  }
  if (isInboxEvent(event)) {
    return event.type === 'MessageReceived'
      ? { ...next, messages: next.messages + 1 }
      : { ...next, acks: next.acks + 1 };
  }
  if (isNotificationEvent(event)) {
    if (event.type === 'NotificationCreated') return { ...next, notificationsCreated: next.notificationsCreated + 1 };
    if (event.type === 'NotificationDelivered')
      return { ...next, notificationsDelivered: next.notificationsDelivered + 1 };
    return next;
  }
  if (event.type === 'PersonalDataErased') return next;
  return { ...next, unknown: next.unknown + 1 };
}

/** Folds the instance's history, in the log's order across its streams; undefined when it has none. */
export async function replayInstance(store: EventStore, instanceId: string): Promise<InstanceAudit | undefined> {
  const streams = await Promise.all(streamsOf(instanceId).map((name) => store.readStream(name)));
  const events = streams.flat().sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  if (events.length === 0) return undefined;
  const initial: InstanceAudit = {
    instanceid: instanceId,
    events: 0,
    deleted: false,
    messages: 0,
    acks: 0,
    notificationsCreated: 0,
    notificationsDelivered: 0,
    unknown: 0,
  };
  return events.reduce(evolve, initial);
}
