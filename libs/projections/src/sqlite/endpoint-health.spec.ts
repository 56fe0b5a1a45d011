import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent } from '@gw/event-store';
import { SqliteReadModels } from './sqlite-read-models';

// docs/api.md section 12: `health` in getWebhookStatus, read on every status call (so kept in memory).
let dir: string;
let models: SqliteReadModels;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gw-rm-health-'));
  models = new SqliteReadModels(join(dir, 'rm.sqlite'));
});
afterEach(async () => {
  await models.close();
  rmSync(dir, { recursive: true, force: true });
});

const attempt = (
  position: bigint,
  type: 'NotificationDelivered' | 'DeliveryAttemptFailed',
  at: string,
): RecordedEvent => ({
  id: `e${position}`,
  streamName: 'notifications-a',
  revision: position - 1n,
  position,
  type,
  data: {
    instanceId: 'a',
    webhookId: `msg_${position}`,
    sequence: Number(position),
    attempt: 1,
    at,
    status: 500,
    durationMs: 2,
  },
  metadata: {},
  recordedAt: at,
});

describe('endpoint health in the read model', () => {
  it('answers each attempt applied after an earlier read, failures in a row then a success', () => {
    expect(models.endpointHealth('a')).toEqual({ consecutiveFailures: 0, failingSince: null, lastSuccessAt: null });

    models.apply([attempt(1n, 'DeliveryAttemptFailed', '2026-01-01T00:00:00.000Z')], 1n);
    expect(models.endpointHealth('a')).toEqual({
      consecutiveFailures: 1,
      failingSince: '2026-01-01T00:00:00.000Z',
      lastSuccessAt: null,
    });

    models.apply([attempt(2n, 'DeliveryAttemptFailed', '2026-01-01T00:01:00.000Z')], 2n);
    expect(models.endpointHealth('a').consecutiveFailures).toBe(2);

    models.apply([attempt(3n, 'NotificationDelivered', '2026-01-01T00:02:00.000Z')], 3n);
    expect(models.endpointHealth('a')).toEqual({
      consecutiveFailures: 0,
      failingSince: null,
      lastSuccessAt: '2026-01-01T00:02:00.000Z',
    });
  });

  it('counts an attempt applied twice once, and answers the same after the file is opened again', async () => {
    const failed = [attempt(1n, 'DeliveryAttemptFailed', '2026-01-01T00:00:00.000Z')];
    models.apply(failed, 1n);
    models.apply(failed, 1n);
    expect(models.endpointHealth('a').consecutiveFailures).toBe(1);

    await models.close();
    models = new SqliteReadModels(join(dir, 'rm.sqlite'));
    expect(models.endpointHealth('a')).toEqual({
      consecutiveFailures: 1,
      failingSince: '2026-01-01T00:00:00.000Z',
      lastSuccessAt: null,
    });
  });
});
