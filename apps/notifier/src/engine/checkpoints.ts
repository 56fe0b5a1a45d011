import { newEventId } from '@gw/application';
import { isoNow, type Clock } from './clock';
import type { EventStore } from '@gw/event-store';
import type { NotifierCheckpointed, SnapshotRef } from '@gw/domain-notifications';

export type { NotifierCheckpointed };

/** A partition's progress as recorded. */
export interface Checkpoint {
  position: bigint;
  snapshot?: SnapshotRef;
}

export function checkpointStreamName(partition: number, partitions: number): string {
  return `notifier-checkpoint-${partition}-of-${partitions}`;
}

/** The last recorded checkpoint of a partition; position 0n when there is none. */
async function readCheckpoint(store: EventStore, partition: number, partitions: number): Promise<Checkpoint> {
  const last = await store.readLastEvent(checkpointStreamName(partition, partitions));
  if (!last) return { position: 0n };
  const data = last.data as NotifierCheckpointed['data'];
  return { position: BigInt(data.position), ...(data.snapshot ? { snapshot: data.snapshot } : {}) };
}

async function recordCheckpoint(
  store: EventStore,
  partition: number,
  partitions: number,
  checkpoint: Checkpoint,
  at: string,
): Promise<void> {
  const { position, snapshot } = checkpoint;
  const event: NotifierCheckpointed = {
    type: 'NotifierCheckpointed',
    data: { partition, partitions, position: position.toString(), at, ...(snapshot ? { snapshot } : {}) },
  };
  await store.append(checkpointStreamName(partition, partitions), [{ id: newEventId(), ...event }], 'any');
}

/**
 * A partition's checkpoints as this process records them: each one names the position up to which
 * everything was turned into notifications and the latest snapshot, and one is recorded only when
 * either moved on.
 */
export class CheckpointRecorder {
  private recorded: Checkpoint = { position: 0n };

  constructor(
    private readonly store: EventStore,
    private readonly partition: number,
    private readonly partitions: number,
    private readonly clock: Clock,
  ) {}

  /** The last checkpoint recorded (by this process or an earlier one), from the store. */
  async read(): Promise<Checkpoint> {
    this.recorded = await readCheckpoint(this.store, this.partition, this.partitions);
    return this.recorded;
  }

  /** The last checkpoint recorded. */
  get last(): Checkpoint {
    return this.recorded;
  }

  /** Records `position` (never moving back) and `snapshot`, unless neither changed; throws when
   * the store refuses (the caller tries again later). Returns what is recorded now. */
  async record(position: bigint, snapshot: SnapshotRef | undefined): Promise<Checkpoint> {
    const last = this.recorded;
    const next: Checkpoint = {
      position: position > last.position ? position : last.position,
      ...(snapshot ? { snapshot } : {}),
    };
    if (next.position === last.position && next.snapshot === last.snapshot) return last;
    await recordCheckpoint(this.store, this.partition, this.partitions, next, isoNow(this.clock));
    this.recorded = next;
    return next;
  }
}
