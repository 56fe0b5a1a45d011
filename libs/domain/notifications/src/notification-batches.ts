import type { SealedAck, SealedMessage } from '@gw/domain-inbox';
import type { NotificationContent } from './notification.events';

/** A recorded message or ack that is to be notified. */
export type NotifiableItem = { sourceEventId: string } & ({ message: SealedMessage } | { ack: SealedAck });

/** What one notification will carry, before it has a webhook id and a sequence. */
export interface NotificationBatch {
  content: NotificationContent;
  sourceEventIds: string[];
}

/**
 * Groups an instance's waiting messages and acks into notifications (docs/api.md section 6): record
 * order is kept, consecutive items of one kind travel together, at most `max` per notification, and
 * messages and acks never share one.
 */
export function batchNotifiable(items: readonly NotifiableItem[], max: number): NotificationBatch[] {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`batch size must be a whole number from 1, not ${max}`);
  const batches: NotificationBatch[] = [];
  let current: { messages: SealedMessage[]; ack: SealedAck[]; sourceEventIds: string[] } | undefined;
  const close = () => {
    if (!current) return;
    batches.push({
      content: current.messages.length > 0 ? { messages: current.messages } : { ack: current.ack },
      sourceEventIds: current.sourceEventIds,
    });
    current = undefined;
  };
  for (const item of items) {
    const isMessage = 'message' in item;
    if (current && (current.sourceEventIds.length >= max || (current.messages.length > 0) !== isMessage)) close();
    current ??= { messages: [], ack: [], sourceEventIds: [] };
    if ('message' in item) current.messages.push(item.message);
    else current.ack.push(item.ack);
    current.sourceEventIds.push(item.sourceEventId);
  }
  close();
  return batches;
}
