import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { EventToAppend, RecordedEvent } from '@gw/event-store';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { createLogger } from '@gw/logging';
import { PROJECTED_STREAM_PREFIXES } from '../read-models';
import { ProjectionRunner, type ProjectionTarget } from '../projection-runner';
import { SqliteReadModels } from './sqlite-read-models';

const logger = createLogger('error');
let dir: string;
/** Whatever a test opened or started, ended after it (in reverse order) even when it fails. */
let cleanups: Array<() => Promise<void>>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gw-catch-up-'));
  cleanups = [];
});
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

function open<T extends { close(): Promise<void> }>(resource: T): T {
  cleanups.push(() => resource.close());
  return resource;
}

function started(store: SqliteEventStore, target: ProjectionTarget, batchSize?: number): ProjectionRunner {
  const runner = new ProjectionRunner(store, target, logger, {
    batchSize,
    streamNamePrefixes: PROJECTED_STREAM_PREFIXES,
  });
  cleanups.push(() => runner.stop());
  runner.start();
  return runner;
}

const AT = '2026-01-01T00:00:00.000Z';

/** The events of one notification: created (with a body the read models never read), sometimes a
 * failed attempt, then delivered. */
function notification(instanceId: string, sequence: number): EventToAppend[] {
  const ref = { instanceId, webhookId: `msg_${instanceId}_${sequence}`, sequence };
  const events: EventToAppend[] = [
    {
      id: `${ref.webhookId}-c`,
      type: 'NotificationCreated',
      data: { ...ref, body: { instanceId, sequence, ack: [] }, sourceEventIds: [`s${sequence}`], createdAt: AT },
    },
  ];
  if (sequence % 3 === 0) {
    events.push({
      id: `${ref.webhookId}-f`,
      type: 'DeliveryAttemptFailed',
      data: { ...ref, attempt: 1, at: AT, status: 503, error: 'busy', durationMs: 9, nextAttemptAt: AT },
    });
  }
  events.push({
    id: `${ref.webhookId}-d`,
    type: 'NotificationDelivered',
    data: { ...ref, attempt: 2, at: AT, status: 200, durationMs: 7 },
  });
  return events;
}

async function appendInstance(store: SqliteEventStore, instanceId: string, notifications: number): Promise<void> {
  const data = {
    instanceId,
    accountId: 'acct-ann',
    packageId: 'monthly',
    tokenHash: `h-${instanceId}`,
    createdAt: AT,
    expiresAt: '2026-02-01T00:00:00.000Z',
  };
  await store.append(`instance-${instanceId}`, [{ id: `${instanceId}-c`, type: 'InstanceCreated', data }], 'no_stream');
  for (let from = 1; from <= notifications; from += 40) {
    const events = Array.from({ length: Math.min(40, notifications - from + 1) }, (_, i) =>
      notification(instanceId, from + i),
    ).flat();
    await store.append(`notifications-${instanceId}`, events, 'any');
  }
}

function storedAttempts(models: SqliteReadModels, instanceId: string): number {
  const db = models['db'] as Database.Database;
  const row = db.prepare('SELECT count(*) AS n FROM delivery_attempts WHERE instance_id = ?').get(instanceId) as {
    n: bigint;
  };
  return Number(row.n);
}

async function build(store: SqliteEventStore, file: string, batchSize?: number): Promise<SqliteReadModels> {
  const models = open(new SqliteReadModels(file));
  const runner = started(store, models, batchSize);
  await runner.ready;
  await runner.stop();
  return models;
}

