import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { ATTEMPTS_KEPT } from './sqlite-webhook-logs';

/** One table of a read-model file as an audit compares it (docs/api.md 9.2). */
export interface ReadModelTable {
  /** The read model the table holds, as the docs name it. */
  readModel: 'instances' | 'webhook-logs' | 'usage';
  table: string;
  /** The columns that identify a row. */
  key: readonly string[];
  /** Columns whose values an audit may print. Any other (a hash, a sealed secret, an address, a URL
   * that may carry credentials, or a column added later) is named, never shown. */
  shown: readonly string[];
}

/** A row as stored, column by column (integers as bigint). */
export type ReadModelRow = Record<string, unknown>;

interface TableQuery extends ReadModelTable {
  /** The rows that are the model's content, in key order. */
  rows: string;
}

const TABLES: readonly TableQuery[] = [
  {
    readModel: 'instances',
    table: 'instances',
    key: ['instance_id'],
    shown: [
      'instance_id',
      'package_id',
      'created_at',
      'expires_at',
      'webhook_on',
      'disabled_reason',
      'previous_until',
      'events',
      'deleted_at',
      'revision',
      'label',
      'connection_state',
      'connection_since',
    ],
    rows: 'SELECT * FROM instances ORDER BY instance_id',
  },
  {
    readModel: 'webhook-logs',
    table: 'delivery_attempts',
    key: ['position'],
    shown: [
      'position',
      'instance_id',
      'webhook_id',
      'sequence',
      'at',
      'status',
      'error',
      'duration_ms',
      'next_attempt_at',
      'test',
    ],
    // Live, an instance keeps between ATTEMPTS_KEPT and twice as many attempts (pruned in rounds); a
    // rebuild keeps exactly its latest ATTEMPTS_KEPT, which are all getWebhookLogs can show. Those are
    // the content both must agree on.
    rows: `SELECT * FROM delivery_attempts AS a WHERE a.position >= coalesce(
             (SELECT position FROM delivery_attempts WHERE instance_id = a.instance_id ORDER BY position DESC LIMIT 1 OFFSET ${ATTEMPTS_KEPT - 1}), 0)
           ORDER BY a.position`,
  },
  {
    readModel: 'usage',
    table: 'usage',
    key: ['instance_id', 'day'],
    shown: ['instance_id', 'day', 'messages', 'acks', 'delivered', 'failed', 'position'],
    rows: 'SELECT * FROM usage ORDER BY instance_id, day',
  },
];

/** The read-model file is missing or is not one (the API never ran on this DATA_DIR). */
export class NoReadModelsError extends Error {}

/**
 * A consistent, read-only view of a read-model file, taken inside one SQLite read transaction: in
 * WAL mode, what a running API commits after the snapshot began is not seen, so the checkpoint and
 * every row belong to the same moment. Close it soon: while it is open the API's WAL cannot be
 * checkpointed past it.
 */
export class ReadModelSnapshot {
  private constructor(
    private readonly db: Database.Database,
    /** Position in the log the rows reflect. */
    readonly checkpoint: bigint,
    /** The projection version the file was built by. */
    readonly version: string | undefined,
  ) {}

  /** Opens `file` read-only and begins the snapshot. */
  static open(file: string): ReadModelSnapshot {
    if (!existsSync(file)) throw new NoReadModelsError(`no read models at ${file}`);
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      db.defaultSafeIntegers(true);
      db.exec('BEGIN');
      const meta = db
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
        .get();
      if (!meta) throw new NoReadModelsError(`${file} holds no read models`);
      const value = db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck();
      return new ReadModelSnapshot(db, BigInt(value.get('checkpoint') ?? '0'), value.get('version'));
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** The tables the read models keep, in a fixed order. */
  get tables(): readonly ReadModelTable[] {
    return TABLES.map(({ rows: _rows, ...table }) => table);
  }

  /** The content rows of `table`, in key order, read lazily; empty when the file has no such table. */
  *rows(table: ReadModelTable): IterableIterator<ReadModelRow> {
    const query = TABLES.find((t) => t.table === table.table);
    if (!query) return;
    const exists = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table.table);
    if (!exists) return;
    yield* this.db.prepare<[], ReadModelRow>(query.rows).iterate();
  }

  /** Ends the read transaction and closes the file. */
  close(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.db.close();
  }
}
