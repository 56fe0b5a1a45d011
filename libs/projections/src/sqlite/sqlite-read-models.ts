import Database from 'better-sqlite3';
import { INSTANCE_STREAM_PREFIX, isInstanceEvent } from '@gw/domain-instances';
import { isNotificationEvent } from '@gw/domain-notifications';
import { preparePrivateDatabaseFile, startWalCheckpointer, type RecordedEvent, type WalCheckpointer } from '@gw/event-store';
import { PROJECTION_VERSION, projectInstance } from '../instances.projection';
import type { DeliveryAttemptRow, InstanceRow } from '../read-model.types';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS instances (
  instance_id     TEXT PRIMARY KEY,
  account_email   TEXT NOT NULL,
  package_id      TEXT NOT NULL,
  token_hash      TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  expires_at      TEXT NOT NULL,
  webhook_url     TEXT NOT NULL,
  webhook_on      INTEGER NOT NULL,
  disabled_reason TEXT,
  signing_secret  TEXT,
  revision        INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS instances_by_account ON instances (account_email, created_at, instance_id);
CREATE TABLE IF NOT EXISTS delivery_attempts (
  position        INTEGER PRIMARY KEY,
  instance_id     TEXT NOT NULL,
  webhook_id      TEXT NOT NULL,
  sequence        INTEGER NOT NULL,
  at              TEXT NOT NULL,
  status          INTEGER NOT NULL,
  error           TEXT NOT NULL,
  duration_ms     INTEGER NOT NULL,
  next_attempt_at TEXT
);
CREATE INDEX IF NOT EXISTS attempts_by_instance ON delivery_attempts (instance_id, position);
`;

/** Instance rows kept in memory for lookups by id (about half a KiB each). */
const CACHED_ROWS = 20_000;

/** Attempts kept per instance for getWebhookLogs, which shows at most 100 (between this and twice
 * this many are stored). */
const ATTEMPTS_KEPT = 100;

interface Row {
  instance_id: string;
  account_email: string;
  package_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  webhook_url: string;
  webhook_on: bigint;
  disabled_reason: string | null;
  signing_secret: string | null;
  revision: bigint;
}

interface AttemptRow {
  webhook_id: string;
  sequence: bigint;
  at: string;
  status: bigint;
  error: string;
  duration_ms: bigint;
  next_attempt_at: string | null;
}

/**
 * The API's read models in a local SQLite file, disposable: delete the file and they are rebuilt from
 * the log. Each batch of events and the checkpoint that covers it commit in one transaction.
 */
export class SqliteReadModels {
  private readonly db: Database.Database;
  private readonly statements;
  private readonly cache = new Map<string, InstanceRow>();
  /** Attempts added per instance since its last prune (kept at most 2 × ATTEMPTS_KEPT rows). */
  private readonly unpruned = new Map<string, number>();
  private readonly checkpointer: WalCheckpointer;

  constructor(file: string) {
    preparePrivateDatabaseFile(file);
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // Losing the tail of a read model on power loss is harmless: it is rebuilt from its checkpoint.
    this.db.pragma('synchronous = NORMAL');
    // Checkpoints (and their fsync of the file) run on a thread of their own, off the event loop.
    this.checkpointer = startWalCheckpointer(file);
    this.db.defaultSafeIntegers(true);
    this.db.exec(SCHEMA);
    if (this.metaValue('version') !== String(PROJECTION_VERSION)) this.reset();
    this.statements = {
      find: this.db.prepare<[string], Row>('SELECT * FROM instances WHERE instance_id = ?'),
      byAccount: this.db.prepare<[string], Row>(
        'SELECT * FROM instances WHERE account_email = ? ORDER BY created_at, instance_id',
      ),
      upsert: this.db.prepare(
        `INSERT INTO instances (instance_id, account_email, package_id, token_hash, created_at, expires_at,
           webhook_url, webhook_on, disabled_reason, signing_secret, revision)
         VALUES (@instanceId, @accountEmail, @packageId, @tokenHash, @createdAt, @expiresAt,
           @webhookUrl, @webhookOn, @disabledReason, @encryptedSigningSecret, @revision)
         ON CONFLICT (instance_id) DO UPDATE SET package_id = excluded.package_id,
           expires_at = excluded.expires_at, webhook_url = excluded.webhook_url,
           webhook_on = excluded.webhook_on, disabled_reason = excluded.disabled_reason,
           signing_secret = excluded.signing_secret, revision = excluded.revision`,
      ),
      insertAttempt: this.db.prepare(
        `INSERT OR IGNORE INTO delivery_attempts
           (position, instance_id, webhook_id, sequence, at, status, error, duration_ms, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      pruneAttempts: this.db.prepare(
        `DELETE FROM delivery_attempts WHERE instance_id = ? AND position <
           (SELECT min(position) FROM (SELECT position FROM delivery_attempts WHERE instance_id = ? ORDER BY position DESC LIMIT ${ATTEMPTS_KEPT}))`,
      ),
      latestAttempts: this.db.prepare<[string, number], AttemptRow>(
        'SELECT * FROM delivery_attempts WHERE instance_id = ? ORDER BY position DESC LIMIT ?',
      ),
      setMeta: this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    };
  }

  /** Position in the log up to which the models are built (0n when empty). */
  checkpoint(): bigint {
    return BigInt(this.metaValue('checkpoint') ?? '0');
  }

  /** Applies events (in log order) and moves the checkpoint, atomically. */
  apply(events: readonly RecordedEvent[], checkpoint: bigint): void {
    const touched = new Map<string, InstanceRow | undefined>();
    try {
      this.applyInTransaction(events, checkpoint, touched);
    } finally {
      // Committed or not, the cached rows of these instances are no longer to be trusted.
      for (const id of touched.keys()) this.cache.delete(id);
    }
  }

  private applyInTransaction(events: readonly RecordedEvent[], checkpoint: bigint, touched: Map<string, InstanceRow | undefined>): void {
    this.db.transaction(() => {
      const due: string[] = [];
      for (const event of events) {
        const attempt = deliveryAttempt(event);
        if (attempt) {
          const { position, instanceId, webhookId, sequence, at, status, error, durationMs, nextAttemptAt } = attempt;
          this.statements.insertAttempt.run(position, instanceId, webhookId, sequence, at, status, error, durationMs, nextAttemptAt);
          const unpruned = (this.unpruned.get(instanceId) ?? 0) + 1;
          this.unpruned.set(instanceId, unpruned);
          if (unpruned === ATTEMPTS_KEPT) due.push(instanceId);
        }
        if (!isInstanceEvent(event)) continue;
        const id = event.streamName.slice(INSTANCE_STREAM_PREFIX.length);
        const current = touched.has(id) ? touched.get(id) : this.findInstance(id);
        touched.set(id, projectInstance(current, event, event.revision));
      }
      for (const row of touched.values()) if (row) this.statements.upsert.run(toParams(row));
      // An instance is pruned back to its last ATTEMPTS_KEPT once that many more were added, not on
      // every batch: a rebuild with many attempts per instance would otherwise prune all the time.
      for (const instanceId of due) {
        this.statements.pruneAttempts.run(instanceId, instanceId);
        this.unpruned.delete(instanceId);
      }
      if (checkpoint > this.checkpoint()) this.statements.setMeta.run('checkpoint', checkpoint.toString());
    })();
  }

  /** An instance's row. Rows are cached in memory (bounded): every status read looks one up, and
   * only this object's `apply` changes them, which drops what it touches from the cache. */
  findInstance(instanceId: string): InstanceRow | undefined {
    const cached = this.cache.get(instanceId);
    if (cached) return cached;
    const stored = this.statements.find.get(instanceId);
    const row = stored && fromRow(stored);
    if (row) {
      if (this.cache.size >= CACHED_ROWS) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(instanceId, row);
    }
    return row;
  }

  /** An account's instances, oldest first. */
  listInstances(accountEmail: string): InstanceRow[] {
    return this.statements.byAccount.all(accountEmail).map(fromRow);
  }

  /** The latest delivery attempts of an instance, newest first. */
  latestAttempts(instanceId: string, limit: number): DeliveryAttemptRow[] {
    return this.statements.latestAttempts.all(instanceId, limit).map((row) => ({
      at: row.at,
      sequence: Number(row.sequence),
      webhookId: row.webhook_id,
      status: Number(row.status),
      error: row.error,
      durationMs: Number(row.duration_ms),
      nextAttemptAt: row.next_attempt_at,
    }));
  }

  /** Every row, for audits and rebuild checks. */
  allInstances(): InstanceRow[] {
    return (this.db.prepare('SELECT * FROM instances ORDER BY instance_id').all() as Row[]).map(fromRow);
  }

  /** Closes the file once its checkpointer thread has let go of it, so that nothing touches the
   * directory after this resolves. */
  async close(): Promise<void> {
    await this.checkpointer.stop();
    this.db.close();
  }

  private reset(): void {
    // A new version may change the tables' shape, so they are made anew rather than emptied.
    this.db.transaction(() => {
      this.db.exec('DROP TABLE IF EXISTS instances; DROP TABLE IF EXISTS delivery_attempts; DROP TABLE IF EXISTS meta;');
      this.db.exec(SCHEMA);
      this.db
        .prepare('INSERT INTO meta (key, value) VALUES (?, ?)')
        .run('version', String(PROJECTION_VERSION));
    })();
  }

  private metaValue(key: string): string | undefined {
    const row = this.db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(key);
    return row?.value;
  }
}

function fromRow(row: Row): InstanceRow {
  return {
    instanceId: row.instance_id,
    accountEmail: row.account_email,
    packageId: row.package_id,
    tokenHash: row.token_hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    webhookUrl: row.webhook_url,
    webhookOn: row.webhook_on === 1n,
    disabledReason: row.disabled_reason,
    encryptedSigningSecret: row.signing_secret,
    revision: row.revision,
  };
}

function toParams(row: InstanceRow): Record<string, unknown> {
  return { ...row, webhookOn: row.webhookOn ? 1 : 0 };
}

/** The delivery attempt an event records, if it records one. */
function deliveryAttempt(event: RecordedEvent) {
  if (!isNotificationEvent(event)) return undefined;
  const base = { position: event.position, instanceId: event.data.instanceId, webhookId: event.data.webhookId, sequence: event.data.sequence };
  if (event.type === 'DeliveryAttemptFailed') {
    const { at, status, error, durationMs, nextAttemptAt } = event.data;
    return { ...base, at, status, error, durationMs, nextAttemptAt };
  }
  if (event.type === 'NotificationDelivered') {
    const { at, status, durationMs } = event.data;
    return { ...base, at, status, error: '', durationMs, nextAttemptAt: null };
  }
  return undefined;
}
