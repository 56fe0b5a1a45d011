import type Database from 'better-sqlite3';
import type { RecordedEvent } from '@gw/event-store';
import { usageOf, type UsageQuery, type UsageRow } from '../usage.read-model';

export const USAGE_SCHEMA = `
CREATE TABLE IF NOT EXISTS usage (
  instance_id TEXT NOT NULL,
  day         TEXT NOT NULL,
  messages    INTEGER NOT NULL,
  acks        INTEGER NOT NULL,
  delivered   INTEGER NOT NULL,
  failed      INTEGER NOT NULL,
  position    INTEGER NOT NULL,
  PRIMARY KEY (instance_id, day)
) WITHOUT ROWID;
`;

interface Stored {
  instance_id: string;
  day: string;
  messages: bigint;
  acks: bigint;
  delivered: bigint;
  failed: bigint;
}

interface Tally {
  instanceId: string;
  day: string;
  messages: number;
  acks: number;
  delivered: number;
  failed: number;
  first: bigint;
  last: bigint;
}

/** Counts not yet stored, by instance and day. */
export type UsageTallies = Map<string, Tally>;

/**
 * The usage read model (docs/api.md 13.3) in the read-model file: counts per instance and UTC day.
 * Events are tallied in memory (a batch's, or a catch-up's many batches) and added with one
 * statement per instance and day. Each row keeps the position of the last event it counts, and a
 * tally whose first event is not past it was counted already: applying events twice counts them once.
 */
export class SqliteUsage implements UsageQuery {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      // Positional parameters: a rebuild adds a row per instance and day of every batch (bench e).
      add: db.prepare<[string, string, number, number, number, number, bigint, bigint]>(
        `INSERT INTO usage (instance_id, day, messages, acks, delivered, failed, position)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (instance_id, day) DO UPDATE SET messages = messages + excluded.messages,
           acks = acks + excluded.acks, delivered = delivered + excluded.delivered,
           failed = failed + excluded.failed, position = excluded.position
         WHERE ? > usage.position`,
      ),
      byAccount: db.prepare<[string, string, string], Stored>(
        `SELECT u.* FROM instances AS i JOIN usage AS u ON u.instance_id = i.instance_id AND u.day BETWEEN ? AND ?
         WHERE i.account_id = ? ORDER BY i.created_at, i.instance_id, u.day`,
      ),
      byInstance: db.prepare<[string, string, string, string], Stored>(
        `SELECT u.* FROM instances AS i JOIN usage AS u ON u.instance_id = i.instance_id AND u.day BETWEEN ? AND ?
         WHERE i.account_id = ? AND i.instance_id = ? ORDER BY u.day`,
      ),
    };
  }

  /** Adds the events of a batch to `tallies`, which may hold earlier batches' (a catch-up's). */
  tally(events: readonly RecordedEvent[], tallies: UsageTallies): void {
    for (const event of events) {
      const counted = usageOf(event);
      if (!counted) continue;
      const key = `${counted.instanceId}|${counted.day}`;
      let tally = tallies.get(key);
      if (!tally) {
        // A literal, not a spread of `counted`: spread objects with added fields are slow to update
        // (a rebuild counts every message: bench e).
        const { instanceId, day } = counted;
        tally = { instanceId, day, messages: 0, acks: 0, delivered: 0, failed: 0, first: event.position, last: 0n };
        tallies.set(key, tally);
      }
      if (counted.counter === 'messages') tally.messages += 1;
      else if (counted.counter === 'acks') tally.acks += 1;
      else if (counted.counter === 'notificationsDelivered') tally.delivered += 1;
      else tally.failed += 1;
      tally.last = event.position;
    }
  }

  /** Adds `tallies` to the stored counts, inside the caller's transaction. */
  write(tallies: UsageTallies): void {
    for (const { instanceId, day, messages, acks, delivered, failed, first, last } of tallies.values())
      this.statements.add.run(instanceId, day, messages, acks, delivered, failed, last, first);
  }

  usage(accountId: string, from: string, to: string, instanceId?: string): UsageRow[] {
    const rows =
      instanceId === undefined
        ? this.statements.byAccount.all(from, to, accountId)
        : this.statements.byInstance.all(from, to, accountId, instanceId);
    return rows.map((row) => ({
      instanceId: row.instance_id,
      day: row.day,
      messages: Number(row.messages),
      acks: Number(row.acks),
      notificationsDelivered: Number(row.delivered),
      attemptsFailed: Number(row.failed),
    }));
  }
}
