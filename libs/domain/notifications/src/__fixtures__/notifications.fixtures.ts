/** What the notifications decider's specs share: an instance, a schedule, and event and command makers. */
import { deciderSpec } from '@gw/domain-core/testing';
import { fold } from '@gw/domain-core';
import type { SealedMessage } from '@gw/domain-inbox';
import { notificationsDecider, type NotificationCommand } from '../notifications.decider';
import type { NotificationBody, NotificationContent, NotificationEvent } from '../notification.events';

export const spec = deciderSpec(notificationsDecider);
export const state = (history: NotificationEvent[]) => fold(notificationsDecider, history);

export const I = 'i1';
export const t0 = '2026-01-01T00:00:00.000Z';
/** t0 (or `from`) plus whole or fractional seconds, as an ISO timestamp. */
export const plus = (seconds: number, from = t0) => new Date(Date.parse(from) + Math.round(seconds * 1000)).toISOString();

/** docs/api.md section 6: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the immediate first attempt. */
export const DEFAULT_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;

/** A message as notifications carry it: its personal fields sealed (the domain never opens them). */
export const message: SealedMessage = { id: 'm1', fromMe: false, type: 'chat', sealed: 'pd2.sealed-message', time: 1767225600 };

export const bodyOf = (sequence: number, content: NotificationContent): NotificationBody => ({ instanceId: I, sequence, ...content }) as NotificationBody;

export const created = (
  webhookId: string,
  sequence: number,
  createdAt = t0,
  content: NotificationContent = { messages: [message] },
): NotificationEvent => ({
  type: 'NotificationCreated',
  data: { instanceId: I, webhookId, sequence, body: bodyOf(sequence, content), sourceEventIds: [`src-${sequence}`], createdAt },
});

export const failed = (
  webhookId: string,
  sequence: number,
  attempt: number,
  at: string,
  nextAttemptAt: string | null,
  status = 500,
  error = 'Internal Server Error',
): NotificationEvent => ({
  type: 'DeliveryAttemptFailed',
  data: { instanceId: I, webhookId, sequence, attempt, at, status, error, durationMs: 12, nextAttemptAt },
});

export const delivered = (webhookId: string, sequence: number, attempt: number, at: string, status = 200): NotificationEvent => ({
  type: 'NotificationDelivered',
  data: { instanceId: I, webhookId, sequence, attempt, at, status, durationMs: 12 },
});

export const deadLettered = (webhookId: string, sequence: number, at: string): NotificationEvent => ({
  type: 'NotificationDeadLettered',
  data: { instanceId: I, webhookId, sequence, at },
});

export const cancelled = (webhookId: string, sequence: number, reason: string, at: string): NotificationEvent => ({
  type: 'NotificationCancelled',
  data: { instanceId: I, webhookId, sequence, reason, at },
});

export const resent = (webhookId: string, sequence: number, at: string): NotificationEvent => ({
  type: 'NotificationResent',
  data: { instanceId: I, webhookId, sequence, at },
});

/** `count` failed attempts in a row, each made exactly when it was due (jitter 1). */
export function failedAttempts(webhookId: string, sequence: number, count: number, schedule: readonly number[] = DEFAULT_SCHEDULE, start = t0) {
  const events: NotificationEvent[] = [];
  let when = start;
  for (let attempt = 1; attempt <= count; attempt++) {
    const next = plus(schedule[attempt - 1], when);
    events.push(failed(webhookId, sequence, attempt, when, next));
    when = next;
  }
  return { events, nextAt: when };
}

/** A notification that went through the whole default schedule and was dead-lettered. */
export function deadLetteredHistory(webhookId: string, sequence: number, createdAt = t0) {
  const { events, nextAt } = failedAttempts(webhookId, sequence, DEFAULT_SCHEDULE.length, DEFAULT_SCHEDULE, createdAt);
  return [
    created(webhookId, sequence, createdAt),
    ...events,
    failed(webhookId, sequence, DEFAULT_SCHEDULE.length + 1, nextAt, null),
    deadLettered(webhookId, sequence, nextAt),
  ];
}

export const record = (
  webhookId: string,
  at: string,
  status: number,
  options: { error?: string; retryAfterSeconds?: number | null; retryDelaysSeconds?: readonly number[]; jitter?: number } = {},
): NotificationCommand => ({
  type: 'RecordAttempt',
  data: {
    instanceId: I,
    webhookId,
    at,
    status,
    error: options.error ?? (status >= 200 && status < 300 ? '' : 'Internal Server Error'),
    durationMs: 12,
    retryAfterSeconds: options.retryAfterSeconds ?? null,
    retryDelaysSeconds: options.retryDelaysSeconds ?? DEFAULT_SCHEDULE,
    jitter: options.jitter ?? 1,
  },
});

export const cancelPending = (reason: string, now: string): NotificationCommand => ({ type: 'CancelPending', data: { instanceId: I, reason, now } });
export const resendDeadLettered = (now: string): NotificationCommand => ({ type: 'ResendDeadLettered', data: { instanceId: I, now } });

