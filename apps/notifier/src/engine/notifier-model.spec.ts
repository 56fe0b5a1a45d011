import type { RecordedEvent } from '@gw/event-store';
import { NotifierModel } from './notifier-model';

const instanceId = 'i1';

/** A NotificationCreated of `instanceId` as read from the log, at `revision` and `position`. */
function createdAt(revision: bigint, position: bigint, webhookId: string): RecordedEvent {
  const sequence = Number(revision) + 1;
  return {
    id: `e-${webhookId}`,
    streamName: `notifications-${instanceId}`,
    revision,
    position,
    type: 'NotificationCreated',
    data: {
      instanceId,
      webhookId,
      sequence,
      body: {
        instanceId,
        sequence,
        messages: [{ id: `m${sequence}`, fromMe: false, type: 'chat', sealed: 'pd2.x', time: 1 }],
      },
      sourceEventIds: [`src-${sequence}`],
      createdAt: '2026-01-01T00:00:00.000Z',
    },
    metadata: {},
    recordedAt: '2026-01-01T00:00:00.000Z',
  };
}

describe('NotifierModel notification views', () => {
  it('folds each revision once and keeps the position of the last event folded', () => {
    const model = new NotifierModel(1, 0);
    expect(model.applyRecordedNotification(instanceId, createdAt(0n, 10n, 'w1'))).toBe(true);
    expect(model.applyRecordedNotification(instanceId, createdAt(1n, 14n, 'w2'))).toBe(true);
    // The echo of an event already folded (the notifier's own append, read back) changes nothing.
    expect(model.applyRecordedNotification(instanceId, createdAt(1n, 14n, 'w2'))).toBe(false);
    const view = model.notificationsOf(instanceId);
    expect({ revision: view.revision, position: view.position, open: Object.keys(view.state.open) }).toEqual({
      revision: 1n,
      position: 14n,
      open: ['w1', 'w2'],
    });
    expect([...model.instancesWithOpenNotifications()]).toEqual([instanceId]);
  });

  it('keeps each instance’s next attempt by when it falls due, through folds and a restore', () => {
    const model = new NotifierModel(1, 0);
    const created = Date.parse('2026-01-01T00:00:00.000Z');
    model.applyRecordedNotification(instanceId, createdAt(0n, 10n, 'w1'));
    model.applyRecordedNotification(instanceId, createdAt(1n, 14n, 'w2'));
    expect([...model.dueAttempts(created - 1)]).toEqual([]);
    expect(model.nextAttemptAfterDue()).toBe(created);
    // The lower sequence first when both are due at once.
    const due = [...model.dueAttempts(created)].map(({ instanceId: id, notification }) => [id, notification.webhookId]);
    expect(due).toEqual([[instanceId, 'w1']]);
    const restored = new NotifierModel(1, 0);
    restored.restore(model.entries());
    expect(
      [...restored.dueAttempts(created)].map(({ instanceId: id, notification }) => [id, notification.webhookId]),
    ).toEqual([[instanceId, 'w1']]);
    // Nothing open any more: nothing due.
    restored.replaceNotifications(instanceId, { state: { lastSequence: 2, open: {} }, revision: 2n });
    expect([...restored.dueAttempts(created + 1000)]).toEqual([]);
  });

  it('ignores events of other types on a notifications stream', () => {
    const model = new NotifierModel(1, 0);
    expect(model.applyRecordedNotification(instanceId, { ...createdAt(0n, 3n, 'w1'), type: 'SomethingNewer' })).toBe(
      false,
    );
    expect(model.notificationsOf(instanceId).revision).toBe(-1n);
  });
});
