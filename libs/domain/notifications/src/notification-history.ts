import { assertNever } from '@gw/domain-core';
import type { NotificationBody, NotificationCreated, NotificationEvent } from './notification.events';

/** What became of a notification, as getNotifications names it (docs/api.md 8.7). */
export type NotificationOutcome = 'pending' | 'delivered' | 'deadLettered' | 'cancelled';

/** One notification of an instance's history: its body exactly as created (or, in a history held
 * between requests, where to find it: `B`), and its outcome so far. */
export interface NotificationRecord<B = NotificationBody> {
  sequence: number;
  webhookId: string;
  createdAt: string;
  state: NotificationOutcome;
  body: B;
}

type OutcomeEvent = Exclude<
  NotificationEvent['type'],
  'NotificationCreated' | 'DeliveryAttemptFailed' | 'TestNotificationAttempted'
>;

const OUTCOME: Record<OutcomeEvent, NotificationOutcome> = {
  NotificationDelivered: 'delivered',
  NotificationDeadLettered: 'deadLettered',
  NotificationCancelled: 'cancelled',
  NotificationResent: 'pending',
  NotificationRedelivered: 'pending',
};

/**
 * An instance's notifications, folded from its stream event by event, in sequence order. Unlike the
 * decider's state, which keeps open notifications only, this keeps them all. A caller that holds it
 * between reads folds only the events appended since (docs/api.md 8.7 and 8.8 read it so). A record
 * keeps what `apply`'s `body` makes of its NotificationCreated: the body itself, or where it is.
 */
export class NotificationHistory<B> {
  private readonly ordered: NotificationRecord<B>[] = [];
  private readonly byWebhookId = new Map<string, NotificationRecord<B>>();

  get size(): number {
    return this.ordered.length;
  }

  /** The highest sequence, 0 when there is none. */
  get lastSequence(): number {
    return this.ordered.at(-1)?.sequence ?? 0;
  }

  apply(event: NotificationEvent, body: (created: NotificationCreated['data']) => B): void {
    switch (event.type) {
      case 'NotificationCreated': {
        const { webhookId, sequence, createdAt } = event.data;
        const record: NotificationRecord<B> = {
          sequence,
          webhookId,
          createdAt,
          state: 'pending',
          body: body(event.data),
        };
        const earlier = this.byWebhookId.get(webhookId);
        const last = this.ordered.at(-1);
        if (earlier) {
          // The same webhook id created again (never expected) replaces the first, as one record.
          Object.assign(earlier, record);
        } else {
          this.byWebhookId.set(webhookId, record);
          this.ordered.push(record);
        }
        // Sequences are given in the order notifications are created, so a sort is never expected.
        if (earlier || (last && last.sequence > sequence)) this.ordered.sort((a, b) => a.sequence - b.sequence);
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
        const record = this.byWebhookId.get(event.data.webhookId);
        if (record) record.state = OUTCOME[event.type];
        break;
      }
      default:
        assertNever(event);
    }
  }

  /** The records with `from` <= sequence <= `to`, at most `limit` of them, in sequence order. */
  between(from: number, to: number, limit = Number.POSITIVE_INFINITY): NotificationRecord<B>[] {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.ordered[middle].sequence < from) low = middle + 1;
      else high = middle;
    }
    const found: NotificationRecord<B>[] = [];
    for (let i = low; i < this.ordered.length && found.length < limit && this.ordered[i].sequence <= to; i++)
      found.push({ ...this.ordered[i] });
    return found;
  }
}

/** Every notification of one instance's stream, in sequence order, with its body. */
export function notificationHistory(events: Iterable<NotificationEvent>): NotificationRecord[] {
  const history = new NotificationHistory<NotificationBody>();
  for (const event of events) history.apply(event, (created) => created.body);
  return history.between(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
}
