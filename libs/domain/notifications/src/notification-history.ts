import { assertNever } from '@gw/domain-core';
import type { NotificationBody, NotificationEvent } from './notification.events';

/** What became of a notification, as getNotifications names it (docs/api.md 8.7). */
export type NotificationOutcome = 'pending' | 'delivered' | 'deadLettered' | 'cancelled';

/** One notification of an instance's history: its body exactly as created, and its outcome so far. */
export interface NotificationRecord {
  sequence: number;
  webhookId: string;
  createdAt: string;
  state: NotificationOutcome;
  body: NotificationBody;
}

type OutcomeEvent = Exclude<NotificationEvent['type'], 'NotificationCreated' | 'DeliveryAttemptFailed' | 'TestNotificationAttempted'>;

const OUTCOME: Record<OutcomeEvent, NotificationOutcome> = {
  NotificationDelivered: 'delivered',
  NotificationDeadLettered: 'deadLettered',
  NotificationCancelled: 'cancelled',
  NotificationResent: 'pending',
  NotificationRedelivered: 'pending',
};

/** Every notification of one instance's stream, in sequence order. Unlike the decider's state, which
 * keeps open notifications only, this keeps them all: it is folded per request, never held. */
export function notificationHistory(events: Iterable<NotificationEvent>): NotificationRecord[] {
  const records = new Map<string, NotificationRecord>();
  for (const event of events) {
    switch (event.type) {
      case 'NotificationCreated': {
        const { webhookId, sequence, createdAt, body } = event.data;
        records.set(webhookId, { sequence, webhookId, createdAt, state: 'pending', body });
        break;
      }
      case 'DeliveryAttemptFailed':
      case 'TestNotificationAttempted':
        // A failed attempt leaves the outcome pending; a test notification is no notification (8.6).
        break;
      case 'NotificationDelivered':
      case 'NotificationDeadLettered':
      case 'NotificationCancelled':
      case 'NotificationResent':
      case 'NotificationRedelivered': {
        const record = records.get(event.data.webhookId);
        if (record) record.state = OUTCOME[event.type];
        break;
      }
      default:
        assertNever(event);
    }
  }
  return [...records.values()].sort((a, b) => a.sequence - b.sequence);
}
