import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { INSTANCE_STREAM_PREFIX, isInstanceEvent } from '@gw/domain-instances';
import type { RecordedEvent } from '@gw/event-store';
import { projectInstance, type InstanceRow, type InstancesPage, type InstancesQuery } from '../instances.read-model';
import { InstancePages } from './instances-page';

export const INSTANCES_SCHEMA = `
CREATE TABLE IF NOT EXISTS instances (
  instance_id     TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL,
  package_id      TEXT NOT NULL,
  token_hash      TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  expires_at      TEXT NOT NULL,
  webhook_url     TEXT NOT NULL,
  webhook_on      INTEGER NOT NULL,
  disabled_reason TEXT,
  signing_secret  TEXT,
  previous_secret TEXT,
  previous_until  TEXT,
  events          TEXT NOT NULL,
  options         TEXT NOT NULL,
  deleted_at      TEXT,
  revision        INTEGER NOT NULL,
  label           TEXT,
  connection_state TEXT,
  connection_since TEXT
);
CREATE INDEX IF NOT EXISTS instances_by_account ON instances (account_id, created_at, instance_id);
CREATE INDEX IF NOT EXISTS instances_by_label ON instances (account_id, label, created_at, instance_id)
  WHERE label IS NOT NULL;
`;

type ReceiverOptionFields = Pick<
  InstanceRow,
  'signatureScheme' | 'webhookHeaders' | 'signingKey' | 'previousSigningKey'
>;

/** Instance rows kept in memory for lookups by id (about half a KiB each). */
const CACHED_ROWS = 20_000;

interface Row {
  instance_id: string;
  account_id: string;
  package_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  webhook_url: string;
  webhook_on: bigint;
  disabled_reason: string | null;
  signing_secret: string | null;
  previous_secret: string | null;
  previous_until: string | null;
  events: string;
  /** The receiver's options (docs/api.md section 12) as JSON: sealed values stay sealed. */
  options: string;
  deleted_at: string | null;
  revision: bigint;
  label: string | null;
  connection_state: string | null;
  connection_since: string | null;
}

/** The instances read model in the read-model file; SqliteReadModels owns the file and its transactions. */
export class SqliteInstances implements InstancesQuery {
  private readonly statements;
  private readonly cache = new LRUCache<string, InstanceRow>({ max: CACHED_ROWS });
  private readonly pages: InstancePages;

  constructor(private readonly db: Database.Database) {
    this.pages = new InstancePages(db);
    this.statements = {
      find: db.prepare<[string], Row>('SELECT * FROM instances WHERE instance_id = ?'),
      byAccount: db.prepare<[string], Row>(
        'SELECT * FROM instances WHERE account_id = ? AND deleted_at IS NULL ORDER BY created_at, instance_id',
      ),
      upsert: db.prepare(
        `INSERT INTO instances (instance_id, account_id, package_id, token_hash, created_at, expires_at,
           webhook_url, webhook_on, disabled_reason, signing_secret, previous_secret, previous_until, events,
           options, deleted_at, revision, label, connection_state, connection_since)
         VALUES (@instanceId, @accountId, @packageId, @tokenHash, @createdAt, @expiresAt,
           @webhookUrl, @webhookOn, @disabledReason, @encryptedSigningSecret, @previousSecret, @previousUntil,
           @events, @options, @deletedAt, @revision, @label, @connectionState, @connectionSince)
         ON CONFLICT (instance_id) DO UPDATE SET package_id = excluded.package_id, token_hash = excluded.token_hash,
           expires_at = excluded.expires_at, webhook_url = excluded.webhook_url,
           webhook_on = excluded.webhook_on, disabled_reason = excluded.disabled_reason,
           signing_secret = excluded.signing_secret, previous_secret = excluded.previous_secret,
           previous_until = excluded.previous_until, events = excluded.events, options = excluded.options,
           deleted_at = excluded.deleted_at, revision = excluded.revision, label = excluded.label,
           connection_state = excluded.connection_state, connection_since = excluded.connection_since`,
      ),
    };
  }

  /** Folds the instance events of a batch into their rows, inside the caller's transaction. Each
   * instance it touches is named in `touched`, which the caller hands to `forget` once the
   * transaction has ended, committed or not. */
  apply(events: readonly RecordedEvent[], touched: Map<string, InstanceRow | undefined>): void {
    for (const event of events) {
      if (!isInstanceEvent(event)) continue;
      const id = event.streamName.slice(INSTANCE_STREAM_PREFIX.length);
      const current = touched.has(id) ? touched.get(id) : this.anyInstance(id);
      touched.set(id, projectInstance(current, event, event.revision));
    }
    for (const row of touched.values()) if (row) this.statements.upsert.run(toParams(row));
  }

  /** Drops cached rows that a transaction may have changed. */
  forget(instanceIds: Iterable<string>): void {
    for (const id of instanceIds) this.cache.delete(id);
  }

  /** An instance's row, unless it was deleted. */
  findInstance(instanceId: string): InstanceRow | undefined {
    const row = this.anyInstance(instanceId);
    return row?.deletedAt ? undefined : row;
  }

  /** An instance's row, tombstones included. Rows are cached in memory (bounded, least recently used
   * dropped first): every status read looks one up, and only `apply` changes them, and what it
   * touches is forgotten. */
  private anyInstance(instanceId: string): InstanceRow | undefined {
    const cached = this.cache.get(instanceId);
    if (cached) return cached;
    const stored = this.statements.find.get(instanceId);
    const row = stored && fromRow(stored);
    if (row) this.cache.set(instanceId, row);
    return row;
  }

  listInstances(accountId: string): InstanceRow[] {
    return this.statements.byAccount.all(accountId).map(fromRow);
  }

  pageInstances(accountId: string, page: InstancesPage): InstanceRow[] {
    return this.pages.run<Row>(accountId, page).map(fromRow);
  }

  /** Every row, for audits and rebuild checks. */
  allInstances(): InstanceRow[] {
    return (this.db.prepare('SELECT * FROM instances ORDER BY instance_id').all() as Row[]).map(fromRow);
  }
}

function fromRow(row: Row): InstanceRow {
  return {
    instanceId: row.instance_id,
    accountId: row.account_id,
    packageId: row.package_id,
    tokenHash: row.token_hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    webhookUrl: row.webhook_url,
    webhookOn: row.webhook_on === 1n,
    disabledReason: row.disabled_reason,
    encryptedSigningSecret: row.signing_secret,
    previousSigningSecret:
      row.previous_secret !== null && row.previous_until !== null
        ? { encrypted: row.previous_secret, validUntil: row.previous_until }
        : null,
    events: JSON.parse(row.events) as InstanceRow['events'],
    ...(JSON.parse(row.options) as ReceiverOptionFields),
    label: row.label,
    connectionState: row.connection_state as InstanceRow['connectionState'],
    connectionSince: row.connection_since,
    deletedAt: row.deleted_at,
    revision: row.revision,
  };
}

function toParams(row: InstanceRow): Record<string, unknown> {
  const { previousSigningSecret, events, signatureScheme, webhookHeaders, signingKey, previousSigningKey, ...fields } =
    row;
  const options: ReceiverOptionFields = { signatureScheme, webhookHeaders, signingKey, previousSigningKey };
  return {
    ...fields,
    options: JSON.stringify(options),
    webhookOn: row.webhookOn ? 1 : 0,
    previousSecret: previousSigningSecret?.encrypted ?? null,
    previousUntil: previousSigningSecret?.validUntil ?? null,
    events: JSON.stringify(events),
  };
}
