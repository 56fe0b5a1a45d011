import type Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { UNREADABLE_KEY } from '../event-chain';
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

  /**
   * The rows after `after` up to `upTo` that pass `filter`, at most `limit` (-1: all), each query
   * made through `run` (the store's lock retry). SQLite reads a filtered range row by row, and a
   * query holds the event loop until it is done: a filter that matches few events (the data keys the
   * retention sweep looks for, an instance's own streams) would hold it for the whole log in one
   * query. So a filtered range is read in windows of `window` positions, with a turn of the event
   * loop between them (an unfiltered one stops at `limit` rows, in one query). A subscription that is
   * aborted meanwhile stops scanning (what was found is returned, and dropped by the subscription).
   */
  async scan(
    after: bigint,
    upTo: bigint,
    limit: number,
    options: {
      filter?: EventFilter;
      window: bigint;
      signal?: AbortSignal;
      run: (read: () => EventRow[]) => Promise<EventRow[]>;
    },
  ): Promise<EventRow[]> {
    const { filter, window, signal, run } = options;
    if (!filter) return run(() => this.rows(after, upTo, limit));
    const found: EventRow[] = [];
    for (let from = after; from < upTo && !signal?.aborted;) {
      const to = from + window < upTo ? from + window : upTo;
      const start = from;
      const rows = await run(() => this.rows(start, to, limit < 0 ? -1 : limit - found.length, filter));
      for (const row of rows) found.push(row);
      if (limit >= 0 && found.length >= limit) break;
      from = to;
      if (from < upTo) await nextTurn();
    }
    return found;
  }
}

/**
 * A row as the port's event. A row whose data or metadata is no longer valid JSON (its file was
 * edited) does not fail the read: it comes back marked with UNREADABLE_KEY (see event-chain.ts), so
 * that verification can name it and the other events can still be read.
 */
export function toRecorded(row: EventRow): RecordedEvent {
  const data = parsed(row.data);
  const metadata = parsed(row.metadata);
  const event: RecordedEvent = {
    id: row.event_id,
    streamName: row.stream,
    revision: row.revision,
    position: row.position,
    type: row.type,
    data,
    metadata: metadata as Record<string, unknown>,
    recordedAt: row.recorded_at,
  };
  return data === UNPARSABLE || metadata === UNPARSABLE ? unreadable(event, data, metadata) : event;
}

const UNPARSABLE = Symbol('unparsable');

/** The event as returned when its stored data or metadata (as parsed) could not be parsed. */
function unreadable(event: RecordedEvent, data: unknown, metadata: unknown): RecordedEvent {
  const parts = [data === UNPARSABLE ? 'data' : '', metadata === UNPARSABLE ? 'metadata' : ''].filter(Boolean);
  return {
    ...event,
    data: data === UNPARSABLE ? undefined : data,
    metadata: { ...(metadata === UNPARSABLE ? {} : (metadata as object)), [UNREADABLE_KEY]: parts },
  };
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return UNPARSABLE;
  }
}
