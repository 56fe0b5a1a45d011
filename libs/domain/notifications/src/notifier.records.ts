import type { InstanceState } from '@gw/domain-instances';
import type { NoticePeriod } from './instance-notices';
import type { NotificationsState } from './notifications.state';

/**
 * What the notifier records about its own progress, besides notifications: checkpoints and
 * snapshots. They are stored events like any other, so their shapes are versioned with the rest
 * (libs/application/src/event-schema); a snapshot's `version` is the version of the state it holds,
 * not of the event.
 */

/** Where a partition's latest snapshot is: its stream, and the log position it reflects exactly. */
export interface SnapshotRef {
  stream: string;
  position: string;
  version: number;
}

/** How far a notifier partition has turned recorded traffic into notifications, and where its latest
 * snapshot is (absent before the first). */
export type NotifierCheckpointed = {
  type: 'NotifierCheckpointed';
  data: { partition: number; partitions: number; position: string; at: string; snapshot?: SnapshotRef };
};

/** What the model holds of one instance, as stored: revisions as decimal strings. */
export interface SnapshotEntry {
  instanceId: string;
  instance?: { state: InstanceState; revision: string };
  /** The period the instance's notices are judged in (docs/api.md 8.9), folded with `instance`. */
  noticePeriod?: NoticePeriod | null;
  /** When a URL was last registered (NotifierState's `setAt`), folded with `instance`. */
  setAt?: string | null;
  /** `position`: the global position of the event at `revision`, absent in snapshots written before it was kept. */
  notifications?: { state: NotificationsState; revision: string; position?: string };
}

/** One part of a snapshot. */
export type NotifierSnapshotChunk = {
  type: 'NotifierSnapshotChunk';
  data: { version: number; position: string; entries: SnapshotEntry[] };
};

/** The notifier's own records: checkpoints and snapshot chunks. */
export type NotifierRecord = NotifierCheckpointed | NotifierSnapshotChunk;
