import type Database from 'better-sqlite3';
import { DuplicateEventIdError } from '../event-store.errors';
import { checkExpectedRevision } from '../expected-revision';
import type { AppendResult, EventToAppend, ExpectedRevision } from '../event-store.port';
import type { EventRow } from './sqlite-schema';

/** An append waiting for its group to be committed. */
export interface PendingAppend {
  streamName: string;
  events: readonly EventToAppend[];
  expected: ExpectedRevision;
  recordedAt: string;
}

/** The prepared statements an append uses. */
export interface AppendStatements {
  eventById: Database.Statement<[string], EventRow>;
  streamRevision: Database.Statement<[string], { revision: bigint | null }>;
  insert: Database.Statement;
}

/**
 * One append, inside a transaction the caller holds: checks the expected revision against the
 * stream's current one and inserts the events after it. A retried append (its first event id is
 * stored already) succeeds without writing again.
 */
export function appendToStream(statements: AppendStatements, { streamName, events, expected, recordedAt }: PendingAppend): AppendResult {
  if (statements.eventById.get(events[0].id)) return idempotentResult(statements, streamName, events);

  const current = statements.streamRevision.get(streamName)?.revision ?? null;
  checkExpectedRevision(streamName, expected, current);

  let revision = current ?? -1n;
  let position = 0n;
  for (const event of events) {
    revision += 1n;
    try {
      const info = statements.insert.run(event.id, streamName, revision, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata ?? {}), recordedAt);
      position = BigInt(info.lastInsertRowid);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateEventIdError(event.id);
      throw error;
    }
  }
  return { nextExpectedRevision: revision, position };
}

/** A retried append of events already stored in this stream succeeds without writing again. */
function idempotentResult(statements: AppendStatements, streamName: string, events: readonly EventToAppend[]): AppendResult {
  let position = 0n;
  for (const event of events) {
    const row = statements.eventById.get(event.id);
    if (!row || row.stream !== streamName) throw new DuplicateEventIdError(event.id);
    if (row.position > position) position = row.position;
  }
  const revision = statements.streamRevision.get(streamName)?.revision ?? 0n;
  return { nextExpectedRevision: revision, position };
}
