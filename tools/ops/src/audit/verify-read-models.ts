import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore } from '@gw/event-store';
import { PROJECTED_EVENT_TYPES, PROJECTED_STREAM_PREFIXES, ReadModelSnapshot, SqliteReadModels } from '@gw/projections';
import { firstDifference, type RowDifference } from './verify-diff';

export interface ReadModelReport {
  /** The log position both the live read models and the rebuild reflect. */
  position: bigint;
  /** The read models compared. */
  readModels: string[];
  /** Rows (or model versions) that differ. */
  differences: number;
  firstDifference?: RowDifference;
}

/** Projected events applied per read-model transaction of the rebuild. */
const PAGE = 10_000;
/** Pause between looks at a live read model that has not reached the head yet. */
const LOOK_EVERY_MS = 50;
/** The events the API's projection runner subscribes to (SqliteReadModels.eventTypes). */
const PROJECTED = { streamNamePrefixes: PROJECTED_STREAM_PREFIXES, eventTypes: PROJECTED_EVENT_TYPES };

/**
 * Rebuilds the read models from the log into a scratch file (in a directory of its own next to the
 * live file, removed afterwards) with the API's own projection code (SqliteReadModels), and compares
 * them row by row with the live ones (docs/api.md 9.2).
 *
 * Both must reflect the same position. The live file is read in one SQLite read transaction, so its
 * checkpoint and rows are of one moment even while the API writes; the rebuild then stops at exactly
 * that position. The snapshot is taken once the live models have reached `head` (the API follows
 * the log within milliseconds; if it went past, the rebuild goes as far), or once nothing they read
 * lies between their checkpoint and `head` (they are then the models at `head`); if neither happens
 * within `waitMs` (the API is stopped with events it has not read, say) they are compared at their
 * checkpoint, and the report says which position that was.
 */
export async function compareReadModels(
  store: EventStore,
  liveFile: string,
  head: bigint,
  waitMs: number,
): Promise<ReadModelReport> {
  const { live, position } = await liveSnapshot(store, liveFile, head, waitMs);
  try {
    // Next to the live file rather than in the system's temp: there is room for a copy there, and the
    // rebuilt rows (hashes, sealed secrets) stay in the service's private directory.
    const scratch = mkdtempSync(join(dirname(liveFile), 'audit-verify-'));
    try {
      const file = join(scratch, 'read-models.sqlite');
      await rebuild(store, file, position);
      const rebuilt = ReadModelSnapshot.open(file);
      try {
        const { count, first } = firstDifference(live, rebuilt);
        const readModels = [...new Set(rebuilt.tables.map((table) => table.readModel))];
        return { position, readModels, differences: count, firstDifference: first };
      } finally {
        rebuilt.close();
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  } finally {
    live.close();
  }
}

/** A snapshot of the live read models, and the position they stand for: their checkpoint, or
 * `head` when nothing they read lies between the two. */
async function liveSnapshot(
  store: EventStore,
  file: string,
  head: bigint,
  waitMs: number,
): Promise<{ live: ReadModelSnapshot; position: bigint }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const live = ReadModelSnapshot.open(file);
    try {
      if (live.checkpoint >= head) return { live, position: live.checkpoint };
      if (!(await projectedBetween(store, live.checkpoint, head))) return { live, position: head };
      if (Date.now() >= deadline) return { live, position: live.checkpoint };
    } catch (error) {
      live.close();
      throw error;
    }
    live.close();
    await sleep(LOOK_EVERY_MS);
  }
}

/** Whether an event the read models read lies in (after, upTo]. */
async function projectedBetween(store: EventStore, after: bigint, upTo: bigint): Promise<boolean> {
  const [next] = await store.readAll({ after, maxCount: 1, filter: PROJECTED });
  return next !== undefined && next.position <= upTo;
}

/** Builds the read models in `file` from the log up to exactly `upTo`, as a catch-up from nothing. */
async function rebuild(store: EventStore, file: string, upTo: bigint): Promise<void> {
  const models = new SqliteReadModels(file);
  try {
    models.catchingUp(true);
    let after: bigint | undefined;
    for (;;) {
      const page = await store.readAll({ after, maxCount: PAGE, filter: PROJECTED });
      const within = page.filter((event) => event.position <= upTo);
      if (within.length > 0) models.apply(within, within[within.length - 1].position);
      if (within.length < PAGE) break;
      after = page[page.length - 1].position;
    }
    models.apply([], upTo);
    models.catchingUp(false);
  } finally {
    await models.close();
  }
}
