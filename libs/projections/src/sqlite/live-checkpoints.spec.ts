import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent } from '@gw/event-store';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { createLogger } from '@gw/logging';
import { PROJECTED_STREAM_PREFIXES } from '../read-models';
import { ProjectionRunner, type ProjectionRunnerOptions, type ProjectionTarget } from '../projection-runner';
import { SqliteReadModels } from './sqlite-read-models';

/** The read models, with every batch the runner hands them noted (its size). */
function noting(models: SqliteReadModels, batches: number[]): ProjectionTarget {
  return {
    eventTypes: models.eventTypes,
    typesWithoutData: models.typesWithoutData,
    checkpoint: () => models.checkpoint(),
    catchingUp: (active) => models.catchingUp(active),
    apply: (events: readonly RecordedEvent[], checkpoint: bigint) => {
      batches.push(events.length);
      models.apply(events, checkpoint);
    },
  };
}

/** A store and read models in `dir`, and a runner live on them (started, caught up, nothing noted). */
async function live(dir: string, options: Partial<ProjectionRunnerOptions> = {}) {
  const store = new SqliteEventStore({ file: join(dir, 'events.sqlite'), pollIntervalMs: 10 });
  const models = new SqliteReadModels(join(dir, 'rm.sqlite'));
  const batches: number[] = [];
  const runner = new ProjectionRunner(store, noting(models, batches), createLogger('error'), {
    streamNamePrefixes: PROJECTED_STREAM_PREFIXES,
    ...options,
  });
  runner.start();
  await runner.ready;
  batches.length = 0;
  return { store, models, runner, batches };
}

describe('following the log live', () => {
  let dir: string;
  let store: SqliteEventStore;
  let models: SqliteReadModels;
  let runner: ProjectionRunner;
  let batches: number[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-live-'));
    ({ store, models, runner, batches } = await live(dir));
  });
  afterEach(async () => {
    await runner.stop();
    await models.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let others = 0;
  /** `count` events of a stream the read models do not follow, in appends of up to 1,000. */
  async function otherEvents(count: number): Promise<void> {
    for (let from = 0; from < count; from += 1000) {
      const events = Array.from({ length: Math.min(1000, count - from) }, () => ({
        id: `other-${(others += 1)}`,
        type: 'Other',
        data: {},
      }));
      await store.append('other-stream', events, 'any');
    }
  }

  it('reaches past events it does not read without a transaction, and stores that every 10,000 positions', async () => {
    const before = models.checkpoint();
    await otherEvents(50);
    await runner.catchUpToHead(5000);
    expect(runner.position).toBe(await store.headPosition());
    // Waiters were answered from memory: nothing was written, and the stored checkpoint stayed.
    expect(batches).toEqual([]);
    expect(models.checkpoint()).toBe(before);

    await otherEvents(10_000);
    await runner.catchUpToHead(5000);
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.every((size) => size === 0)).toBe(true);
    expect(models.checkpoint()).toBeGreaterThanOrEqual(before + 10_000n);
  });

  it('commits the events it reads with the position the scan reached, in one transaction', async () => {
    await otherEvents(20);
    const data = {
      instanceId: 'i1',
      accountId: 'acct',
      packageId: 'monthly',
      tokenHash: 'h',
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-02-01T00:00:00.000Z',
    };
    const { position } = await store.append('instance-i1', [{ id: 'c1', type: 'InstanceCreated', data }], 'no_stream');
    await otherEvents(20);
    await runner.catchUpToHead(5000);
    expect(models.findInstance('i1')?.accountId).toBe('acct');
    expect(batches).toEqual([1]);
    expect(models.checkpoint()).toBeGreaterThanOrEqual(position);
  });
});

describe('following the log live at a pace (the API read models)', () => {
  let dir: string;
  let store: SqliteEventStore;
  let other: SqliteEventStore;
  let models: SqliteReadModels;
  let runner: ProjectionRunner;
  let batches: number[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-paced-'));
    // Longer than the test: any look the runner made by itself would come too late to be seen here.
    ({ store, models, runner, batches } = await live(dir, { livePaceMs: 60_000 }));
    // Another process's connection to the same log (the notifier's, say).
    other = new SqliteEventStore({ file: join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await runner.stop();
    await models.close();
    await Promise.all([store.close(), other.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const created = (instanceId: string) => ({
    id: `created-${instanceId}`,
    type: 'InstanceCreated',
    data: {
      instanceId,
      accountId: 'acct',
      packageId: 'monthly',
      tokenHash: 'h',
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-02-01T00:00:00.000Z',
    },
  });

  it("leaves new events, its own client's and another's, for one later look while nothing waits for them", async () => {
    await other.append('instance-i1', [created('i1')], 'no_stream');
    const { position } = await store.append('instance-i2', [created('i2')], 'no_stream');
    // Unpaced, both would be in the models within a few milliseconds (the store's own append wakes
    // the subscription, the other's is polled every 10 ms).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(models.findInstance('i1')).toBeUndefined();
    expect(models.findInstance('i2')).toBeUndefined();
    expect(batches).toEqual([]);

    // A waiter (a query, a command's answer) makes it look at once: both commit together.
    const asked = performance.now();
    await runner.waitFor(position, 5000);
    expect(performance.now() - asked).toBeLessThan(5000);
    expect(models.findInstance('i1')?.accountId).toBe('acct');
    expect(models.findInstance('i2')?.accountId).toBe('acct');
    expect(batches).toEqual([2]);
  });

  it('answers a query at once: catchUpToHead looks for what another process appended', async () => {
    await other.append('instance-i3', [created('i3')], 'no_stream');
    await runner.catchUpToHead(5000);
    expect(models.findInstance('i3')?.accountId).toBe('acct');
  });
});
