import { assertNever } from '@gw/domain-core';
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
    case 'NotificationCreated':
      return withOpen({ ...state, lastSequence: Math.max(state.lastSequence, event.data.sequence) }, event.data.webhookId, {
        webhookId: event.data.webhookId,
        sequence: event.data.sequence,
        body: event.data.body,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: event.data.createdAt,
      });
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
    default:
      return assertNever(event);
  }
}
