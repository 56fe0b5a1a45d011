import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent } from '@gw/event-store';
import { ReadModelSnapshot } from './read-model-snapshot';
import { SqliteReadModels } from './sqlite-read-models';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gw-usage-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

let position = 0n;
const revisions = new Map<string, bigint>();
function event(
  streamName: string,
  type: string,
  data: Record<string, unknown> | undefined,
  recordedAt = '',
): RecordedEvent {
  const revision = (revisions.get(streamName) ?? -1n) + 1n;
  revisions.set(streamName, revision);
  position += 1n;
  return { id: `e-${position}`, streamName, revision, position, type, data, metadata: {}, recordedAt };
}
const created = (id: string, accountId: string, createdAt: string, expiresAt = '2026-03-01T00:00:00.000Z') =>
  event(`instance-${id}`, 'InstanceCreated', {
    instanceId: id,
    accountId,
    packageId: 'monthly',
    tokenHash: `h-${id}`,
    createdAt,
    expiresAt,
  });
const labelled = (id: string, label: string | null) =>
  event(`instance-${id}`, 'InstanceLabelSet', { instanceId: id, label, setAt: '2026-01-02T00:00:00.000Z' });
// Messages and acks as the store hands them to the read models: without their data (the model asks
// for them so), counted by their stream and the time they were recorded.
const message = (id: string, recordedAt: string) => event(`inbox-${id}`, 'MessageReceived', undefined, recordedAt);
const ack = (id: string, recordedAt: string) => event(`inbox-${id}`, 'AckReceived', undefined, recordedAt);
const attempt = (id: string, type: 'NotificationDelivered' | 'DeliveryAttemptFailed', at: string) =>
  event(`notifications-${id}`, type, {
    instanceId: id,
    webhookId: `w${position}`,
    sequence: 1,
    attempt: 1,
    at,
    status: type === 'NotificationDelivered' ? 200 : 503,
    error: '',
    durationMs: 1,
    nextAttemptAt: null,
  });

/** A small log: two accounts, traffic and attempts over two UTC days (one just before midnight). */
function history(): RecordedEvent[] {
  position = 0n;
  revisions.clear();
  return [
    created('a', 'ann', '2026-01-01T00:00:00.000Z'),
    created('b', 'ann', '2026-01-01T00:00:01.000Z', '2026-01-05T00:00:00.000Z'),
    created('c', 'bob', '2026-01-01T00:00:02.000Z'),
    labelled('a', 'shop'),
    message('a', '2026-01-10T23:59:59.999Z'),
    message('a', '2026-01-11T00:00:00.000Z'),
    ack('a', '2026-01-11T08:00:00.000Z'),
    attempt('a', 'DeliveryAttemptFailed', '2026-01-10T23:59:59.000Z'),
    attempt('a', 'NotificationDelivered', '2026-01-11T00:00:05.000Z'),
    message('b', '2026-01-11T09:00:00.000Z'),
    message('c', '2026-01-11T09:00:00.000Z'),
  ];
}

describe('the usage read model (docs/api.md 13.3)', () => {
  it('counts per instance and UTC day, for one account only', async () => {
    const models = new SqliteReadModels(join(dir, 'rm.sqlite'));
    const log = history();
    models.apply(log, position);
    expect(models.usage('ann', '2026-01-01', '2026-01-31')).toEqual([
      { instanceId: 'a', day: '2026-01-10', messages: 1, acks: 0, notificationsDelivered: 0, attemptsFailed: 1 },
      { instanceId: 'a', day: '2026-01-11', messages: 1, acks: 1, notificationsDelivered: 1, attemptsFailed: 0 },
      { instanceId: 'b', day: '2026-01-11', messages: 1, acks: 0, notificationsDelivered: 0, attemptsFailed: 0 },
    ]);
    expect(models.usage('ann', '2026-01-11', '2026-01-11').map((r) => r.instanceId)).toEqual(['a', 'b']);
    await models.close();
  });

  it('counts a batch applied twice once', async () => {
    const models = new SqliteReadModels(join(dir, 'rm.sqlite'));
    const log = history();
    models.apply(log, position);
    const once = models.usage('ann', '2026-01-01', '2026-01-31');
    models.apply(log, position);
    models.apply(log.slice(4, 7), position);
    expect(models.usage('ann', '2026-01-01', '2026-01-31')).toEqual(once);
    await models.close();
  });

  it('rebuilt in one batch, equals the model built event by event: same answers, same rows', async () => {
    const live = new SqliteReadModels(join(dir, 'live.sqlite'));
    const rebuilt = new SqliteReadModels(join(dir, 'rebuilt.sqlite'));
    const log = history();
    for (const e of log) live.apply([e], e.position);
    rebuilt.catchingUp(true);
    rebuilt.apply(log, position);
    rebuilt.catchingUp(false);
    for (const account of ['ann', 'bob'])
      expect(rebuilt.usage(account, '2026-01-01', '2026-01-31')).toEqual(
        live.usage(account, '2026-01-01', '2026-01-31'),
      );
    await live.close();
    await rebuilt.close();
    const [a, b] = [
      ReadModelSnapshot.open(join(dir, 'live.sqlite')),
      ReadModelSnapshot.open(join(dir, 'rebuilt.sqlite')),
    ];
    for (const table of a.tables) expect([...b.rows(table)]).toEqual([...a.rows(table)]);
    expect(a.tables.map((t) => t.readModel)).toContain('usage');
    a.close();
    b.close();
  });
});

describe('pages of the instances read model (docs/api.md 13.1)', () => {
  it('pages in creation order after a row, filtered by label and by status at a moment', async () => {
    const models = new SqliteReadModels(join(dir, 'rm.sqlite'));
    models.apply(history(), position);
    const ids = (rows: { instanceId: string }[]) => rows.map((r) => r.instanceId);
    const now = '2026-01-10T00:00:00.000Z';
    expect(ids(models.pageInstances('ann', { now }))).toEqual(['a', 'b']);
    expect(ids(models.pageInstances('ann', { now, limit: 1 }))).toEqual(['a']);
    const a = models.findInstance('a')!;
    expect(ids(models.pageInstances('ann', { now, after: a }))).toEqual(['b']);
    expect(ids(models.pageInstances('ann', { now, label: 'shop' }))).toEqual(['a']);
    expect(ids(models.pageInstances('ann', { now, status: 'expired' }))).toEqual(['b']);
    expect(ids(models.pageInstances('ann', { now, status: 'active' }))).toEqual(['a']);
    expect(models.findInstance('a')).toEqual(expect.objectContaining({ label: 'shop', connectionState: null }));
    await models.close();
  });
});
