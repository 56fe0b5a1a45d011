import type { SealedAck, SealedMessage } from '@gw/domain-inbox';
import type { NotificationContent, StateNotice } from './notification.events';

/** A recorded message, ack or change of connection state that is to be notified. */
export type NotifiableItem = { sourceEventId: string } & (
  { message: SealedMessage } | { ack: SealedAck } | { state: StateNotice }
);

/** What one notification will carry, before it has a webhook id and a sequence. */
export interface NotificationBatch {
  content: NotificationContent;
  sourceEventIds: string[];
}

/** How much one notification may carry (docs/api.md section 6 and 11). */
export interface BatchLimits {
  /** NOTIFICATION_BATCH_MAX: items. */
  maxItems: number;
  /** The bytes the items' JSON may take in one body (NOTIFICATION_BATCH_BYTES less the envelope). */
  maxBytes: number;
  /** The bytes an item's JSON takes in the body as the receiver gets it (its fields opened). The
   * domain never opens sealed fields, so the caller, which knows their form, measures. */
  sizeOf(item: NotifiableItem): number;
}

/**
 * Groups an instance's waiting messages and acks into notifications (docs/api.md section 6): record
 * order is kept, consecutive items of one kind travel together, at most `maxItems` and `maxBytes`
 * of them per notification (an item larger than `maxBytes` alone travels alone), and messages and
 * acks never share one; a change of connection state always travels alone.
 */
export function batchNotifiable(items: readonly NotifiableItem[], limits: BatchLimits): NotificationBatch[] {
  const { maxItems, maxBytes, sizeOf } = limits;
  if (!Number.isInteger(maxItems) || maxItems < 1)
    throw new RangeError(`batch size must be a whole number from 1, not ${maxItems}`);
  const batches: NotificationBatch[] = [];
  let current: { messages: SealedMessage[]; ack: SealedAck[]; sourceEventIds: string[]; bytes: number } | undefined;
  const close = () => {
    if (!current) return;
    batches.push({
      content: current.messages.length > 0 ? { messages: current.messages } : { ack: current.ack },
      sourceEventIds: current.sourceEventIds,
    });
    current = undefined;
  };
  for (const item of items) {
    if ('state' in item) {
      // A change of state is a notification of its own, never batched (docs/api.md 13.4).
      close();
      batches.push({ content: { state: item.state }, sourceEventIds: [item.sourceEventId] });
      continue;
    }
    const isMessage = 'message' in item;
    // Items are joined by a comma in the body's array.
    const bytes = sizeOf(item) + 1;
    if (
      current &&
      (current.sourceEventIds.length >= maxItems ||
        current.bytes + bytes > maxBytes ||
        current.messages.length > 0 !== isMessage)
    )
      close();
    current ??= { messages: [], ack: [], sourceEventIds: [], bytes: 0 };
    if ('message' in item) current.messages.push(item.message);
    else current.ack.push(item.ack);
    current.sourceEventIds.push(item.sourceEventId);
    current.bytes += bytes;
  }
  close();
  return batches;
}
