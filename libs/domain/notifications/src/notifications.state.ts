import { assertNever } from '@gw/domain-core';
import { withNotice, type NoticeLedger } from './instance-notices';
import type { NotificationOutcome } from './notification-history';
import type { NotificationBody, NotificationEvent } from './notification.events';

/** A notification that may still be sent: pending, or dead-lettered (resendable). */
export interface OpenNotification {
  webhookId: string;
  sequence: number;
  /** What it carries; null for one redelivered by reference whose body the state did not hold:
   * then `createdRevision` says where it is (the revision of its NotificationCreated). */
  body: NotificationBody | null;
  createdRevision?: number;
  /** Named as getNotifications names it (docs/api.md 8.7). */
  status: Extract<NotificationOutcome, 'pending' | 'deadLettered'>;
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
  /** Attempts that failed one after the other since the last success, when the first of them was
   * made (docs/api.md section 12), and, once there are PROBE_AFTER_FAILURES of them, the
   * notification that probes the endpoint (section 11); absent after a success or before any failure. */
  failing?: { consecutive: number; since: string; probe?: string };
}

/** After this many failed attempts in a row an endpoint is probed: one notification at a time. */
export const PROBE_AFTER_FAILURES = 5;

/** The state before the stream's first event. */
export const initialNotificationsState = (): NotificationsState => ({ lastSequence: 0, open: {} });

function withOpen(
  state: NotificationsState,
  webhookId: string,
  next: OpenNotification | undefined,
): NotificationsState {
  const open = { ...state.open };
  if (next) open[webhookId] = next;
  else delete open[webhookId];
  return { ...state, open };
}

/** The state after one more event of the notifications stream. */
export function evolveNotifications(state: NotificationsState, event: NotificationEvent): NotificationsState {
  return withProbe(applyEvent(state, event));
}

function applyEvent(state: NotificationsState, event: NotificationEvent): NotificationsState {
  const current = state.open[event.data.webhookId];
  switch (event.type) {
    case 'TestNotificationAttempted':
      // A test is outside the sequence: it opens nothing and numbers nothing.
      return state;
    case 'NotificationCreated': {
      const { body, noticeKey } = event.data;
      const notices =
        noticeKey && 'instance' in body
          ? { notices: withNotice(state.notices ?? null, body.instance.expiresAt, noticeKey) }
          : {};
      return withOpen(
        { ...state, lastSequence: Math.max(state.lastSequence, event.data.sequence), ...notices },
        event.data.webhookId,
        {
          webhookId: event.data.webhookId,
          sequence: event.data.sequence,
          body: event.data.body,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: event.data.createdAt,
        },
      );
    }
    case 'DeliveryAttemptFailed': {
      const probe = state.failing?.probe;
      const failing = {
        consecutive: (state.failing?.consecutive ?? 0) + 1,
        since: state.failing?.since ?? event.data.at,
        ...(probe === undefined ? {} : { probe }),
      };
      return current
        ? withOpen({ ...state, failing }, event.data.webhookId, {
            ...current,
            attempts: event.data.attempt,
            nextAttemptAt: event.data.nextAttemptAt,
          })
        : { ...state, failing };
    }
    case 'NotificationDelivered': {
      const { failing: _over, ...rest } = state;
      return withOpen(rest, event.data.webhookId, undefined);
    }
    case 'NotificationCancelled':
      return withOpen(state, event.data.webhookId, undefined);
    case 'NotificationDeadLettered':
      return current
        ? withOpen(state, event.data.webhookId, { ...current, status: 'deadLettered', nextAttemptAt: null })
        : state;
    case 'NotificationResent':
      return current
        ? withOpen(state, event.data.webhookId, {
            ...current,
            status: 'pending',
            attempts: 0,
            nextAttemptAt: event.data.at,
          })
        : state;
    case 'NotificationRedelivered': {
      // A dead-lettered one is still held with its body; a delivered or cancelled one is named by reference.
      const body = event.data.body ?? current?.body ?? null;
      const where =
        body === null && event.data.createdRevision !== undefined
          ? { createdRevision: event.data.createdRevision }
          : {};
      return withOpen(state, event.data.webhookId, {
        webhookId: event.data.webhookId,
        sequence: event.data.sequence,
        body,
        ...where,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: event.data.at,
      });
    }
    default:
      return assertNever(event);
  }
}

const isPending = (n: OpenNotification | undefined): n is OpenNotification =>
  n?.status === 'pending' && n.nextAttemptAt !== null;

/**
 * Once PROBE_AFTER_FAILURES attempts in a row have failed, names the probe (docs/api.md section 11),
 * after every event: the pending notification whose retry is due first, chosen when the count is
 * reached, and again whenever there is none (the probe was dead-lettered or cancelled; or nothing was
 * pending, and a notification is created, resent or redelivered). It stays the probe through its own
 * failures, so that the others wait without spending their attempts.
 */
function withProbe(state: NotificationsState): NotificationsState {
  const failing = state.failing;
  if (!failing || failing.consecutive < PROBE_AFTER_FAILURES) return state;
  if (failing.probe !== undefined && isPending(state.open[failing.probe])) return state;
  const { probe: _gone, ...rest } = failing;
  const probe = earliestDue(state)?.webhookId;
  return { ...state, failing: probe === undefined ? rest : { ...rest, probe } };
}

/** The pending notification due first, then the one of lowest sequence. */
function earliestDue(state: NotificationsState): OpenNotification | undefined {
  let best: OpenNotification | undefined;
  for (const n of Object.values(state.open)) {
    if (n.status !== 'pending' || n.nextAttemptAt === null) continue;
    if (
      !best ||
      n.nextAttemptAt < best.nextAttemptAt! ||
      (n.nextAttemptAt === best.nextAttemptAt && n.sequence < best.sequence)
    )
      best = n;
  }
  return best;
}

/**
 * The pending notification to attempt next, due or not (docs/api.md sections 6 and 11): the earliest
 * due, then the lowest sequence; while the endpoint is probed, only the probe (withProbe).
 */
export function nextToAttempt(state: NotificationsState): OpenNotification | undefined {
  const probe = state.failing?.probe;
  if (probe !== undefined && isPending(state.open[probe])) return state.open[probe];
  return earliestDue(state);
}
