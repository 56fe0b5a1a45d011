import type { NotificationCommand } from './notifications.decider';
import type { NotificationEvent } from './notification.events';
import { created, I, plus, spec, state, t0 } from './__fixtures__/notifications.fixtures';

// docs/api.md 8.6: a test notification is one attempt, recorded in the instance's notifications
// stream for getWebhookLogs, outside the sequence.
const outcome = { webhookId: 'test_1', at: plus(10), status: 500, error: '', durationMs: 12 };
const recordTest = (data = outcome): NotificationCommand => ({
  type: 'RecordTestAttempt',
  data: { instanceId: I, ...data },
});
const attempted = (data = outcome): NotificationEvent => ({
  type: 'TestNotificationAttempted',
  data: { instanceId: I, ...data },
});

describe('recording a test notification (8.6)', () => {
  it('records the attempt as it came out, on an instance without notifications', () => {
    spec.given([]).when(recordTest()).then([attempted()]);
  });

  it('records every test, even one with the same outcome as the last', () => {
    spec.given([attempted()]).when(recordTest()).then([attempted()]);
  });

  it('records a failure with its reason', () => {
    const timedOut = { ...outcome, status: 0, error: 'timeout: no answer within 1000 ms', durationMs: 1003 };
    spec
      .given([created('wh-1', 1)])
      .when(recordTest(timedOut))
      .then([attempted(timedOut)]);
  });

  it('neither numbers nor opens a notification: the sequence goes on after it', () => {
    const before = state([created('wh-1', 1, t0)]);
    const after = state([created('wh-1', 1, t0), attempted()]);
    expect(after).toEqual(before);
    expect(state([attempted()])).toEqual({ lastSequence: 0, open: {} });
  });
});
