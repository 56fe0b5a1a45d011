import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { InstanceEvent } from '@gw/domain-instances';
import type { RecordedEvent } from '@gw/event-store';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { createLogger } from '@gw/logging';
import { PROJECTED_STREAM_PREFIXES } from '../read-models';
import { ProjectionRunner, ReadModelLagError } from '../projection-runner';
import { SqliteReadModels } from './sqlite-read-models';

const logger = createLogger('error');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gw-rm-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const created = (id: string, accountId = 'acct-ann', createdAt = '2026-01-01T00:00:00.000Z'): InstanceEvent => ({
  type: 'InstanceCreated',
  data: {
    instanceId: id,
    accountId,
    packageId: 'monthly',
    tokenHash: `h-${id}`,
    createdAt,
    expiresAt: '2026-01-31T00:00:00.000Z',
  },
});
const set = (id: string, url: string): InstanceEvent => ({
  type: 'WebhookSet',
  data: { instanceId: id, url, setAt: '2026-01-02T00:00:00.000Z' },
});

function recorded(events: InstanceEvent[], id: string, firstPosition: bigint): RecordedEvent[] {
  return events.map((e, i) => ({
    id: `${id}-${i}`,
    streamName: `instance-${id}`,
    revision: BigInt(i),
    position: firstPosition + BigInt(i),
    type: e.type,
    data: e.data,
    metadata: {},
    recordedAt: '2026-01-01T00:00:00.000Z',
  }));
}

describe('SQLite read models', () => {
  it('applying the same events twice leaves the same rows', async () => {
    const models = new SqliteReadModels(join(dir, 'rm.sqlite'));
    const events = recorded([created('a'), set('a', 'https://x.example/1')], 'a', 1n);
    models.apply(events, 2n);
    const once = models.allInstances();
    models.apply(events, 2n);
    expect(models.allInstances()).toEqual(once);
    expect(once).toEqual([
      expect.objectContaining({ instanceId: 'a', webhookUrl: 'https://x.example/1', webhookOn: true, revision: 1n }),
    ]);
    await models.close();
  });

  it('answers a lookup after each change with the changed row, never a remembered one', async () => {
    const models = new SqliteReadModels(join(dir, 'rm.sqlite'));
    const events = recorded([created('a'), set('a', 'https://x.example/1'), set('a', 'https://x.example/2')], 'a', 1n);
    models.apply(events.slice(0, 1), 1n);
    expect(models.findInstance('a')?.webhookUrl).toBe('');
    models.apply(events.slice(1, 2), 2n);
    expect(models.findInstance('a')?.webhookUrl).toBe('https://x.example/1');
    models.apply(events.slice(2), 3n);
    expect(models.findInstance('a')).toEqual(
      expect.objectContaining({ webhookUrl: 'https://x.example/2', revision: 2n }),
    );
    expect(models.findInstance('nobody')).toBeUndefined();
    await models.close();
  });

  it('shows the latest 100 delivery attempts of an instance, however many were recorded', async () => {
    const models = new SqliteReadModels(join(dir, 'rm.sqlite'));
    const failed = (n: number): RecordedEvent => ({
      id: `f${n}`,
      streamName: 'notifications-a',
      revision: BigInt(n),
      position: BigInt(n + 1),
      type: 'DeliveryAttemptFailed',
      data: {
        instanceId: 'a',
        webhookId: `msg_${n}`,
        sequence: n,
        attempt: 1,
        at: '2026-01-01T00:00:00.000Z',
        status: 500,
        error: '',
        durationMs: 1,
        nextAttemptAt: null,
      },
      metadata: {},
      recordedAt: '2026-01-01T00:00:00.000Z',
    });
    const all = Array.from({ length: 450 }, (_, n) => failed(n));
    for (let from = 0; from < all.length; from += 70)
      models.apply(all.slice(from, from + 70), BigInt(Math.min(from + 70, all.length)));
    const shown = models.latestAttempts('a', 100);
    expect(shown.map((a) => a.sequence)).toEqual(Array.from({ length: 100 }, (_, i) => 449 - i));
    // Pruned in rounds rather than on every batch, but bounded: never more than twice what is shown.
    const stored = (models as unknown as { db: Database.Database }).db
      .prepare('SELECT count(*) AS n FROM delivery_attempts')
      .get() as { n: bigint };
    expect(Number(stored.n)).toBeLessThanOrEqual(200);
    await models.close();
  });

  it('keeps the checkpoint with the rows it covers, across reopening', async () => {
    const file = join(dir, 'rm.sqlite');
    const models = new SqliteReadModels(file);
    models.apply(recorded([created('a')], 'a', 7n), 7n);
    await models.close();
    const reopened = new SqliteReadModels(file);
    expect(reopened.checkpoint()).toBe(7n);
    expect(reopened.findInstance('a')?.tokenHash).toBe('h-a');
    await reopened.close();
  });

  it("lists an account's instances oldest first and no one else's", async () => {
    const models = new SqliteReadModels(join(dir, 'rm.sqlite'));
    models.apply(recorded([created('late', 'acct-ann', '2026-03-01T00:00:00.000Z')], 'late', 1n), 1n);
    models.apply(recorded([created('early', 'acct-ann', '2026-02-01T00:00:00.000Z')], 'early', 2n), 2n);
    models.apply(recorded([created('other', 'acct-bob')], 'other', 3n), 3n);
    expect(models.listInstances('acct-ann').map((r) => r.instanceId)).toEqual(['early', 'late']);
    await models.close();
  });
});

