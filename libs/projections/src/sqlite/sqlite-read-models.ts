import Database from 'better-sqlite3';
import { INSTANCE_STREAM_PREFIX, isInstanceEvent } from '@gw/domain-instances';
import { isNotificationEvent } from '@gw/domain-notifications';
import { preparePrivateDatabaseFile, startWalCheckpointer, type RecordedEvent, type WalCheckpointer } from '@gw/event-store';
import { PROJECTED_EVENT_TYPES, PROJECTION_VERSION, projectInstance } from '../instances.projection';
import type { ProjectionTarget } from '../projection-runner';
import type { DeliveryAttemptRow, InstanceRow } from '../read-model.types';
import { ATTEMPT_COLUMNS, ATTEMPTS_BY_INSTANCE, ATTEMPTS_KEPT, ATTEMPTS_PER_INSERT, insertAttempts, pushAttempt, SCHEMA } from './read-model-schema';

/** Instance rows kept in memory for lookups by id (about half a KiB each). */
const CACHED_ROWS = 20_000;

/** Page cache while catching up (KiB), so that a catch-up's index pages are written once per
 * transaction rather than spilled and read back. */
const CATCH_UP_CACHE_KIB = 64 * 1024;

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
export class SqliteReadModels implements ProjectionTarget {
  /** NotificationCreated and the like are left unread in the store. */
  readonly eventTypes = PROJECTED_EVENT_TYPES;
  private readonly db: Database.Database;
  private readonly statements;
  private readonly cache = new Map<string, InstanceRow>();
  /** Attempts added per instance since its last prune (kept at most 2 × ATTEMPTS_KEPT rows). */
  private readonly unpruned = new Map<string, number>();
  private readonly checkpointer: WalCheckpointer;
  /** Page cache size to return to once caught up; undefined while live. */
  private liveCacheSize?: number;
  /** Whether some instance may hold more than 2 × ATTEMPTS_KEPT attempts: set while catching up,
   * and on opening, as the counts of a previous process are not known. */
  private pruneDue = true;

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
    const version = this.db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get('version');
    if (version?.value !== String(PROJECTION_VERSION)) this.reset();
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
      insertAttempt: this.db.prepare(insertAttempts(1)),
      insertAttempts: this.db.prepare(insertAttempts(ATTEMPTS_PER_INSERT)),
      pruneAttempts: this.db.prepare(
        `DELETE FROM delivery_attempts WHERE instance_id = ? AND position <
           (SELECT position FROM delivery_attempts WHERE instance_id = ? ORDER BY position DESC LIMIT 1 OFFSET ${ATTEMPTS_KEPT - 1})`,
      ),
      crowded: this.db
        .prepare<[], string>(`SELECT instance_id FROM delivery_attempts GROUP BY instance_id HAVING count(*) > ${ATTEMPTS_KEPT}`)
        .pluck(),
      latestAttempts: this.db.prepare<[string, number], AttemptRow>(
        'SELECT * FROM delivery_attempts WHERE instance_id = ? ORDER BY position DESC LIMIT ?',
      ),
      getMeta: this.db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck(),
      setMeta: this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    };
  }

  /** Position in the log up to which the models are built (0n when empty). */
  checkpoint(): bigint {
    return BigInt(this.statements.getMeta.get('checkpoint') ?? '0');
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

  /** Writes in bulk while a catch-up runs; when it ends, prunes attempts and returns to the live settings. */
  catchingUp(active: boolean): void {
    if (active) {
      this.liveCacheSize ??= Number(this.db.pragma('cache_size', { simple: true }));
      // synchronous stays NORMAL: OFF would save little in WAL mode (NORMAL syncs only at
      // checkpoints) and could leave a corrupt file, not merely an old one, after a power loss.
      this.db.pragma(`cache_size = -${CATCH_UP_CACHE_KIB}`);
      // From scratch, the attempts index is built once at the end, which costs far less than keeping
      // it up to date row by row. Nothing reads the models before their first catch-up ends.
      if (this.checkpoint() === 0n) this.db.exec(`DROP INDEX IF EXISTS ${ATTEMPTS_BY_INSTANCE}`);
      return;
    }
    const prune = this.pruneDue;
    this.db.transaction(() => {
      // Makes again the index a catch-up from scratch dropped (and nothing else, the rest exists).
      this.db.exec(SCHEMA);
      // Attempts are pruned here, once, rather than in rounds during the catch-up.
      if (prune) for (const instanceId of this.statements.crowded.all()) this.statements.pruneAttempts.run(instanceId, instanceId);
    })();
    if (prune) {
      this.unpruned.clear();
      this.pruneDue = false;
    }
    if (this.liveCacheSize === undefined) return;
    this.db.pragma(`cache_size = ${this.liveCacheSize}`);
    this.liveCacheSize = undefined;
  }

  private applyInTransaction(events: readonly RecordedEvent[], checkpoint: bigint, touched: Map<string, InstanceRow | undefined>): void {
    const bulk = this.liveCacheSize !== undefined;
    this.db.transaction(() => {
      const due: string[] = [];
      const attempts: unknown[] = [];
      for (const event of events) {
        if (isNotificationEvent(event)) {
          const instanceId = pushAttempt(attempts, event);
          if (attempts.length === ATTEMPTS_PER_INSERT * ATTEMPT_COLUMNS) {
            this.statements.insertAttempts.run(attempts);
            attempts.length = 0;
          }
          if (instanceId === undefined) continue;
          if (bulk) {
            this.pruneDue = true;
            continue;
          }
          const unpruned = (this.unpruned.get(instanceId) ?? 0) + 1;
          this.unpruned.set(instanceId, unpruned);
          if (unpruned === ATTEMPTS_KEPT) due.push(instanceId);
          continue;
        }
        if (!isInstanceEvent(event)) continue;
        const id = event.streamName.slice(INSTANCE_STREAM_PREFIX.length);
        const current = touched.has(id) ? touched.get(id) : this.findInstance(id);
        touched.set(id, projectInstance(current, event, event.revision));
      }
      for (let i = 0; i < attempts.length; i += ATTEMPT_COLUMNS) this.statements.insertAttempt.run(attempts.slice(i, i + ATTEMPT_COLUMNS));
      for (const row of touched.values()) if (row) this.statements.upsert.run(toParams(row));
      // Live, an instance is pruned back to its last ATTEMPTS_KEPT once that many more were added, not
      // on every batch, which would prune all the time.
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
