import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import type { NotifierMetrics } from '../metrics/metrics';
import type { Checkpoint } from './checkpoints';
import type { NotifierModel } from './notifier-model';
import { readSnapshot, writeSnapshot, type SnapshotRef } from './snapshots';

export interface SnapshotterOptions {
  partition: number;
  partitions: number;
  /** NOTIFIER_SNAPSHOT_EVERY: events followed between snapshots of the model; 0: never. */
  every: number;
}

/**
 * Snapshots of the model, so that a start costs the live state plus at most NOTIFIER_SNAPSHOT_EVERY
 * events. At start it loads the snapshot the checkpoint names (kept in the store, so that a notifier
 * on a fresh machine resumes too); then every NOTIFIER_SNAPSHOT_EVERY events it takes one, at a point
 * where the model reflects the log up to a position and nothing before it waits for a notification,
 * and writes it in the background. The next checkpoint names it (`latest`).
 */
export class Snapshotter {
  private ref?: SnapshotRef;
  private eventsSince = 0;
  private writing = false;

  constructor(
    private readonly store: EventStore,
    private readonly model: NotifierModel,
    private readonly metrics: NotifierMetrics,
    private readonly logger: Logger,
    private readonly options: SnapshotterOptions,
  ) {}

  /** The latest snapshot written or loaded: the one a checkpoint names. */
  get latest(): SnapshotRef | undefined {
    return this.ref;
  }

  /**
   * Restores the model from the snapshot `checkpoint` names; returns the position it reflects, or
   * undefined (the model left empty) when there is none or it is of another version or incomplete.
   */
  async load(checkpoint: Checkpoint): Promise<bigint | undefined> {
    const ref = checkpoint.snapshot;
    if (!ref) return undefined;
    const snapshot = await readSnapshot(this.store, ref);
    if (!snapshot) {
      this.logger.warn(
        'the snapshot named by the checkpoint is of another version or incomplete; replaying the whole log',
        { stream: ref.stream },
      );
      return undefined;
    }
    this.model.restore(snapshot.entries);
    this.ref = ref;
    this.logger.info('resuming from a snapshot', { position: ref.position, instances: snapshot.entries.length });
    return snapshot.position;
  }

  /** One more event was folded into the model. */
  followed(): void {
    this.eventsSince += 1;
  }

  /**
   * Takes a snapshot of the model as it is at `position` when enough events went by and `settled`
   * (nothing up to there waits for a notification); `written` runs once it is in the store.
   */
  maybeTake(position: bigint, settled: () => boolean, written: (ref: SnapshotRef) => Promise<boolean>): void {
    const { every, partition, partitions } = this.options;
    // `settled` last: it looks through every instance's queue, and this is asked after every event.
    if (every === 0 || this.eventsSince < every || this.writing || !settled()) return;
    // Taken now, synchronously: the model's states are immutable values, so later changes do not reach it.
    const taken = { position, entries: this.model.entries() };
    this.eventsSince = 0;
    this.writing = true;
    void writeSnapshot(this.store, partition, partitions, taken)
      .then(async (ref) => {
        this.ref = ref;
        // Counted once a checkpoint names it, so that the metric says a restart would load it.
        if (await written(ref)) this.metrics.snapshots.inc();
      })
      .catch((error: unknown) => {
        this.logger.warn('could not write a snapshot; will try again', { error });
        this.eventsSince = every;
      })
      .finally(() => (this.writing = false));
  }
}
