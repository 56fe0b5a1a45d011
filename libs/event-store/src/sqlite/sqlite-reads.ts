import type Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { UNREADABLE_KEY } from '../event-chain';
import type { EventFilter, RecordedEvent } from '../event-store.port';
import type { EventRow } from './sqlite-schema';

/** The columns of EventRow in the order a filtered read selects them (as arrays: see `events`). */
type RawRow = [bigint, string, string, bigint, string, string | null, string | null, string];

/** Positions a filtered read scans per query (eventsAfter): a few milliseconds of the event loop. */
const FILTER_WINDOW = 20_000;

/** The filter window an embedded store was given (SqliteEventStoreOptions.filterWindow), checked. */
export function filterWindowOf(window: number = FILTER_WINDOW): bigint {
  // A window of 0 would never move on.
  if (!Number.isSafeInteger(window) || window < 1)
    throw new RangeError(`filterWindow must be a positive integer, not ${window}`);
  return BigInt(window);
}

/** Reads of the global log in position order, optionally filtered by stream-name prefixes and event
 * types; one prepared statement per filter shape, made on first use. */
export class FilteredReads {
  private readonly statements = new Map<string, Database.Statement<unknown[], RawRow>>();

  constructor(private readonly db: Database.Database) {}

  /** The events after `after` up to `upTo` that pass `filter`, at most `limit` (-1: all), in one query. */
  events(after: bigint, upTo: bigint | number, limit: number, filter?: EventFilter): RecordedEvent[] {
    const prefixes = filter?.streamNamePrefixes ?? [];
    const types = filter?.eventTypes ?? [];
    const withoutData = filter?.typesWithoutData ?? [];
    const key = `${prefixes.map((p) => p.length).join(',')}|${types.length}|${withoutData.length}`;
    let statement = this.statements.get(key);
    if (!statement) {
      // The types before the prefixes: SQLite tests them in this order, and a type is cheaper to test
      // than a prefix (a rebuild skips every NotificationCreated so: bench e).
      const where = ['position > ?', 'position <= ?'];
      if (types.length > 0) where.push(`type IN (${types.map(() => '?').join(', ')})`);
      if (prefixes.length > 0) where.push(`(${prefixes.map(() => 'substr(stream, 1, ?) = ?').join(' OR ')})`);
      // NULL is told apart from stored data and metadata, which are never NULL (NOT NULL columns).
      const unless = (column: string) =>
        withoutData.length > 0
          ? `CASE WHEN type IN (${withoutData.map(() => '?').join(', ')}) THEN NULL ELSE ${column} END`
          : column;
      // Rows as arrays, made into events here: better-sqlite3's own row objects, made into events
      // after, cost a rebuild of the read models (bench e) about a fifth more.
      statement = this.db
        .prepare<unknown[], RawRow>(
          `SELECT position, event_id, stream, revision, type, ${unless('data')}, ${unless('metadata')}, recorded_at FROM events WHERE ${where.join(' AND ')} ORDER BY position LIMIT ?`,
        )
        .raw(true);
      this.statements.set(key, statement);
    }
    // Parameters in the order of their places: the selected columns' first, then the WHERE clause's.
    const params: unknown[] = [...withoutData, ...withoutData, after, BigInt(upTo), ...types];
    for (const prefix of prefixes) params.push(BigInt(prefix.length), prefix);
    params.push(BigInt(limit));
    return statement.all(...params).map(fromRaw);
  }

  /**
   * The events after `after` up to `upTo` that pass `filter`, at most `limit` (-1: all), each query
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
      run: (read: () => RecordedEvent[]) => Promise<RecordedEvent[]>;
    },
  ): Promise<RecordedEvent[]> {
    const { filter, window, signal, run } = options;
    if (!filter) return run(() => this.events(after, upTo, limit));
    const found: RecordedEvent[] = [];
    for (let from = after; from < upTo && !signal?.aborted;) {
      const to = from + window < upTo ? from + window : upTo;
      const start = from;
      const events = await run(() => this.events(start, to, limit < 0 ? -1 : limit - found.length, filter));
      for (const event of events) found.push(event);
      if (limit >= 0 && found.length >= limit) break;
      from = to;
      if (from < upTo) await nextTurn();
    }
    return found;
  }
}

function fromRaw([position, id, streamName, revision, type, data, metadata, recordedAt]: RawRow): RecordedEvent {
  return recorded(id, streamName, revision, position, type, data, metadata, recordedAt);
}

/**
 * A row as the port's event. A row whose data or metadata is no longer valid JSON (its file was
 * edited) does not fail the read: it comes back marked with UNREADABLE_KEY (see event-chain.ts), so
 * that verification can name it and the other events can still be read.
 */
export function toRecorded(row: EventRow): RecordedEvent {
  return recorded(
    row.event_id,
    row.stream,
    row.revision,
    row.position,
    row.type,
    row.data,
    row.metadata,
    row.recorded_at,
  );
}

function recorded(
  id: string,
  streamName: string,
  revision: bigint,
  position: bigint,
  type: string,
  storedData: string | null,
  storedMetadata: string | null,
  recordedAt: string,
): RecordedEvent {
  // NULL: the read asked for this event without its data and metadata (EventFilter.typesWithoutData).
  const data = storedData === null ? undefined : parsed(storedData);
  const metadata = storedMetadata === null ? {} : parsed(storedMetadata);
  const event: RecordedEvent = {
    id,
    streamName,
    revision,
    position,
    type,
    data,
    metadata: metadata as Record<string, unknown>,
    recordedAt,
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
