import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { isInstanceEvent } from '@gw/domain-instances';
import type { RecordedEvent } from '@gw/event-store';
import { PROJECTION_VERSION, projectInstance } from '../instances.projection';
import type { InstanceRow } from '../read-model.types';

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
  revision        INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS instances_by_account ON instances (account_email, created_at, instance_id);
`;

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
  revision: bigint;
}

/**
 * The API's read models in a local SQLite file, disposable: delete the file and they are rebuilt from
 * the log. Each batch of events and the checkpoint that covers it commit in one transaction.
 */
export class SqliteReadModels {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // Losing the tail of a read model on power loss is harmless: it is rebuilt from its checkpoint.
    this.db.pragma('synchronous = NORMAL');
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
           webhook_url, webhook_on, disabled_reason, revision)
         VALUES (@instanceId, @accountEmail, @packageId, @tokenHash, @createdAt, @expiresAt,
           @webhookUrl, @webhookOn, @disabledReason, @revision)
         ON CONFLICT (instance_id) DO UPDATE SET package_id = excluded.package_id,
           expires_at = excluded.expires_at, webhook_url = excluded.webhook_url,
           webhook_on = excluded.webhook_on, disabled_reason = excluded.disabled_reason,
           revision = excluded.revision`,
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
    this.db.transaction(() => {
      const touched = new Map<string, InstanceRow | undefined>();
      for (const event of events) {
        if (!isInstanceEvent(event)) continue;
        const id = event.streamName.slice('instance-'.length);
        const current = touched.has(id) ? touched.get(id) : this.findInstance(id);
        touched.set(id, projectInstance(current, event, event.revision));
      }
      for (const row of touched.values()) if (row) this.statements.upsert.run(toParams(row));
      if (checkpoint > this.checkpoint()) this.statements.setMeta.run('checkpoint', checkpoint.toString());
    })();
  }

  findInstance(instanceId: string): InstanceRow | undefined {
    const row = this.statements.find.get(instanceId);
    return row && fromRow(row);
  }

  /** An account's instances, oldest first. */
  listInstances(accountEmail: string): InstanceRow[] {
    return this.statements.byAccount.all(accountEmail).map(fromRow);
  }

  /** Every row, for audits and rebuild checks. */
  allInstances(): InstanceRow[] {
    return (this.db.prepare('SELECT * FROM instances ORDER BY instance_id').all() as Row[]).map(fromRow);
  }

  close(): void {
    this.db.close();
  }

  private reset(): void {
    this.db.transaction(() => {
      this.db.exec('DELETE FROM instances; DELETE FROM meta;');
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
    revision: row.revision,
  };
}

function toParams(row: InstanceRow): Record<string, unknown> {
  return { ...row, webhookOn: row.webhookOn ? 1 : 0 };
}
