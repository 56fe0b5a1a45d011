import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent } from '@gw/event-store';
import { SqliteReadModels } from './sqlite-read-models';

// docs/api.md 8.6: a test notification's attempt is a line of getWebhookLogs without a sequence.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gw-rm-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const AT = '2026-01-01T00:00:00.000Z';
const event = (position: bigint, type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: `e${position}`,
  streamName: 'notifications-a',
  revision: position - 1n,
  position,
  type,
  data,
  metadata: {},
  recordedAt: AT,
});

describe('test notification attempts in the webhook-logs read model', () => {
  it('shows a test with sequence null and test true, beside delivery attempts (test false), and applying twice changes nothing', async () => {
    const models = new SqliteReadModels(join(dir, 'rm.sqlite'));
    const events = [
      event(1n, 'NotificationDelivered', {
        instanceId: 'a',
        webhookId: 'msg_1',
        sequence: 1,
        attempt: 1,
        at: AT,
        status: 200,
        durationMs: 3,
      }),
      event(2n, 'TestNotificationAttempted', {
        instanceId: 'a',
        webhookId: 'test_1',
        at: AT,
        status: 0,
        error: 'timeout: no answer within 1000 ms',
        durationMs: 1001,
      }),
    ];
    models.apply(events, 2n);
    models.apply(events, 2n);
    expect(models.latestAttempts('a', 10)).toEqual([
      {
        at: AT,
        sequence: null,
        webhookId: 'test_1',
        status: 0,
        error: 'timeout: no answer within 1000 ms',
        durationMs: 1001,
        nextAttemptAt: null,
        test: true,
      },
      {
        at: AT,
        sequence: 1,
        webhookId: 'msg_1',
        status: 200,
        error: '',
        durationMs: 3,
        nextAttemptAt: null,
        test: false,
      },
    ]);
    await models.close();
  });
});
