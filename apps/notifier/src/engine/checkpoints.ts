import { newEventId } from '@gw/application';
import type { EventStore } from '@gw/event-store';

/** How far a notifier partition has turned recorded traffic into notifications. */
export type NotifierCheckpointed = {
  type: 'NotifierCheckpointed';
  data: { partition: number; partitions: number; position: string; at: string };
};

export function checkpointStreamName(partition: number, partitions: number): string {
  return `notifier-checkpoint-${partition}-of-${partitions}`;
}

/** The last recorded checkpoint of a partition, or 0n. */
export async function readCheckpoint(store: EventStore, partition: number, partitions: number): Promise<bigint> {
  const last = await store.readLastEvent(checkpointStreamName(partition, partitions));
  return last ? BigInt((last.data as NotifierCheckpointed['data']).position) : 0n;
}

export async function recordCheckpoint(store: EventStore, partition: number, partitions: number, position: bigint, at: string): Promise<void> {
  const event: NotifierCheckpointed = { type: 'NotifierCheckpointed', data: { partition, partitions, position: position.toString(), at } };
  await store.append(checkpointStreamName(partition, partitions), [{ id: newEventId(), ...event }], 'any');
}
