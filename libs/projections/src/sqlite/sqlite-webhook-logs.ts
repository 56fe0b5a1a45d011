import type Database from 'better-sqlite3';
import { isNotificationEvent } from '@gw/domain-notifications';
import type { RecordedEvent } from '@gw/event-store';
import { deliveryAttemptOf, type DeliveryAttemptRow, type WebhookLogsQuery } from '../webhook-logs.read-model';

/** The index getWebhookLogs reads by; a rebuild from scratch makes it at its end. */
const ATTEMPTS_BY_INSTANCE = 'attempts_by_instance';

export const DELIVERY_ATTEMPTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS delivery_attempts (
  position        INTEGER PRIMARY KEY,
  instance_id     TEXT NOT NULL,
  webhook_id      TEXT NOT NULL,
  sequence        INTEGER,
  at              TEXT NOT NULL,
  status          INTEGER NOT NULL,
  error           TEXT NOT NULL,
  duration_ms     INTEGER NOT NULL,
  next_attempt_at TEXT,
  test            INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ${ATTEMPTS_BY_INSTANCE} ON delivery_attempts (instance_id, position);
`;

/** Attempts kept per instance for getWebhookLogs, which shows at most 100 (between this and twice
 * this many are stored while live; the end of a catch-up prunes back to this many). */
export const ATTEMPTS_KEPT = 100;

/** Attempts bound per INSERT while applying a batch: one call for many rows costs less than one each. */
const ATTEMPTS_PER_INSERT = 32;
const ATTEMPT_COLUMNS = 10;

/** An INSERT of `rows` delivery attempts; rows stored already (same position) are left as they are. */
function insertAttempts(rows: number): string {
  const values = Array.from({ length: rows }, () => `(${Array(ATTEMPT_COLUMNS).fill('?').join(', ')})`);
  return `INSERT OR IGNORE INTO delivery_attempts
    (position, instance_id, webhook_id, sequence, at, status, error, duration_ms, next_attempt_at, test) VALUES ${values.join(', ')}`;
}

interface AttemptRow {
  webhook_id: string;
  sequence: bigint | null;
  at: string;
  status: bigint;
  error: string;
  duration_ms: bigint;
  next_attempt_at: string | null;
  test: bigint;
}

/** The webhook-logs read model in the read-model file; SqliteReadModels owns the file and its transactions. */
export class SqliteWebhookLogs implements Pick<WebhookLogsQuery, 'latestAttempts'> {
  private readonly statements;
  /** Attempts added per instance since its last prune (kept at most 2 × ATTEMPTS_KEPT rows). */
  private readonly unpruned = new Map<string, number>();
  /** Whether some instance may hold more than 2 × ATTEMPTS_KEPT attempts: set while catching up,
   * and on opening, as the counts of a previous process are not known. */
  private pruneDue = true;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      insertAttempt: db.prepare(insertAttempts(1)),
      insertAttempts: db.prepare(insertAttempts(ATTEMPTS_PER_INSERT)),
      pruneAttempts: db.prepare(
        `DELETE FROM delivery_attempts WHERE instance_id = ? AND position <
           (SELECT position FROM delivery_attempts WHERE instance_id = ? ORDER BY position DESC LIMIT 1 OFFSET ${ATTEMPTS_KEPT - 1})`,
      ),
      crowded: db
        .prepare<[], string>(
          `SELECT instance_id FROM delivery_attempts GROUP BY instance_id HAVING count(*) > ${ATTEMPTS_KEPT}`,
        )
        .pluck(),
      latestAttempts: db.prepare<[string, number], AttemptRow>(
        'SELECT * FROM delivery_attempts WHERE instance_id = ? ORDER BY position DESC LIMIT ?',
      ),
    };
  }

  /** Records the delivery attempts of a batch, inside the caller's transaction. In `bulk` (while
   * catching up), pruning is left to the end of the catch-up. */
  apply(events: readonly RecordedEvent[], bulk: boolean): void {
    const due: string[] = [];
    const columns: unknown[] = [];
    for (const event of events) {
      if (!isNotificationEvent(event)) continue;
      const attempt = deliveryAttemptOf(event);
      if (!attempt) continue;
      const { position, instanceId, webhookId, sequence, at, status, error, durationMs, nextAttemptAt, test } = attempt;
      columns.push(
        position,
        instanceId,
        webhookId,
        sequence,
        at,
        status,
        error,
        durationMs,
        nextAttemptAt,
        test ? 1 : 0,
      );
      if (columns.length === ATTEMPTS_PER_INSERT * ATTEMPT_COLUMNS) {
        this.statements.insertAttempts.run(columns);
        columns.length = 0;
      }
      if (bulk) {
        this.pruneDue = true;
        continue;
      }
      const unpruned = (this.unpruned.get(instanceId) ?? 0) + 1;
      this.unpruned.set(instanceId, unpruned);
      if (unpruned === ATTEMPTS_KEPT) due.push(instanceId);
    }
    for (let i = 0; i < columns.length; i += ATTEMPT_COLUMNS)
      this.statements.insertAttempt.run(columns.slice(i, i + ATTEMPT_COLUMNS));
    // Live, an instance is pruned back to its last ATTEMPTS_KEPT once that many more were added, not
    // on every batch, which would prune all the time.
    for (const instanceId of due) {
      this.statements.pruneAttempts.run(instanceId, instanceId);
      this.unpruned.delete(instanceId);
    }
  }

  /** Before a catch-up from scratch: the index is built once at its end, which costs far less than
   * keeping it up to date row by row. Nothing reads the models before their first catch-up ends. */
  dropIndex(): void {
    this.db.exec(`DROP INDEX IF EXISTS ${ATTEMPTS_BY_INSTANCE}`);
  }

  /** At the end of a catch-up: makes again the index a catch-up from scratch dropped, and prunes
   * attempts, once, rather than in rounds during the catch-up. */
  endCatchUp(): void {
    const prune = this.pruneDue;
    this.db.transaction(() => {
      this.db.exec(DELIVERY_ATTEMPTS_SCHEMA);
      if (prune)
        for (const instanceId of this.statements.crowded.all())
          this.statements.pruneAttempts.run(instanceId, instanceId);
    })();
    if (prune) {
      this.unpruned.clear();
      this.pruneDue = false;
    }
  }

  latestAttempts(instanceId: string, limit: number): DeliveryAttemptRow[] {
    return this.statements.latestAttempts.all(instanceId, limit).map((row) => ({
      at: row.at,
      sequence: row.sequence === null ? null : Number(row.sequence),
      webhookId: row.webhook_id,
      status: Number(row.status),
      error: row.error,
      durationMs: Number(row.duration_ms),
      nextAttemptAt: row.next_attempt_at,
      test: Number(row.test) === 1,
    }));
  }
}
