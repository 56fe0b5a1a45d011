import type { Ack, Message } from '@gw/domain-inbox';

/** The body a receiver gets, exactly as recorded (docs/api.md section 6). */
export type NotificationBody =
  | { instanceId: string; sequence: number; messages: Message[] }
  | { instanceId: string; sequence: number; ack: Ack[] };

/** What a notification carries besides its envelope: messages or acks, never both (docs/api.md section 6). */
export type NotificationContent = { messages: Message[] } | { ack: Ack[] };

type Ref = { instanceId: string; webhookId: string; sequence: number };

/** A notification exists; its first attempt is due at once. `sourceEventIds` are the recorded
 * messages or acks it carries, in record order; events written before batching name their one
 * source as `sourceEventId`. */
export type NotificationCreated = {
  type: 'NotificationCreated';
  data: Ref & { body: NotificationBody; createdAt: string } & ({ sourceEventIds: string[] } | { sourceEventId: string });
};

/** The recorded messages or acks a notification carries, whichever way its event names them. */
export function notificationSources(data: NotificationCreated['data']): readonly string[] {
  return 'sourceEventIds' in data ? data.sourceEventIds : [data.sourceEventId];
}

/** One attempt failed. `status` is the receiver's HTTP status, or 0 when no answer came. */
export type DeliveryAttemptFailed = {
  type: 'DeliveryAttemptFailed';
  data: Ref & { attempt: number; at: string; status: number; error: string; durationMs: number; nextAttemptAt: string | null };
};

export type NotificationDelivered = {
  type: 'NotificationDelivered';
  data: Ref & { attempt: number; at: string; status: number; durationMs: number };
};

/** The last attempt of the schedule failed; only a resend brings it back. */
export type NotificationDeadLettered = { type: 'NotificationDeadLettered'; data: Ref & { at: string } };

/** Delivery was switched off or the instance expired before it was delivered. */
export type NotificationCancelled = { type: 'NotificationCancelled'; data: Ref & { reason: string; at: string } };

/** An operator asked for a dead-lettered notification again: a new full schedule starts now. */
export type NotificationResent = { type: 'NotificationResent'; data: Ref & { at: string } };

export type NotificationEvent =
  | NotificationCreated
  | DeliveryAttemptFailed
  | NotificationDelivered
  | NotificationDeadLettered
  | NotificationCancelled
  | NotificationResent;

const TYPES: ReadonlySet<string> = new Set<NotificationEvent['type']>([
  'NotificationCreated',
  'DeliveryAttemptFailed',
  'NotificationDelivered',
  'NotificationDeadLettered',
  'NotificationCancelled',
  'NotificationResent',
]);

export function isNotificationEvent(event: { type: string }): event is NotificationEvent {
  return TYPES.has(event.type);
}

export const NOTIFICATIONS_STREAM_PREFIX = 'notifications-';

export function notificationsStreamName(instanceId: string): string {
  return `${NOTIFICATIONS_STREAM_PREFIX}${instanceId}`;
}
