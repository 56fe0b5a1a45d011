import { assertNever } from '@gw/domain-core';
import { withNotice, type NoticeLedger } from './instance-notices';
import type { NotificationBody, NotificationEvent } from './notification.events';

export type NotificationStatus = 'pending' | 'delivered' | 'dead-lettered' | 'cancelled';

/** A notification that may still be sent: pending, or dead-lettered (resendable). */
export interface OpenNotification {
  webhookId: string;
  sequence: number;
  body: NotificationBody;
  status: 'pending' | 'dead-lettered';
  /** Attempts made in the current schedule (a resend starts a new one). */
  attempts: number;
  /** When the next attempt is due; null when none is scheduled. */
  nextAttemptAt: string | null;
}

/** One instance's notifications. Delivered and cancelled ones are done and are not kept. */
export interface NotificationsState {
  lastSequence: number;
  open: Readonly<Record<string, OpenNotification>>;
  /** The instance notices made for the instance's current expiry (docs/api.md 8.9); absent until the first. */
  notices?: NoticeLedger;
}

export const initialNotificationsState = (): NotificationsState => ({ lastSequence: 0, open: {} });

function withOpen(state: NotificationsState, webhookId: string, next: OpenNotification | undefined): NotificationsState {
  const open = { ...state.open };
  if (next) open[webhookId] = next;
  else delete open[webhookId];
  return { ...state, open };
}

export function evolveNotifications(state: NotificationsState, event: NotificationEvent): NotificationsState {
  const current = state.open[event.data.webhookId];
  switch (event.type) {
    case 'TestNotificationAttempted':
      // A test is outside the sequence: it opens nothing and numbers nothing.
      return state;
    case 'NotificationCreated': {
      const { body, noticeKey } = event.data;
      const notices = noticeKey && 'instance' in body ? { notices: withNotice(state.notices ?? null, body.instance.expiresAt, noticeKey) } : {};
      return withOpen({ ...state, lastSequence: Math.max(state.lastSequence, event.data.sequence), ...notices }, event.data.webhookId, {
        webhookId: event.data.webhookId,
        sequence: event.data.sequence,
        body: event.data.body,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: event.data.createdAt,
      });
    }
    case 'DeliveryAttemptFailed':
      return current
        ? withOpen(state, event.data.webhookId, { ...current, attempts: event.data.attempt, nextAttemptAt: event.data.nextAttemptAt })
        : state;
    case 'NotificationDelivered':
    case 'NotificationCancelled':
      return withOpen(state, event.data.webhookId, undefined);
    case 'NotificationDeadLettered':
      return current ? withOpen(state, event.data.webhookId, { ...current, status: 'dead-lettered', nextAttemptAt: null }) : state;
    case 'NotificationResent':
      return current
        ? withOpen(state, event.data.webhookId, { ...current, status: 'pending', attempts: 0, nextAttemptAt: event.data.at })
        : state;
    case 'NotificationRedelivered':
      return withOpen(state, event.data.webhookId, {
        webhookId: event.data.webhookId,
        sequence: event.data.sequence,
        body: event.data.body,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: event.data.at,
      });
    default:
      return assertNever(event);
  }
}
