import { deciderSpec } from '@gw/domain-core/testing';
import { notificationsDecider } from './notifications.decider';
import {
  spec,
  state,
  plus,
  DEFAULT_SCHEDULE,
  created,
  failed,
  delivered,
  deadLettered,
  cancelled,
  resent,
  failedAttempts,
  deadLetteredHistory,
  record,
  cancelPending,
  resendDeadLettered,
} from './__fixtures__/notifications.fixtures';

describe('cancelling pending notifications', () => {
  const reason = 'delivery switched off';
  const now = plus(300000);
  // webhook ids deliberately not in alphabetical order of sequence
  const history = [
    created('wh-c', 1),
    ...deadLetteredHistory('wh-a', 2),
    created('wh-b', 3, plus(1)),
    failed('wh-b', 3, 1, plus(1), plus(6)),
    created('wh-d', 4, plus(2)),
    delivered('wh-d', 4, 1, plus(3)),
    created('wh-0', 5, plus(4)),
  ];

  it('cancels every pending notification in sequence order and leaves dead-lettered and delivered ones', () => {
    spec
      .given(history)
      .when(cancelPending(reason, now))
      .then([cancelled('wh-c', 1, reason, now), cancelled('wh-b', 3, reason, now), cancelled('wh-0', 5, reason, now)]);
  });

  it('keeps the dead-lettered one resendable after the cancellation', () => {
    const after = [
      ...history,
      cancelled('wh-c', 1, reason, now),
      cancelled('wh-b', 3, reason, now),
      cancelled('wh-0', 5, reason, now),
    ];
    expect(Object.keys(state(after).open)).toEqual(['wh-a']);
    spec
      .given(after)
      .when(resendDeadLettered(plus(1, now)))
      .then([resent('wh-a', 2, plus(1, now))]);
  });

  it('records nothing when nothing is pending', () => {
    spec.given([]).when(cancelPending(reason, now)).then([]);
    spec.given(deadLetteredHistory('wh-a', 1)).when(cancelPending(reason, now)).then([]);
  });
});

describe('resending dead-lettered notifications', () => {
  const t1 = plus(10);
  const history = [
    ...deadLetteredHistory('wh-z', 1),
    created('wh-p', 2, t1),
    ...deadLetteredHistory('wh-a', 3, t1),
    created('wh-d', 4, t1),
    delivered('wh-d', 4, 1, t1),
  ];
  const now = plus(500000);

  it('resends each dead-lettered notification in sequence order and leaves pending ones alone', () => {
    spec
      .given(history)
      .when(resendDeadLettered(now))
      .then([resent('wh-z', 1, now), resent('wh-a', 3, now)]);
  });

  it('records nothing when nothing is dead-lettered', () => {
    spec
      .given([created('wh-1', 1)])
      .when(resendDeadLettered(now))
      .then([]);
    spec.given([]).when(resendDeadLettered(now)).then([]);
  });

  it('makes a resent notification pending with its first new attempt due at once', () => {
    expect(state([...deadLetteredHistory('wh-1', 1), resent('wh-1', 1, now)]).open['wh-1']).toEqual(
      expect.objectContaining({ status: 'pending', attempts: 0, nextAttemptAt: now, sequence: 1 }),
    );
  });

  it('restarts the attempts of a resent notification from 1 with the first delay of the schedule', () => {
    spec
      .given([...deadLetteredHistory('wh-1', 1), resent('wh-1', 1, now)])
      .when(record('wh-1', now, 500))
      .then([failed('wh-1', 1, 1, now, plus(5, now))]);
    spec
      .given([...deadLetteredHistory('wh-1', 1), resent('wh-1', 1, now)])
      .when(record('wh-1', now, 204))
      .then([delivered('wh-1', 1, 1, now, 204)]);
  });

  it('dead-letters a resent notification again only after its full new schedule', () => {
    const base = [...deadLetteredHistory('wh-1', 1), resent('wh-1', 1, now)];
    const six = failedAttempts('wh-1', 1, 6, DEFAULT_SCHEDULE, now);
    spec
      .given([...base, ...six.events])
      .when(record('wh-1', six.nextAt, 500))
      .then([failed('wh-1', 1, 7, six.nextAt, plus(36000, six.nextAt))]);

    const seven = failedAttempts('wh-1', 1, 7, DEFAULT_SCHEDULE, now);
    spec
      .given([...base, ...seven.events])
      .when(record('wh-1', seven.nextAt, 500))
      .then([failed('wh-1', 1, 8, seven.nextAt, null), deadLettered('wh-1', 1, seven.nextAt)]);
  });

  it('can resend a notification dead-lettered a second time', () => {
    const seven = failedAttempts('wh-1', 1, 7, DEFAULT_SCHEDULE, now);
    const later = plus(1, seven.nextAt);
    spec
      .given([
        ...deadLetteredHistory('wh-1', 1),
        resent('wh-1', 1, now),
        ...seven.events,
        failed('wh-1', 1, 8, seven.nextAt, null),
        deadLettered('wh-1', 1, seven.nextAt),
      ])
      .when(resendDeadLettered(later))
      .then([resent('wh-1', 1, later)]);
  });
});

describe('cancelling chosen notifications', () => {
  it('cancels only the chosen ones that are still pending, in sequence order', () => {
    const created = (webhookId: string, sequence: number) => ({
      type: 'NotificationCreated' as const,
      data: {
        instanceId: 'i1',
        webhookId,
        sequence,
        body: { instanceId: 'i1', sequence, messages: [] },
        sourceEventIds: [`s-${webhookId}`],
        createdAt: '2026-01-01T00:00:00.000Z',
      },
    });
    deciderSpec(notificationsDecider)
      .given([created('w-b', 1), created('w-a', 2), created('w-c', 3)])
      .when({
        type: 'CancelNotifications',
        data: {
          instanceId: 'i1',
          webhookIds: ['w-c', 'w-b', 'w-unknown'],
          reason: 'off',
          now: '2026-01-02T00:00:00.000Z',
        },
      })
      .then([
        {
          type: 'NotificationCancelled',
          data: { instanceId: 'i1', webhookId: 'w-b', sequence: 1, reason: 'off', at: '2026-01-02T00:00:00.000Z' },
        },
        {
          type: 'NotificationCancelled',
          data: { instanceId: 'i1', webhookId: 'w-c', sequence: 3, reason: 'off', at: '2026-01-02T00:00:00.000Z' },
        },
      ]);
  });
});
