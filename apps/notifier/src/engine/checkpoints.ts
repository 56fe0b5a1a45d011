import { newEventId } from '@gw/application';
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
export async function readCheckpoint(store: EventStore, partition: number, partitions: number): Promise<Checkpoint> {
  const last = await store.readLastEvent(checkpointStreamName(partition, partitions));
  if (!last) return { position: 0n };
  const data = last.data as NotifierCheckpointed['data'];
  return { position: BigInt(data.position), ...(data.snapshot ? { snapshot: data.snapshot } : {}) };
}

export async function recordCheckpoint(store: EventStore, partition: number, partitions: number, checkpoint: Checkpoint, at: string): Promise<void> {
  const { position, snapshot } = checkpoint;
  const event: NotifierCheckpointed = {
    type: 'NotifierCheckpointed',
    data: { partition, partitions, position: position.toString(), at, ...(snapshot ? { snapshot } : {}) },
  };
  await store.append(checkpointStreamName(partition, partitions), [{ id: newEventId(), ...event }], 'any');
}