describe('catching up', () => {
  it('keeps only the newest attempts of a busy instance, as the live models show them', async () => {
    const store = open(new SqliteEventStore({ file: join(dir, 'events.sqlite'), pollIntervalMs: 10 }));
    const live = open(new SqliteReadModels(join(dir, 'live.sqlite')));
    const runner = started(store, live);
    await runner.ready;
    await appendInstance(store, 'busy', 300);
    await appendInstance(store, 'quiet', 5);
    await runner.catchUpToHead(5000);
    await runner.stop();

    // Many small transactions, none of which prunes: the catch-up prunes once, at its end.
    const rebuilt = await build(store, join(dir, 'rebuilt.sqlite'), 50);
    const newest = rebuilt.latestAttempts('busy', 100);
    const recorded = (await store.readAll()).filter(
      (e) => e.streamName === 'notifications-busy' && e.type !== 'NotificationCreated',
    );
    expect(newest.map((a) => a.webhookId)).toEqual(
      recorded
        .slice(-100)
        .reverse()
        .map((e) => (e.data as { webhookId: string }).webhookId),
    );
    expect(newest[0]).toEqual({
      at: AT,
      sequence: 300,
      webhookId: 'msg_busy_300',
      status: 200,
      error: '',
      durationMs: 7,
      nextAttemptAt: null,
      test: false,
    });
    expect(rebuilt.latestAttempts('busy', 100)).toEqual(live.latestAttempts('busy', 100));
    expect(rebuilt.latestAttempts('quiet', 100)).toEqual(live.latestAttempts('quiet', 100));
    expect(rebuilt.latestAttempts('quiet', 100)).toHaveLength(6);
    expect(storedAttempts(rebuilt, 'busy')).toBe(100);
    expect(storedAttempts(live, 'busy')).toBeLessThanOrEqual(200);
    expect(rebuilt.allInstances()).toEqual(live.allInstances());
    expect(rebuilt.checkpoint()).toBe(await store.headPosition());
  });

  it('prunes what an interrupted catch-up left behind once the next one ends', async () => {
    const store = open(new SqliteEventStore({ file: join(dir, 'events.sqlite'), pollIntervalMs: 10 }));
    await appendInstance(store, 'busy', 300);
    const file = join(dir, 'rm.sqlite');
    const interrupted = open(new SqliteReadModels(file));
    interrupted.catchingUp(true);
    const events = await store.readAll();
    interrupted.apply(events, events[events.length - 1].position);
    expect(storedAttempts(interrupted, 'busy')).toBeGreaterThan(200);
    await interrupted.close();

    const reopened = await build(store, file);
    expect(storedAttempts(reopened, 'busy')).toBe(100);
    expect(reopened.latestAttempts('busy', 1)[0].sequence).toBe(300);
  });

  it('returns to the live settings, indexes included, once caught up', async () => {
    const store = open(new SqliteEventStore({ file: join(dir, 'events.sqlite'), pollIntervalMs: 10 }));
    await appendInstance(store, 'a', 3);
    const settings = (models: SqliteReadModels) => {
      const db = models['db'] as Database.Database;
      const indexes = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .pluck()
        .all();
      return {
        synchronous: db.pragma('synchronous', { simple: true }),
        cacheSize: db.pragma('cache_size', { simple: true }),
        indexes,
      };
    };
    const opened = settings(open(new SqliteReadModels(join(dir, 'fresh.sqlite'))));

    const models = await build(store, join(dir, 'rm.sqlite'));
    expect(settings(models)).toEqual(opened);
    expect(opened.synchronous).toBe(1n); // NORMAL
  });
});

