import type { InboxEvent } from '@gw/domain-inbox';
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

type Counter = 'messages' | 'acks' | 'notificationsDelivered' | 'attemptsFailed';

/** What an event adds to the usage: its instance, UTC day and counter; undefined for another event. */
export function usageOf(event: {
  type: string;
  data: unknown;
}): { instanceId: string; day: string; counter: Counter } | undefined {
  const data = event.data as { instanceId?: string; receivedAt?: string; at?: string };
  const counter = COUNTERS[event.type];
  const at = counter === 'messages' || counter === 'acks' ? data.receivedAt : data.at;
  if (!counter || typeof data.instanceId !== 'string' || typeof at !== 'string') return undefined;
  // ISO 8601 UTC timestamps: the day is their first ten characters.
  return { instanceId: data.instanceId, day: at.slice(0, 10), counter };
}

const COUNTERS: Record<string, Counter | undefined> = {
  MessageReceived: 'messages',
  AckReceived: 'acks',
  NotificationDelivered: 'notificationsDelivered',
  DeliveryAttemptFailed: 'attemptsFailed',
};
