import { NotificationHistory } from './notification-history';
import type { NotificationEvent } from './notification.events';

const at = '2026-11-23T10:00:00.000Z';
const created = (sequence: number, webhookId = `msg_${sequence}`): NotificationEvent => ({
  type: 'NotificationCreated',
  data: {
    instanceId: 'i1',
    webhookId,
    sequence,
    body: { instanceId: 'i1', sequence, ack: [] },
    sourceEventIds: [],
    createdAt: at,
  },
});
const outcome = (
  type: 'NotificationDelivered' | 'NotificationCancelled' | 'NotificationRedelivered',
  sequence: number,
): NotificationEvent =>
  ({
    type,
    data: {
      instanceId: 'i1',
      webhookId: `msg_${sequence}`,
      sequence,
      attempt: 1,
      at,
      status: 200,
      durationMs: 1,
      reason: 'x',
      body: { instanceId: 'i1', sequence, ack: [] },
    },
  }) as NotificationEvent;

describe('NotificationHistory', () => {
  const fold = (events: NotificationEvent[], history = new NotificationHistory<number>()) => {
    for (const event of events) history.apply(event, (data) => data.sequence * 10);
    return history;
  };

  it('keeps every notification with its latest outcome, folding later events into the same history', () => {
    const history = fold([created(1), created(2), outcome('NotificationDelivered', 1)]);
    fold([outcome('NotificationCancelled', 2), created(3), outcome('NotificationRedelivered', 1)], history);
    expect(history.lastSequence).toBe(3);
    expect(history.between(1, Infinity).map((r) => [r.sequence, r.state, r.body])).toEqual([
      [1, 'pending', 10],
      [2, 'cancelled', 20],
      [3, 'pending', 30],
    ]);
  });

  it('pages by sequence, bounded by from, to and limit, and hands out copies', () => {
    const history = fold([1, 2, 3, 4, 5].map((sequence) => created(sequence)));
    expect(history.between(2, 4).map((r) => r.sequence)).toEqual([2, 3, 4]);
    expect(history.between(3, Infinity, 2).map((r) => r.sequence)).toEqual([3, 4]);
    expect(history.between(6, Infinity)).toEqual([]);
    const [copy] = history.between(1, 1);
    copy.state = 'delivered';
    expect(history.between(1, 1)[0].state).toBe('pending');
  });

  it('keeps one record per webhook id, in sequence order', () => {
    const history = fold([created(2), created(1), created(3, 'msg_2')]);
    expect(history.size).toBe(2);
    expect(history.between(1, Infinity).map((r) => [r.sequence, r.webhookId])).toEqual([
      [1, 'msg_1'],
      [3, 'msg_2'],
    ]);
  });
});
