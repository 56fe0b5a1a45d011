import type { SnapshotRef } from '@gw/domain-notifications';
import type { RecordedEvent } from '@gw/event-store';
import { MemoryEventStore } from '@gw/event-store/memory';
import { createLogger } from '@gw/logging';
import { NotifierMetrics } from '../metrics/metrics';
import { NotifierModel } from './notifier-model';
import { Snapshotter } from './snapshotter';
import { readSnapshot } from './snapshots';

/** Taking and loading snapshots of the model, on the in-memory store. */

const I = 'i1';
const created: RecordedEvent = {
  id: 'e1',
  streamName: `instance-${I}`,
  revision: 0n,
  position: 1n,
  type: 'InstanceCreated',
  data: {
    instanceId: I,
    accountId: 'acct-ann',
    packageId: 'trial',
    tokenHash: 'th',
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-04T00:00:00.000Z',
  },
  metadata: {},
  recordedAt: '2026-01-01T00:00:00.000Z',
};

let store: MemoryEventStore;
let model: NotifierModel;
let metrics: NotifierMetrics;

beforeEach(() => {
  store = new MemoryEventStore();
  model = new NotifierModel(1, 0);
  model.applyInstanceEvent(I, created);
  metrics = new NotifierMetrics();
});

const snapshotter = (every: number, on = model) =>
  new Snapshotter(store, on, metrics, createLogger('error'), { partition: 0, partitions: 1, every });

/** Follows `events` events and asks for a snapshot at `position`; resolves with what was written, if anything. */
async function afterEvents(
  s: Snapshotter,
  events: number,
  position: bigint,
  settled = true,
): Promise<SnapshotRef | undefined> {
  for (let i = 0; i < events; i++) s.followed();
  const written = new Promise<SnapshotRef>((resolve) =>
    s.maybeTake(
      position,
      () => settled,
      async (ref) => (resolve(ref), true),
    ),
  );
  return Promise.race([written, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50))]);
}

describe('the snapshotter', () => {
  it('takes a snapshot of the model every NOTIFIER_SNAPSHOT_EVERY events, as it is at that position', async () => {
    const s = snapshotter(3);
    expect(await afterEvents(s, 2, 2n)).toBeUndefined();
    const ref = await afterEvents(s, 1, 3n);
    expect(ref).toMatchObject({ position: '3' });
    expect(s.latest).toBe(ref);
    expect((await readSnapshot(store, ref!))?.entries).toEqual(model.entries());
    expect(await metrics.render({ pending: 0, inFlight: 0, lagEvents: 0n, ready: true, replayedAtStart: 0 })).toMatch(
      /snapshots\w*\s+1$/m,
    );
  });

  it('waits while traffic before the position still waits for its notification, and never with 0', async () => {
    const s = snapshotter(1);
    expect(await afterEvents(s, 5, 5n, false)).toBeUndefined();
    expect(await afterEvents(s, 0, 6n, true)).toMatchObject({ position: '6' });
    expect(await afterEvents(snapshotter(0), 1000, 7n)).toBeUndefined();
  });

  it('restores a model from the snapshot a checkpoint names, and ignores one of another version', async () => {
    const ref = (await afterEvents(snapshotter(1), 1, 9n))!;
    const restored = new NotifierModel(1, 0);
    expect(await snapshotter(1, restored).load({ position: 5n, snapshot: ref })).toBe(9n);
    expect(restored.entries()).toEqual(model.entries());
    const other = new NotifierModel(1, 0);
    expect(
      await snapshotter(1, other).load({ position: 5n, snapshot: { ...ref, version: ref.version - 1 } }),
    ).toBeUndefined();
    expect(other.entries()).toEqual([]);
    expect(await snapshotter(1, other).load({ position: 5n })).toBeUndefined();
  });
});
