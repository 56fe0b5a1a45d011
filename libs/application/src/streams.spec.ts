import type { NotificationEvent } from '@gw/domain-notifications';
import { notificationsStream } from './streams';

const created = (webhookId: string, createdAt: string): NotificationEvent => ({
  type: 'NotificationCreated',
  data: {
    instanceId: 'i1',
    webhookId,
    sequence: 1,
    body: { instanceId: 'i1', sequence: 1, messages: [] },
    sourceEventIds: [],
    createdAt,
  },
});

describe("a notification's creation as appended", () => {
  const idOf = (event: NotificationEvent) => notificationsStream.eventId?.(event);

  it('has the same id however often the same creation is appended, and another for another notification', () => {
    const id = idOf(created('msg_a', '2026-11-28T09:00:00.000Z'));
    expect(id).toBeDefined();
    expect(idOf(created('msg_a', '2026-11-28T09:00:00.000Z'))).toBe(id);
    expect(idOf(created('msg_b', '2026-11-28T09:00:00.000Z'))).not.toBe(id);
  });

  it('has ids that sort in the order the notifications were created, whatever their webhook ids', () => {
    // Webhook ids in the reverse of their creation order: only the time can put the ids in order.
    const ids = Array.from({ length: 8 }, (_, i) =>
      idOf(created(`msg_${8 - i}`, new Date(Date.parse('2026-11-28T09:00:00.000Z') + i * 3).toISOString())),
    );
    expect([...ids].sort()).toEqual(ids);
  });
});
