import { Codes, type Violation } from '@gw/contract';
import { addMs, assertNever, refuseIfAny, type Decider } from '@gw/domain-core';
import type { NotificationBody, NotificationContent, NotificationEvent } from './notification.events';
import { noticeRecorded } from './instance-notices';
import {
  evolveNotifications,
  initialNotificationsState,
  type NotificationsState,
  type OpenNotification,
} from './notifications.state';

/** One notification to create: the webhook id the caller chose for it, what it carries, and the
 * recorded messages or acks that is made of (see `batchNotifiable`); an instance notice carries its
 * `noticeKey` instead (see `dueNotices`). */
export interface NewNotification {
  webhookId: string;
  content: NotificationContent;
  sourceEventIds: string[];
  noticeKey?: string;
}

/** An instance notice that was made already for the same expiry is not made again (docs/api.md 8.9). */
function alreadyNoticed({ content, noticeKey }: NewNotification, state: NotificationsState): boolean {
  return (
    noticeKey !== undefined &&
    'instance' in content &&
    noticeRecorded(state.notices ?? null, content.instance.expiresAt, noticeKey)
  );
}

/** Creates the next notifications of an instance, numbered on from its last sequence in this order;
 * each body carries the instance's `label` when it has one (docs/api.md 13.1). */
export type CreateNotifications = {
  type: 'CreateNotifications';
  data: { instanceId: string; notifications: readonly NewNotification[]; now: string; label?: string | null };
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

/** The outcome of a test notification sent on request (docs/api.md 8.6), recorded after the attempt. */
export type RecordTestAttempt = {
  type: 'RecordTestAttempt';
  data: { instanceId: string; webhookId: string; at: string; status: number; error: string; durationMs: number };
};

/** The widest range one redeliver may name (docs/api.md 8.8). */
export const MAX_REDELIVER_RANGE = 1000;

/**
 * The instance's owner queues again the notifications with `from` ≤ sequence ≤ `to` (null: the
 * last), whatever their state; pending ones are left as they are (docs/api.md 8.8). `recorded` holds
 * the instance's notifications in that range (or more) as its stream holds them (see
 * `NotificationHistory`), each with the revision of its NotificationCreated: the state keeps open
 * ones only, and a delivered or cancelled one is sent again from its body there. `expired` and
 * `deliveryOn` describe the instance at `now`.
 */
export type Redeliver = {
  type: 'Redeliver';
  data: {
    instanceId: string;
    from: number;
    to: number | null;
    recorded: readonly { webhookId: string; sequence: number; createdRevision: number }[];
    expired: boolean;
    deliveryOn: boolean;
    now: string;
  };
};

/** What a notifications stream is asked to do. */
export type NotificationCommand =
  | RecordTestAttempt
  | CreateNotifications
  | RecordAttempt
  | CancelPending
  | CancelNotifications
  | ResendDeadLettered
  | Redeliver;

/** Why delivery was switched off when a receiver answered 410. */
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
    return [
      failed(null),
      { type: 'NotificationCancelled', data: { ...ref(data.instanceId, n), reason: GONE_REASON, at: data.at } },
    ];
  }
  if (attempt > data.retryDelaysSeconds.length) {
    return [failed(null), { type: 'NotificationDeadLettered', data: { ...ref(data.instanceId, n), at: data.at } }];
  }
  const scheduled = data.retryDelaysSeconds[attempt - 1] * data.jitter;
  const delay =
    data.retryAfterSeconds === null ? scheduled : Math.min(Math.max(data.retryAfterSeconds, scheduled), 2 * scheduled);
  return [failed(addMs(data.at, Math.round(delay * 1000)))];
}

function decideRedeliver({ data }: Redeliver, state: NotificationsState): NotificationEvent[] {
  const to = data.to ?? state.lastSequence;
  const violations: Violation[] = [];
  if (to - data.from + 1 > MAX_REDELIVER_RANGE) {
    // Without `to` the range runs to the last sequence, known only here (after authentication).
    const field = data.to === null || data.to === undefined ? 'from' : 'to';
    const message =
      field === 'from'
        ? `from \`from\` to the last notification is over ${MAX_REDELIVER_RANGE}; give \`to\``
        : `the range may hold at most ${MAX_REDELIVER_RANGE} sequence numbers`;
    violations.push({ code: Codes.MalformedParameter, field, message });
  }
  if (data.expired)
    violations.push({
      code: Codes.InstanceExpired,
      field: 'instanceid',
      message: 'the instance has expired; renew it first',
    });
  else if (!data.deliveryOn)
    violations.push({
      code: Codes.DeliveryOff,
      field: 'instanceid',
      message: 'delivery is off: register a webhook URL first',
    });
  refuseIfAny(violations);
  return data.recorded
    .filter((n) => n.sequence >= data.from && n.sequence <= to && n.sequence <= state.lastSequence)
    .filter((n) => state.open[n.webhookId]?.status !== 'pending')
    .sort((a, b) => a.sequence - b.sequence)
    .map((n) => ({
      type: 'NotificationRedelivered',
      data: {
        instanceId: data.instanceId,
        webhookId: n.webhookId,
        sequence: n.sequence,
        createdRevision: n.createdRevision,
        at: data.now,
      },
    }));
}

/** The notifications' decider: creation, attempts and their outcomes, resends and redeliveries. */
export const notificationsDecider: Decider<NotificationCommand, NotificationEvent, NotificationsState> = {
  initialState: initialNotificationsState,
  evolve: evolveNotifications,
  decide(command, state) {
    switch (command.type) {
      case 'CreateNotifications': {
        const { instanceId, notifications, now, label } = command.data;
        return notifications
          .filter((n) => !alreadyNoticed(n, state))
          .map(({ webhookId, content, sourceEventIds, noticeKey }, i): NotificationEvent => {
            const sequence = state.lastSequence + 1 + i;
            const body = { instanceId, sequence, ...(label ? { label } : {}), ...content } as NotificationBody;
            return {
              type: 'NotificationCreated',
              data: {
                instanceId,
                webhookId,
                sequence,
                body,
                sourceEventIds,
                ...(noticeKey ? { noticeKey } : {}),
                createdAt: now,
              },
            };
          });
      }
      case 'RecordAttempt':
        return decideAttempt(command, state);
      case 'RecordTestAttempt':
        // Always recorded, whatever the instance's notifications: it is a fact about the receiver.
        return [{ type: 'TestNotificationAttempted', data: { ...command.data } }];
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
          .filter((n) => n.status === 'deadLettered')
          .sort(bySequence)
          .map((n) => ({ type: 'NotificationResent', data: { ...ref(instanceId, n), at: now } }));
      }
      case 'Redeliver':
        return decideRedeliver(command, state);
      default:
        return assertNever(command);
    }
  },
};