describe('usage and endpoint health while catching up', () => {
  /** Two instances' notifications, with recorded messages between them (counted by getUsage). */
  async function traffic(store: SqliteEventStore): Promise<void> {
    await appendInstance(store, 'a', 30);
    const data = { chatId: 'c@c.us', from: 'c@c.us', body: 'hi', time: 1 };
    const messages = Array.from({ length: 25 }, (_, n): EventToAppend => ({
      id: `m${n}`,
      type: 'MessageReceived',
      data,
    }));
    await store.append('inbox-a', messages, 'any');
    await appendInstance(store, 'b', 12);
  }
  /** Each instance's messages, deliveries and failed attempts, over all days. */
  const totals = (models: SqliteReadModels) => {
    const sums: Record<string, number[]> = {};
    for (const row of models.usage('acct-ann', '2000-01-01', '2999-12-31')) {
      const sum = (sums[row.instanceId] ??= [0, 0, 0]);
      sum[0] += row.messages;
      sum[1] += row.notificationsDelivered;
      sum[2] += row.attemptsFailed;
    }
    return sums;
  };
  const counted = (models: SqliteReadModels) => ({
    usage: models.usage('acct-ann', '2000-01-01', '2999-12-31'),
    health: ['a', 'b'].map((id) => models.endpointHealth(id)),
  });

  it('are stored only with the checkpoint, so that a catch-up stopped between two stores counts each event once', async () => {
    const store = open(new SqliteEventStore({ file: join(dir, 'events.sqlite'), pollIntervalMs: 10 }));
    await traffic(store);
    const live = open(new SqliteReadModels(join(dir, 'live.sqlite')));
    const events = await store.readAll({
      filter: { streamNamePrefixes: PROJECTED_STREAM_PREFIXES, eventTypes: live.eventTypes },
    });
    for (const event of events) live.apply([event], event.position);
    expect(totals(live)).toEqual({ a: [25, 30, 10], b: [0, 12, 4] });

    // A catch-up that stores its counts every 40 events, stopped after 100 of them in batches of 20.
    const file = join(dir, 'rm.sqlite');
    const stopped = open(new SqliteReadModels(file, { catchUpFlushEvents: 40 }));
    stopped.catchingUp(true);
    for (let from = 0; from < 100; from += 20) {
      const batch = events.slice(from, from + 20);
      stopped.apply(batch, batch[batch.length - 1].position);
    }
    // The last store came after the 80th event: the checkpoint says so, and the counts match it.
    expect(stopped.checkpoint()).toBe(events[79].position);
    const before = open(new SqliteReadModels(join(dir, 'first-80.sqlite')));
    before.apply(events.slice(0, 80), events[79].position);
    expect(counted(stopped)).toEqual(counted(before));
    await stopped.close();

    const resumed = await build(store, file, 7);
    expect(counted(resumed)).toEqual(counted(live));
    expect(resumed.allInstances()).toEqual(live.allInstances());
    expect(resumed.checkpoint()).toBe(await store.headPosition());
  });

  it('are all stored when the catch-up ends, and the runner reports no position it has not stored', async () => {
    const store = open(new SqliteEventStore({ file: join(dir, 'events.sqlite'), pollIntervalMs: 10 }));
    await traffic(store);
    const models = open(new SqliteReadModels(join(dir, 'rm.sqlite'), { catchUpFlushEvents: 1_000_000 }));
    // Where the runner is each time it hands over a batch: 0, since nothing is stored before the end.
    const reached: bigint[] = [];
    const target: ProjectionTarget = {
      eventTypes: models.eventTypes,
      typesWithoutData: models.typesWithoutData,
      checkpoint: () => models.checkpoint(),
      apply(events, checkpoint) {
        reached.push(runner.position);
        models.apply(events, checkpoint);
      },
      catchingUp: (active) => models.catchingUp(active),
    };
    const runner = started(store, target, 10);
    await runner.ready;
    expect(reached.length).toBeGreaterThan(5);
    expect(new Set(reached)).toEqual(new Set([0n]));
    expect(runner.position).toBe(await store.headPosition());
    const reopened = open(new SqliteReadModels(join(dir, 'rm.sqlite')));
    expect(totals(reopened)).toEqual({ a: [25, 30, 10], b: [0, 12, 4] });
    expect(reopened.endpointHealth('a')).toEqual({ consecutiveFailures: 0, failingSince: null, lastSuccessAt: AT });
  });
});

describe('projection runner with a target that reads some event types', () => {
  it('hands over only those types, and still moves the checkpoint past the others', async () => {
    const store = open(new SqliteEventStore({ file: join(dir, 'events.sqlite'), pollIntervalMs: 10 }));
    await appendInstance(store, 'a', 4);
    const applied: RecordedEvent[] = [];
    let checkpoint = 0n;
    const phases: boolean[] = [];
    const target: ProjectionTarget = {
      eventTypes: ['NotificationDelivered'],
      checkpoint: () => checkpoint,
      apply(events, position) {
        applied.push(...events);
        checkpoint = position;
      },
      catchingUp: (active) => phases.push(active),
    };
    const runner = started(store, target);
    await runner.ready;
    await store.append('notifications-a', notification('a', 5), 'any');
    await runner.catchUpToHead(5000);
    await runner.stop();

    expect(applied.map((e) => e.data)).toEqual(
      [1, 2, 3, 4, 5].map((sequence) => expect.objectContaining({ sequence, status: 200 })),
    );
    expect(new Set(applied.map((e) => e.type))).toEqual(new Set(['NotificationDelivered']));
    expect(checkpoint).toBe(await store.headPosition());
    expect(phases).toEqual([true, false]);
  });
});
