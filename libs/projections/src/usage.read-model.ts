import { INBOX_STREAM_PREFIX, type InboxEvent } from '@gw/domain-inbox';
import type { DeliveryAttemptFailed, NotificationDelivered } from '@gw/domain-notifications';

/** One instance's counts on one UTC day (docs/api.md 13.3). */
export interface UsageRow {
  instanceId: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  messages: number;
  acks: number;
  /** Notifications answered 2xx, by the day of the attempt. */
  notificationsDelivered: number;
  /** Failed attempts, by the day of the attempt. */
  attemptsFailed: number;
}

/** What the API asks of the usage read model (getUsage). */
export interface UsageQuery {
  /** The account's instances' counts for each day in [from, to] with activity, in the order of
   * listInstances, then by day; only `instanceId`'s when given. Deleted instances are included:
   * their usage happened. */
  usage(accountId: string, from: string, to: string, instanceId?: string): UsageRow[];
}

/** The event types counted. */
export const USAGE_EVENT_TYPES: ReadonlyArray<
  InboxEvent['type'] | NotificationDelivered['type'] | DeliveryAttemptFailed['type']
> = ['MessageReceived', 'AckReceived', 'NotificationDelivered', 'DeliveryAttemptFailed'];

/** The counted types whose data the usage model does not read: their stream names the instance and
 * their record time the day, so a rebuild need not read or decode the messages themselves (most of
 * the log's bytes). */
export const USAGE_TYPES_WITHOUT_DATA: ReadonlyArray<InboxEvent['type']> = ['MessageReceived', 'AckReceived'];

type Counter = 'messages' | 'acks' | 'notificationsDelivered' | 'attemptsFailed';

/** What an event adds to the usage: its instance, UTC day and counter; undefined for another event.
 * A message or ack counts on the day it was recorded (the store's time; its data may be absent), a
 * delivery outcome on the day of its attempt. */
export function usageOf(event: {
  type: string;
  streamName: string;
  data: unknown;
  recordedAt: string;
}): { instanceId: string; day: string; counter: Counter } | undefined {
  const counter = COUNTERS[event.type];
  if (!counter) return undefined;
  let instanceId: unknown;
  let at: unknown;
  if (counter === 'messages' || counter === 'acks') {
    if (!event.streamName.startsWith(INBOX_STREAM_PREFIX)) return undefined;
    instanceId = event.streamName.slice(INBOX_STREAM_PREFIX.length);
    at = event.recordedAt;
  } else {
    ({ instanceId, at } = (event.data ?? {}) as { instanceId?: unknown; at?: unknown });
  }
  if (typeof instanceId !== 'string' || typeof at !== 'string') return undefined;
  // ISO 8601 UTC timestamps: the day is their first ten characters.
  return { instanceId, day: at.slice(0, 10), counter };
}

const COUNTERS: Record<string, Counter | undefined> = {
  MessageReceived: 'messages',
  AckReceived: 'acks',
  NotificationDelivered: 'notificationsDelivered',
  DeliveryAttemptFailed: 'attemptsFailed',
};
