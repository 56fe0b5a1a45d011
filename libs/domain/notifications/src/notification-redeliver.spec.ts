import { Refusal } from '@gw/contract';
import { notificationsDecider, type NotificationCommand } from './notifications.decider';
import type { NotificationEvent } from './notification.events';
import { NotificationHistory, notificationHistory } from './notification-history';
import {
  I,
  bodyOf,
  cancelled,
  created,
  deadLetteredHistory,
  delivered,
  failed,
  message,
  plus,
  resent,
  spec,
  state,
  t0,
} from './__fixtures__/notifications.fixtures';

const now = plus(100000);
const history: NotificationEvent[] = [
  created('wh-1', 1),
  delivered('wh-1', 1, 1, plus(1)),
  ...deadLetteredHistory('wh-2', 2),
  created('wh-3', 3, plus(2)),
  cancelled('wh-3', 3, 'delivery switched off', plus(3)),
  created('wh-4', 4, plus(4)),
  failed('wh-4', 4, 1, plus(4), plus(9)),
];
/** Where each notification's NotificationCreated is in the stream: its index in `history`. */
const createdRevision = (webhookId: string) =>
  history.findIndex((e) => e.type === 'NotificationCreated' && e.data.webhookId === webhookId);
const recorded = () => {
  const held = new NotificationHistory<number>();
  history.forEach((event, revision) => held.apply(event, () => revision));
  return held
    .between(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY)
    .map(({ webhookId, sequence, body }) => ({ webhookId, sequence, createdRevision: body }));
};

const redeliver = (
  from: number,
  to: number | null,
  over: Partial<{ expired: boolean; deliveryOn: boolean }> = {},
): NotificationCommand => ({
  type: 'Redeliver',
  data: { instanceId: I, from, to, recorded: recorded(), expired: false, deliveryOn: true, now, ...over },
});
const redelivered = (webhookId: string, sequence: number): NotificationEvent => ({
  type: 'NotificationRedelivered',
  data: { instanceId: I, webhookId, sequence, createdRevision: createdRevision(webhookId), at: now },
});

describe('an instance history as getNotifications lists it', () => {
  it('keeps every notification with its body and outcome, in sequence order', () => {
    expect(notificationHistory(history).map(({ sequence, webhookId, state: s }) => [sequence, webhookId, s])).toEqual([
      [1, 'wh-1', 'delivered'],
      [2, 'wh-2', 'deadLettered'],
      [3, 'wh-3', 'cancelled'],
      [4, 'wh-4', 'pending'],
    ]);
    expect(notificationHistory(history)[0]).toMatchObject({
      createdAt: t0,
      body: { instanceId: I, sequence: 1, messages: [message] },
    });
  });

  it('shows a resent or redelivered notification as pending again', () => {
    const again = notificationHistory([...history, resent('wh-2', 2, now), redelivered('wh-1', 1)]);
    expect(again.map((n) => n.state)).toEqual(['pending', 'pending', 'cancelled', 'pending']);
  });
});

describe('redelivering a range of notifications', () => {
  it('queues delivered, dead-lettered and cancelled ones again with their webhook id, sequence and body, leaving pending ones', () => {
    spec
      .given(history)
      .when(redeliver(1, null))
      .then([redelivered('wh-1', 1), redelivered('wh-2', 2), redelivered('wh-3', 3)]);
  });

  it('queues only the sequences within from and to', () => {
    spec
      .given(history)
      .when(redeliver(2, 3))
      .then([redelivered('wh-2', 2), redelivered('wh-3', 3)]);
  });

  it('queues nothing for a range with no notification in it, or from after to', () => {
    spec.given(history).when(redeliver(5, 900)).then([]);
    spec.given(history).when(redeliver(3, 2)).then([]);
    spec.given([]).when(redeliver(1, null)).then([]);
  });

  it('brings a delivered notification back as pending with a new full schedule starting now', () => {
    const after = state([...history, redelivered('wh-1', 1)]);
    // By reference: the log and the state name where its body is, and carry no copy of it.
    expect(after.open['wh-1']).toEqual({
      webhookId: 'wh-1',
      sequence: 1,
      body: null,
      createdRevision: 0,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
    });
    expect(after.lastSequence).toBe(4);
  });

  it('keeps the body of a dead-lettered notification it still holds', () => {
    const after = state([...history, redelivered('wh-2', 2)]);
    expect(after.open['wh-2']).toMatchObject({
      body: bodyOf(2, { messages: [message] }),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
    });
  });

  it('reads a version 1 event, which carried the body itself', () => {
    const v1: NotificationEvent = {
      type: 'NotificationRedelivered',
      data: { instanceId: I, webhookId: 'wh-1', sequence: 1, body: bodyOf(1, { messages: [message] }), at: now },
    };
    expect(state([...history, v1]).open['wh-1']).toEqual({
      webhookId: 'wh-1',
      sequence: 1,
      body: bodyOf(1, { messages: [message] }),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
    });
  });

  it('leaves a notification redelivered once and still pending as it is', () => {
    spec
      .given([...history, redelivered('wh-1', 1)])
      .when(redeliver(1, 1))
      .then([]);
  });

  it('refuses a range wider than 1000 whatever exists in it (0002)', () => {
    spec
      .given(history)
      .when(redeliver(1, 1000))
      .then([redelivered('wh-1', 1), redelivered('wh-2', 2), redelivered('wh-3', 3)]);
    spec.given(history).when(redeliver(1, 1001)).thenRefuses(['0002']);
    spec.given([]).when(redeliver(5, 1004)).then([]);
    spec.given([]).when(redeliver(5, 1005)).thenRefuses(['0002']);
  });

  it('without to, counts the range up to the last sequence, and names from in the refusal', () => {
    const long = { ...state(history), lastSequence: 1004 };
    expect(() => notificationsDecider.decide(redeliver(5, null), long)).not.toThrow();
    let refusal: unknown;
    try {
      notificationsDecider.decide(redeliver(5, null, { expired: true }), { ...long, lastSequence: 1005 });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(Refusal);
    expect((refusal as Refusal).kind).toBe('domain');
    expect((refusal as Refusal).violations.map((v) => [v.code, v.field])).toEqual([
      ['0002', 'from'],
      ['0007', 'instanceid'],
    ]);
  });

  it('refuses when delivery is off (0015) or the instance expired (0007)', () => {
    spec
      .given(history)
      .when(redeliver(1, null, { deliveryOn: false }))
      .thenRefuses(['0015']);
    spec
      .given(history)
      .when(redeliver(1, null, { expired: true, deliveryOn: false }))
      .thenRefuses(['0007']);
  });

  it('ignores a recorded notification beyond the stream it is decided on', () => {
    spec
      .given(history.slice(0, 2))
      .when(redeliver(1, null))
      .then([redelivered('wh-1', 1)]);
  });
});
