import type Database from 'better-sqlite3';
import type { EventFilter, RecordedEvent } from '../event-store.port';
import type { EventRow } from './sqlite-schema';

/** Reads of the global log in position order, optionally filtered by stream-name prefixes and event
 * types; one prepared statement per filter shape, made on first use. */
export class FilteredReads {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  rows(after: bigint, upTo: bigint | number, limit: number, filter?: EventFilter): EventRow[] {
    const prefixes = filter?.streamNamePrefixes ?? [];
    const types = filter?.eventTypes ?? [];
    const key = `${prefixes.map((p) => p.length).join(',')}|${types.length}`;
    let statement = this.statements.get(key);
    if (!statement) {
      const where = ['position > ?', 'position <= ?'];
      if (prefixes.length > 0) where.push(`(${prefixes.map(() => 'substr(stream, 1, ?) = ?').join(' OR ')})`);
      if (types.length > 0) where.push(`type IN (${types.map(() => '?').join(', ')})`);
      statement = this.db.prepare(`SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY position LIMIT ?`);
      this.statements.set(key, statement);
    }
    const params: unknown[] = [after, BigInt(upTo)];
    for (const prefix of prefixes) params.push(BigInt(prefix.length), prefix);
    params.push(...types, BigInt(limit));
    return statement.all(...params) as EventRow[];
  }
}

export function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamName: row.stream,
    revision: row.revision,
    position: row.position,
    type: row.type,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    recordedAt: row.recorded_at,
  };
}
