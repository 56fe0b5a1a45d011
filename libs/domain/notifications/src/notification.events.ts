import type { SealedAck, SealedMessage } from '@gw/domain-inbox';
import type { ConnectionState } from '@gw/domain-instances';
import type { InstanceNotice } from './instance-notices';

/** A change of the instance's connection state as notified (docs/api.md 13.2). */
export interface StateNotice {
  state: ConnectionState;
  since: string;
}

/** The body a receiver gets, as recorded (docs/api.md section 6): messages and acks in their stored,
 * sealed form, opened into the receiver's shape only when sent or read (section 9.3). `label` is the
 * instance's label when the notification was made (13.1), absent when it had none. */
export type NotificationBody =
  | { instanceId: string; sequence: number; label?: string; messages: SealedMessage[] }
  | { instanceId: string; sequence: number; label?: string; ack: SealedAck[] }
  | { instanceId: string; sequence: number; label?: string; instance: InstanceNotice }
  | { instanceId: string; sequence: number; label?: string; state: StateNotice };

/** What a notification carries besides its envelope: messages, acks or one instance notice, never
 * two of them (docs/api.md section 6 and 8.9). */
export type NotificationContent =
  { messages: SealedMessage[] } | { ack: SealedAck[] } | { instance: InstanceNotice } | { state: StateNotice };

type Ref = { instanceId: string; webhookId: string; sequence: number };

/** A notification exists; its first attempt is due at once. `sourceEventIds` are the recorded
 * messages or acks it carries, in record order (none for an instance notice). An instance notice
 * names its `noticeKey` (docs/api.md 8.9), so that it is made once per expiry. Version 2 of the event:
 * version 1, written before batching, named one `sourceEventId`, and is upcast on read
 * (libs/application/src/event-schema). */
export type NotificationCreated = {
  type: 'NotificationCreated';
  data: Ref & { body: NotificationBody; sourceEventIds: string[]; createdAt: string; noticeKey?: string };
};

/** One attempt failed. `status` is the receiver's HTTP status, or 0 when no answer came. */
export type DeliveryAttemptFailed = {
  type: 'DeliveryAttemptFailed';
  data: Ref & {
    attempt: number;
    at: string;
    status: number;
    error: string;
    durationMs: number;
    nextAttemptAt: string | null;
  };
};

/** The receiver answered an attempt with a 2xx: the notification is delivered. */
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

/** An instance's owner asked for a notification again, whatever became of it (docs/api.md 8.8): a new
 * full schedule starts now. Version 2 names the notification by reference: `createdRevision` is the
 * revision of its NotificationCreated in the same stream, where its body is, so that the log grows
 * by a reference and not by a copy of the body (docs/api.md section 11); it has no `body`. Version 1
 * carried the `body` itself and no `createdRevision`, and is read as it is (libs/application/src/event-schema). */
export type NotificationRedelivered = {
  type: 'NotificationRedelivered';
  data: Ref & { at: string; createdRevision?: number; body?: NotificationBody };
};

/** A test notification was sent on request (docs/api.md 8.6): one attempt, no sequence, no retry;
 * it is not a notification of the instance's sequence, only a line of its delivery log. */
export type TestNotificationAttempted = {
  type: 'TestNotificationAttempted';
  data: { instanceId: string; webhookId: string; at: string; status: number; error: string; durationMs: number };
};

/** The events of a notifications stream. */
export type NotificationEvent =
  | TestNotificationAttempted
  | NotificationCreated
  | DeliveryAttemptFailed
  | NotificationDelivered
  | NotificationDeadLettered
  | NotificationCancelled
  | NotificationResent
  | NotificationRedelivered;

const TYPES: ReadonlySet<string> = new Set<NotificationEvent['type']>([
  'TestNotificationAttempted',
  'NotificationCreated',
  'DeliveryAttemptFailed',
  'NotificationDelivered',
  'NotificationDeadLettered',
  'NotificationCancelled',
  'NotificationResent',
  'NotificationRedelivered',
]);

/** Whether a stored event is one of a notifications stream's. */
export function isNotificationEvent(event: { type: string }): event is NotificationEvent {
  return TYPES.has(event.type);
}

/** What every notifications stream's name starts with. */
export const NOTIFICATIONS_STREAM_PREFIX = 'notifications-';

/** `notifications-{instanceId}`: the stream of an instance's notifications. */
export function notificationsStreamName(instanceId: string): string {
  return `${NOTIFICATIONS_STREAM_PREFIX}${instanceId}`;
}