describe('projection runner', () => {
  async function appendHistory(store: SqliteEventStore, count: number) {
    for (let i = 0; i < count; i++) {
      const id = `i${i}`;
      await store.append(
        `instance-${id}`,
        [{ id: `${id}-c`, type: 'InstanceCreated', data: created(id).data }],
        'no_stream',
      );
      if (i % 2 === 0)
        await store.append(
          `instance-${id}`,
          [{ id: `${id}-w`, type: 'WebhookSet', data: set(id, `https://x.example/${i}`).data }],
          0n,
        );
      // Events of other streams are skipped but still move the checkpoint.
      await store.append(`other-${id}`, [{ id: `${id}-o`, type: 'Unrelated', data: {} }], 'any');
    }
  }

  it('builds live models that equal a rebuild from the log', async () => {
    const store = new SqliteEventStore({ file: join(dir, 'events.sqlite'), pollIntervalMs: 10 });
    const live = new SqliteReadModels(join(dir, 'live.sqlite'));
    const runner = new ProjectionRunner(store, live, logger, {
      batchSize: 7,
      streamNamePrefixes: PROJECTED_STREAM_PREFIXES,
    });
    runner.start();
    await runner.ready;
    await appendHistory(store, 40); // appended while the runner is live
    await runner.catchUpToHead(5000);
    await runner.stop();

    const rebuilt = new SqliteReadModels(join(dir, 'rebuilt.sqlite'));
    const rebuilder = new ProjectionRunner(store, rebuilt, logger, {
      batchSize: 7,
      streamNamePrefixes: PROJECTED_STREAM_PREFIXES,
    });
    rebuilder.start();
    await rebuilder.ready;
    await rebuilder.stop();

    expect(live.allInstances()).toHaveLength(40);
    expect(rebuilt.allInstances()).toEqual(live.allInstances());
    expect(rebuilt.checkpoint()).toBe(await store.headPosition());
    await live.close();
    await rebuilt.close();
    await store.close();
  });

  it('answers waitFor once a position is applied, and times out with ReadModelLagError when it cannot be', async () => {
    const store = new SqliteEventStore({ file: join(dir, 'events.sqlite'), pollIntervalMs: 10 });
    const models = new SqliteReadModels(join(dir, 'rm.sqlite'));
    const runner = new ProjectionRunner(store, models, logger, { streamNamePrefixes: PROJECTED_STREAM_PREFIXES });
    runner.start();
    await runner.ready;
    const written = await store.append(
      'instance-w',
      [{ id: 'w-c', type: 'InstanceCreated', data: created('w').data }],
      'no_stream',
    );
    await runner.waitFor(written.position, 2000);
    expect(models.findInstance('w')).toBeDefined();
    await expect(runner.waitFor(written.position + 1000n, 100)).rejects.toBeInstanceOf(ReadModelLagError);
    await runner.stop();
    await models.close();
    await store.close();
  });

  it('goes on retrying while its own file cannot grow (a full disk), and catches up by itself once it can', async () => {
    const store = new SqliteEventStore({ file: join(dir, 'events.sqlite'), pollIntervalMs: 10 });
    const models = new SqliteReadModels(join(dir, 'rm.sqlite'));
    const lines: string[] = [];
    const runner = new ProjectionRunner(
      store,
      models,
      createLogger('warn', {}, (line) => lines.push(line)),
      {
        streamNamePrefixes: PROJECTED_STREAM_PREFIXES,
        retryDelayMs: 20,
      },
    );
    try {
      runner.start();
      await runner.ready;
      // SQLite's page limit fails a write exactly as a full disk does: SQLITE_FULL, transaction rolled back.
      const db = models['db'] as Database.Database;
      db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
      await appendHistory(store, 100);
      const head = await store.headPosition();
      await expect(runner.waitFor(head, 300)).rejects.toBeInstanceOf(ReadModelLagError);
      expect(lines.filter((line) => line.includes('SQLITE_FULL')).length).toBeGreaterThan(1);

      db.pragma('max_page_count = 1073741823');
      await runner.waitFor(head, 5000);
      expect(models.allInstances()).toHaveLength(100);
      expect(models.checkpoint()).toBe(head);
    } finally {
      await runner.stop();
      await models.close();
      await store.close();
    }
  });
});
