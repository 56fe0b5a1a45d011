import { newEventId, type LoadedState } from '@gw/application';
import type { NotifierSnapshotChunk, SnapshotEntry, SnapshotRef } from '@gw/domain-notifications';
import type { EventStore } from '@gw/event-store';

/**
 * The shape of the state a snapshot holds. Bump it whenever InstanceState, NotificationsState or
 * what the model keeps changes shape: a notifier ignores a snapshot of another version and replays
 * the log from the start instead (and then writes a snapshot of its own).
 */
export const SNAPSHOT_VERSION = 10;

/** Instances per snapshot event, so that no event grows past what an engine accepts (EventStoreDB:
 * 16 MiB by default) even with full notification bodies. */
const INSTANCES_PER_CHUNK = 500;

// The stored shapes live with the other recorded events, so that their versions are checked too.
export type { NotifierSnapshotChunk, SnapshotEntry, SnapshotRef };

/** The model of a partition, taken where every event up to `position` was applied and turned into
 * notifications. */
export interface NotifierSnapshot {
  position: bigint;
  entries: SnapshotEntry[];
}

function snapshotStreamName(partition: number, partitions: number, position: bigint): string {
  return `notifier-snapshot-${partition}-of-${partitions}-at-${position}`;
}

/**
 * Writes a snapshot into a stream of its own (chunks of INSTANCES_PER_CHUNK instances, one append)
 * and returns where it is. The stream is never written again; the checkpoint then points at it.
 */
export async function writeSnapshot(
  store: EventStore,
  partition: number,
  partitions: number,
  snapshot: NotifierSnapshot,
): Promise<SnapshotRef> {
  const stream = snapshotStreamName(partition, partitions, snapshot.position);
  const position = snapshot.position.toString();
  const chunks: NotifierSnapshotChunk[] = [];
  for (let i = 0; i === 0 || i < snapshot.entries.length; i += INSTANCES_PER_CHUNK) {
    chunks.push({
      type: 'NotifierSnapshotChunk',
      data: { version: SNAPSHOT_VERSION, position, entries: snapshot.entries.slice(i, i + INSTANCES_PER_CHUNK) },
    });
  }
  // 'any': a snapshot retried after an outage is the same state at the same position.
  await store.append(
    stream,
    chunks.map((c) => ({ id: newEventId(), ...c })),
    'any',
  );
  return { stream, position, version: SNAPSHOT_VERSION };
}

/** Reads a snapshot back; undefined when it is of another version or not (completely) there. */
export async function readSnapshot(store: EventStore, ref: SnapshotRef): Promise<NotifierSnapshot | undefined> {
  if (ref.version !== SNAPSHOT_VERSION) return undefined;
  const events = await store.readStream(ref.stream);
  const chunks = events
    .filter((e) => e.type === 'NotifierSnapshotChunk')
    .map((e) => (e as unknown as NotifierSnapshotChunk).data);
  if (chunks.length === 0 || chunks.some((c) => c.version !== SNAPSHOT_VERSION || c.position !== ref.position))
    return undefined;
  return { position: BigInt(ref.position), entries: chunks.flatMap((c) => c.entries) };
}

/** A view as stored in a snapshot. */
export function storedView<State>(view: LoadedState<State>): { state: State; revision: string; position?: string } {
  const stored = { state: view.state, revision: view.revision.toString() };
  return view.position === undefined ? stored : { ...stored, position: view.position.toString() };
}

/** A view read back from a snapshot (without a position when the snapshot has none: one written
 * before positions were kept, whose views are read whole at their first conflict). */
export function restoredView<State>(stored: { state: State; revision: string; position?: string }): LoadedState<State> {
  const view = { state: stored.state, revision: BigInt(stored.revision) };
  return stored.position === undefined ? view : { ...view, position: BigInt(stored.position) };
}
