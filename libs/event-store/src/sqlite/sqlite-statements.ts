import Database from 'better-sqlite3';
import { preparePrivateDatabaseFile } from './private-files';
import type { AppendStatements } from './sqlite-append';
import type { StreamRange } from '../event-store.port';
import { translateSqliteError } from './sqlite-errors';
import { SCHEMA, type EventRow } from './sqlite-schema';

/**
 * Opens (and makes, the first time) the store file as the embedded store uses it. Setting it up
 * (the journal mode, the table) may wait up to `setupTimeoutMs` for another process's lock: the API
 * and the notifier start side by side on one fresh file, and whichever comes second must wait for
 * the first's CREATE TABLE, not fail to start.
 */
export function openDatabase(file: string, setupTimeoutMs: number): Database.Database {
  let db: Database.Database | undefined;
  try {
    preparePrivateDatabaseFile(file);
    db = new Database(file, { timeout: setupTimeoutMs });
    db.pragma('journal_mode = WAL');
    // NORMAL: a commit does not fsync the write-ahead log on the event loop; the store fsyncs it on
    // the thread pool before it answers any append of the commit (WalSync), which is as durable.
    db.pragma('synchronous = NORMAL');
    // Freed space (deleted rows, and cells moved when a page is rebalanced) is zeroed, so that a
    // deleted stream's bytes stay nowhere in the file; on for every write, not just deletes, since
    // a rebalance long before the delete may have left a copy in a page's free space.
    db.pragma('secure_delete = ON');
    db.defaultSafeIntegers(true);
    db.exec(SCHEMA);
    // Once set up, SQLite's own wait for another process's write lock sleeps on the event loop (and
    // holds every request in flight): 1 ms, one sleep, about one commit of the other process; longer
    // waits are taken asynchronously by retryWhileLocked. At 5 ms (sleeps of 1, 2 and 2) the notifier
    // slept there 9 % of the time at 2,000 messages/s; 1 ms gave p99 45.6, 61.4, 52.8 and 40.9 ms at
    // that rate against 95.2, 87.5, 53.4 and 58.4 in alternating runs of bench i, the same CPU per
    // message; 0 (never sleep, retry on every turn) cost 5-20 % more CPU per message (bench/README).
    db.pragma('busy_timeout = 1');
    return db;
  } catch (error) {
    db?.close();
    throw translateSqliteError(error);
  }
}

/** The embedded store's prepared statements, made once per connection. (Named, not inferred: the
 * declarations the package ships cannot name better-sqlite3's inner statement type.) */
export interface Statements extends AppendStatements {
  readStream: Database.Statement<[string], EventRow>;
  readStreamFrom: Database.Statement<[string, bigint], EventRow>;
  readStreamRange: Database.Statement<[string, bigint, number], EventRow>;
  lastOfStream: Database.Statement<[string], EventRow>;
  head: Database.Statement<[], { head: bigint | null }>;
  deleteStream: Database.Statement<[string]>;
  /** The first stream name at or after a name, from the (stream, revision) index alone. */
  streamFrom: Database.Statement<[string], string>;
  /** The first stream name after a name: one seek of that index, however many events the stream holds. */
  streamAfter: Database.Statement<[string], string>;
  dataVersion: Database.Statement;
}

/** Prepares the embedded store's statements on a connection. */
export function prepareStatements(db: Database.Database): Statements {
  const append: AppendStatements = {
    eventById: db.prepare<[string], EventRow>('SELECT * FROM events WHERE event_id = ?'),
    eventPosition: db.prepare<[string], { position: bigint }>('SELECT position FROM events WHERE event_id = ?'),
    streamTip: db.prepare<[string], { revision: bigint; position: bigint }>(
      'SELECT revision, position FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1',
    ),
    lastType: db
      .prepare<[string], string>('SELECT type FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1')
      .pluck(),
    // json_valid first: a row damaged by hand must not stop appends to its stream (the chain breaks
    // there, and verification names it).
    chainAt: db.prepare<[bigint], { chain: string | null }>(
      "SELECT CASE WHEN json_valid(metadata) THEN json_extract(metadata, '$.chain') END AS chain FROM events WHERE position = ?",
    ),
    insert: db.prepare(
      'INSERT INTO events (event_id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
  };
  return {
    ...append,
    readStream: db.prepare<[string], EventRow>('SELECT * FROM events WHERE stream = ? ORDER BY revision'),
    // Without a count, no LIMIT at all: a bound LIMIT made a one-row read take about 1.6 times as long.
    readStreamFrom: db.prepare<[string, bigint], EventRow>(
      'SELECT * FROM events WHERE stream = ? AND revision >= ? ORDER BY revision',
    ),
    readStreamRange: db.prepare<[string, bigint, number], EventRow>(
      'SELECT * FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?',
    ),
    lastOfStream: db.prepare<[string], EventRow>(
      'SELECT * FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1',
    ),
    head: db.prepare<[], { head: bigint | null }>('SELECT max(position) AS head FROM events'),
    deleteStream: db.prepare<[string]>('DELETE FROM events WHERE stream = ?'),
    streamFrom: db
      .prepare<[string], string>('SELECT stream FROM events WHERE stream >= ? ORDER BY stream LIMIT 1')
      .pluck(),
    streamAfter: db
      .prepare<[string], string>('SELECT stream FROM events WHERE stream > ? ORDER BY stream LIMIT 1')
      .pluck(),
    dataVersion: db.prepare('PRAGMA data_version').pluck().safeIntegers(false),
  };
}

/** A stream's rows in revision order, all of them or `range`, each range with its own statement. */
export function streamRows(statements: Statements, streamName: string, range: StreamRange): EventRow[] {
  const { fromRevision, maxCount } = range;
  if (maxCount !== undefined) return statements.readStreamRange.all(streamName, fromRevision ?? 0n, maxCount);
  return fromRevision === undefined
    ? statements.readStream.all(streamName)
    : statements.readStreamFrom.all(streamName, fromRevision);
}
