import { addMs, assertNever, type Decider } from '@gw/domain-core';
import type { NotificationContent, NotificationEvent } from './notification.events';
import { evolveNotifications, initialNotificationsState, type NotificationsState, type OpenNotification } from './notifications.state';

/** One notification to create: the webhook id the caller chose for it, what it carries, and the
 * recorded messages or acks that is made of (see `batchNotifiable`). */
export interface NewNotification {
  webhookId: string;
  content: NotificationContent;
  sourceEventIds: string[];
}

/** Creates the next notifications of an instance, numbered on from its last sequence in this order. */
export type CreateNotifications = {
  type: 'CreateNotifications';
  data: { instanceId: string; notifications: readonly NewNotification[]; now: string };
};

/**
 * Records the outcome of one attempt. `retryDelaysSeconds` is the schedule after the first attempt
 * (docs/api.md section 6); `jitter` (0.8 to 1.2, drawn by the caller) scales the scheduled delay, and a
 * receiver's `retryAfterSeconds` is kept between 1x and 2x of it.
 */
export type RecordAttempt = {
  type: 'RecordAttempt';
  data: {
    instanceId: string;
    webhookId: string;
    at: string;
    status: number;
    error: string;
    durationMs: number;
    retryAfterSeconds: number | null;
    retryDelaysSeconds: readonly number[];
    jitter: number;
  };
};

/** Delivery was switched off or the instance expired: every pending notification is cancelled. */
export type CancelPending = { type: 'CancelPending'; data: { instanceId: string; reason: string; now: string } };

/** Cancels those of the given notifications that are still pending, and no others (delivery went off
 * after they were created, and may be on again for newer ones). */
export type CancelNotifications = {
  type: 'CancelNotifications';
  data: { instanceId: string; webhookIds: readonly string[]; reason: string; now: string };
};

/** An operator resends the dead-lettered notifications, each with a new full schedule. */
export type ResendDeadLettered = { type: 'ResendDeadLettered'; data: { instanceId: string; now: string } };

export type NotificationCommand = CreateNotifications | RecordAttempt | CancelPending | CancelNotifications | ResendDeadLettered;

export const GONE_REASON = 'the receiver answered 410 Gone';

const ref = (instanceId: string, n: OpenNotification) => ({ instanceId, webhookId: n.webhookId, sequence: n.sequence });
const bySequence = (a: OpenNotification, b: OpenNotification) => a.sequence - b.sequence;

function decideAttempt({ data }: RecordAttempt, state: NotificationsState): NotificationEvent[] {
  const n = state.open[data.webhookId];
  // An outcome for a notification cancelled or delivered meanwhile changes nothing.
  if (!n || n.status !== 'pending') return [];
  const attempt = n.attempts + 1;
  const at = { at: data.at, durationMs: data.durationMs, attempt };
  if (data.status >= 200 && data.status < 300) {
    return [{ type: 'NotificationDelivered', data: { ...ref(data.instanceId, n), ...at, status: data.status } }];
  }
  const failed = (nextAttemptAt: string | null): NotificationEvent => ({
    type: 'DeliveryAttemptFailed',
    data: { ...ref(data.instanceId, n), ...at, status: data.status, error: data.error, nextAttemptAt },
  });
  if (data.status === 410) {
    return [failed(null), { type: 'NotificationCancelled', data: { ...ref(data.instanceId, n), reason: GONE_REASON, at: data.at } }];
  }
  if (attempt > data.retryDelaysSeconds.length) {
    return [failed(null), { type: 'NotificationDeadLettered', data: { ...ref(data.instanceId, n), at: data.at } }];
  }
  const scheduled = data.retryDelaysSeconds[attempt - 1] * data.jitter;
  const delay = data.retryAfterSeconds === null ? scheduled : Math.min(Math.max(data.retryAfterSeconds, scheduled), 2 * scheduled);
  return [failed(addMs(data.at, Math.round(delay * 1000)))];
}

export const notificationsDecider: Decider<NotificationCommand, NotificationEvent, NotificationsState> = {
  initialState: initialNotificationsState,
  evolve: evolveNotifications,
  decide(command, state) {
    switch (command.type) {
      case 'CreateNotifications': {
        const { instanceId, notifications, now } = command.data;
        return notifications.map(({ webhookId, content, sourceEventIds }, i) => {
          const sequence = state.lastSequence + 1 + i;
          return {
            type: 'NotificationCreated',
            data: { instanceId, webhookId, sequence, body: { instanceId, sequence, ...content }, sourceEventIds, createdAt: now },
          };
        });
      }
      case 'RecordAttempt':
        return decideAttempt(command, state);
      case 'CancelPending':
      case 'CancelNotifications': {
        const { instanceId, reason, now } = command.data;
        const chosen = command.type === 'CancelNotifications' ? new Set(command.data.webhookIds) : undefined;
        return Object.values(state.open)
          .filter((n) => n.status === 'pending' && (!chosen || chosen.has(n.webhookId)))
          .sort(bySequence)
          .map((n) => ({ type: 'NotificationCancelled', data: { ...ref(instanceId, n), reason, at: now } }));
      }
      case 'ResendDeadLettered': {
        const { instanceId, now } = command.data;
        return Object.values(state.open)
          .filter((n) => n.status === 'dead-lettered')
          .sort(bySequence)
          .map((n) => ({ type: 'NotificationResent', data: { ...ref(instanceId, n), at: now } }));
      }
      default:
        return assertNever(command);
    }
  },
};
