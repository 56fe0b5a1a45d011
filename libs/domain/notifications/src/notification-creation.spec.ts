import { deciderSpec } from '@gw/domain-core/testing';
import { fold } from '@gw/domain-core';
import type { SealedAck, SealedMessage } from '@gw/domain-inbox';
import { batchNotifiable, type BatchLimits, type NotifiableItem } from './notification-batches';
import type { NotificationContent, NotificationEvent } from './notification.events';
import { notificationsDecider, type NewNotification, type NotificationCommand } from './notifications.decider';

const spec = deciderSpec(notificationsDecider);
const I = 'i1';
const t0 = '2026-01-01T00:00:00.000Z';
const t1 = '2026-01-01T00:00:01.000Z';

// Personal fields travel sealed; the domain never opens them.
const message = (id: string): SealedMessage => ({
  id,
  fromMe: false,
  type: 'chat',
  sealed: `pd2.sealed-${id}`,
  time: 1767225600,
});
const ack = (id: string): SealedAck => ({ id, sealed: 'pd2.sealed-chat', status: 'read', time: 1767225601 });
const m = (id: string): NotifiableItem => ({ sourceEventId: `ev-${id}`, message: message(id) });
const a = (id: string): NotifiableItem => ({ sourceEventId: `ev-${id}`, ack: ack(id) });

const create = (now: string, ...notifications: NewNotification[]): NotificationCommand => ({
  type: 'CreateNotifications',
  data: { instanceId: I, notifications, now },
});
const one = (webhookId: string, content: NotificationContent, ...sourceEventIds: string[]): NewNotification => ({
  webhookId,
  content,
  sourceEventIds,
});
const createdEvent = (
  webhookId: string,
  sequence: number,
  content: NotificationContent,
  sourceEventIds: string[],
  createdAt = t0,
): NotificationEvent => ({
  type: 'NotificationCreated',
  data: {
    instanceId: I,
    webhookId,
    sequence,
    body: { instanceId: I, sequence, ...content },
    sourceEventIds,
    createdAt,
  },
});

describe('creating notifications', () => {
  it('numbers the first notification of an instance 1 and puts its messages in the body', () => {
    spec
      .given([])
      .when(create(t0, one('wh-1', { messages: [message('1'), message('2')] }, 'ev-1', 'ev-2')))
      .then([createdEvent('wh-1', 1, { messages: [message('1'), message('2')] }, ['ev-1', 'ev-2'])]);
  });

  it('numbers several notifications of one command on from the last sequence, in the order given', () => {
    spec
      .given([createdEvent('wh-1', 1, { messages: [message('1')] }, ['ev-1'])])
      .when(create(t1, one('wh-2', { ack: [ack('2')] }, 'ev-2'), one('wh-3', { messages: [message('3')] }, 'ev-3')))
      .then([
        createdEvent('wh-2', 2, { ack: [ack('2')] }, ['ev-2'], t1),
        createdEvent('wh-3', 3, { messages: [message('3')] }, ['ev-3'], t1),
      ]);
  });

  it('keeps counting after earlier notifications were delivered or cancelled (no reuse of a sequence)', () => {
    spec
      .given([
        createdEvent('wh-1', 1, { messages: [message('1')] }, ['ev-1']),
        {
          type: 'NotificationDelivered',
          data: { instanceId: I, webhookId: 'wh-1', sequence: 1, attempt: 1, at: t1, status: 200, durationMs: 3 },
        },
        createdEvent('wh-2', 2, { messages: [message('2')] }, ['ev-2']),
        {
          type: 'NotificationCancelled',
          data: { instanceId: I, webhookId: 'wh-2', sequence: 2, reason: 'off', at: t1 },
        },
      ])
      .when(create(t1, one('wh-3', { ack: [ack('3')] }, 'ev-3')))
      .then([createdEvent('wh-3', 3, { ack: [ack('3')] }, ['ev-3'], t1)]);
  });

  it('makes each first attempt due immediately, at creation time', () => {
    const events = notificationsDecider.decide(
      create(t1, one('wh-1', { messages: [message('1')] }, 'ev-1')),
      notificationsDecider.initialState(),
    );
    expect(fold(notificationsDecider, events).open['wh-1']).toEqual(
      expect.objectContaining({ status: 'pending', attempts: 0, nextAttemptAt: t1, sequence: 1 }),
    );
  });

  it('records nothing for an empty command', () => {
    spec.given([]).when(create(t0)).then([]);
  });
});

describe('batching waiting messages and acks', () => {
  /** Sizes as the items' ids say: `m('1')` weighs 1 byte unless `weights` names it. */
  const limits = (
    maxItems: number,
    maxBytes = Number.POSITIVE_INFINITY,
    weights: Record<string, number> = {},
  ): BatchLimits => ({
    maxItems,
    maxBytes,
    sizeOf: (item) => weights[item.sourceEventId] ?? 1,
  });

  it('puts consecutive items of one kind in one notification, in record order', () => {
    expect(batchNotifiable([m('1'), m('2'), m('3')], limits(100))).toEqual([
      { content: { messages: [message('1'), message('2'), message('3')] }, sourceEventIds: ['ev-1', 'ev-2', 'ev-3'] },
    ]);
  });

  it('never mixes messages and acks, and keeps record order across the kinds', () => {
    expect(batchNotifiable([m('1'), a('2'), a('3'), m('4')], limits(100))).toEqual([
      { content: { messages: [message('1')] }, sourceEventIds: ['ev-1'] },
      { content: { ack: [ack('2'), ack('3')] }, sourceEventIds: ['ev-2', 'ev-3'] },
      { content: { messages: [message('4')] }, sourceEventIds: ['ev-4'] },
    ]);
  });

  it('carries at most the batch size per notification', () => {
    const items = ['1', '2', '3', '4', '5'].map(a);
    expect(batchNotifiable(items, limits(2)).map((b) => b.sourceEventIds)).toEqual([
      ['ev-1', 'ev-2'],
      ['ev-3', 'ev-4'],
      ['ev-5'],
    ]);
    expect(batchNotifiable(items, limits(1))).toHaveLength(5);
  });

  it('carries at most the byte bound per notification, an item larger than it alone', () => {
    // Each item costs its size plus one byte for the comma that joins it to the next.
    const items = ['1', '2', '3', '4', '5', '6'].map(m);
    const weights = { 'ev-1': 40, 'ev-2': 40, 'ev-3': 40, 'ev-4': 150, 'ev-5': 10, 'ev-6': 10 };
    expect(batchNotifiable(items, limits(100, 100, weights)).map((b) => b.sourceEventIds)).toEqual([
      ['ev-1', 'ev-2'],
      ['ev-3'],
      ['ev-4'],
      ['ev-5', 'ev-6'],
    ]);
  });

  it('fills a notification up to exactly the byte bound', () => {
    const items = ['1', '2'].map(a);
    expect(batchNotifiable(items, limits(100, 20, { 'ev-1': 9, 'ev-2': 9 }))).toHaveLength(1);
    expect(batchNotifiable(items, limits(100, 19, { 'ev-1': 9, 'ev-2': 9 }))).toHaveLength(2);
  });

  it('makes nothing of nothing, and refuses a batch size below 1', () => {
    expect(batchNotifiable([], limits(100))).toEqual([]);
    expect(() => batchNotifiable([m('1')], limits(0))).toThrow(RangeError);
  });
});
