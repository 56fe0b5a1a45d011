import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { CHAIN_KEY, chainHashOfJson, withoutChain } from '../event-chain';
import { DuplicateEventIdError, RequiredStreamMissingError, WrongExpectedRevisionError } from '../event-store.errors';
import { checkExpectedRevision, checkRequiredStream } from '../expected-revision';
import type { AppendResult, EventToAppend, ExpectedRevision, RequiredStream } from '../event-store.port';
import type { GroupOutcome } from './group-commit';
import type { EventRow } from './sqlite-schema';

/** An append waiting for its group to be committed. */
export interface PendingAppend {
  streamName: string;
  events: readonly EventToAppend[];
  expected: ExpectedRevision;
  recordedAt: string;
  requires?: RequiredStream;
}

/** The prepared statements an append uses. */
export interface AppendStatements {
  eventById: Database.Statement<[string], EventRow>;
  /** Whether an event id is stored: answered from the id's index alone. */
  eventPosition: Database.Statement<[string], { position: bigint }>;
  /** The stream's last revision and position, from the (stream, revision) index alone. */
  streamTip: Database.Statement<[string], { revision: bigint; position: bigint }>;
  /** The type of a stream's last event, for AppendOptions.requires. */
  lastType: Database.Statement<[string], string>;
  /** The chain stored at a position (null: none, or its metadata was damaged by hand). */
  chainAt: Database.Statement<[bigint], { chain: string | null }>;
  insert: Database.Statement;
}

/**
 * The chain of each stream's last event as this client last wrote it, with its position: a
 * committed position is never used again (AUTOINCREMENT), so an entry whose position is still the
 * stream's last is right even when other processes write too. It spares most appends reading and
 * parsing the last row's metadata. Bounded, least recently used dropped first; cleared when a
 * transaction fails, since its rows were rolled back and their positions may be used again.
 */
export class ChainTips {
  private readonly tips: LRUCache<string, { position: bigint; chain: string }>;

  constructor(capacity = 10_000) {
    this.tips = new LRUCache({ max: capacity });
  }

  get(streamName: string, position: bigint): string | undefined {
    const tip = this.tips.get(streamName);
    return tip?.position === position ? tip.chain : undefined;
  }

  set(streamName: string, position: bigint, chain: string): void {
    this.tips.set(streamName, { position, chain });
  }

  clear(): void {
    this.tips.clear();
  }
}

/**
 * One IMMEDIATE transaction for a whole group of appends, each made by `appendOne` in a savepoint of
 * its own, so that a refused one (a conflict, a duplicate id) leaves the others in place. A group
 * that fails is rolled back, and the chains `tips` noted for its rows are void: their positions may
 * be used again.
 */
export function commitGroup(
  db: Database.Database,
  appendOne: (append: PendingAppend) => AppendResult,
  tips: ChainTips,
  group: readonly PendingAppend[],
): Array<GroupOutcome<AppendResult>> {
  try {
    return db
      .transaction(() =>
        group.map((append) => {
          try {
            return { result: appendOne(append) };
          } catch (error) {
            if (
              error instanceof WrongExpectedRevisionError ||
              error instanceof DuplicateEventIdError ||
              error instanceof RequiredStreamMissingError
            )
              return { error };
            throw error;
          }
        }),
      )
      .immediate();
  } catch (error) {
    tips.clear();
    throw error;
  }
}

/** The appends and events a committed group wrote, refused appends not counted. */
export function writtenBy(
  group: readonly PendingAppend[],
  outcomes: ReadonlyArray<GroupOutcome<AppendResult>>,
): { appends: number; events: number } {
  let appends = 0;
  let events = 0;
  for (let i = 0; i < outcomes.length; i++) {
    if (!('result' in outcomes[i])) continue;
    appends += 1;
    events += group[i].events.length;
  }
  return { appends, events };
}

/**
 * One append, inside a transaction the caller holds: checks the stream it requires (in the same
 * transaction, so nothing ends that stream in between) and the expected revision against the
 * stream's current one, and inserts the events after it, each chained to the one before. A retried
 * append (its first event id is stored already) succeeds without writing again.
 */
export function appendToStream(
  statements: AppendStatements,
  tips: ChainTips,
  { streamName, events, expected, recordedAt, requires }: PendingAppend,
): AppendResult {
  if (requires) checkRequiredStream(requires, statements.lastType.get(requires.streamName));
  if (statements.eventPosition.get(events[0].id)) return idempotentResult(statements, streamName, events);

  const tip = statements.streamTip.get(streamName);
  const current = tip?.revision ?? null;
  checkExpectedRevision(streamName, expected, current);

  let revision = current ?? -1n;
  let chain = tip ? (tips.get(streamName, tip.position) ?? statements.chainAt.get(tip.position)?.chain ?? '') : '';
  let position = 0n;
  for (const event of events) {
    revision += 1n;
    const data = JSON.stringify(event.data);
    const metadata = JSON.stringify(withoutChain(event.metadata));
    chain = chainHashOfJson(chain, streamName, event.id, event.type, data ?? 'null', metadata);
    try {
      const info = statements.insert.run(
        event.id,
        streamName,
        revision,
        event.type,
        data,
        withChain(metadata, chain),
        recordedAt,
      );
      position = BigInt(info.lastInsertRowid);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateEventIdError(event.id);
      throw error;
    }
  }
  tips.set(streamName, position, chain);
  return { nextExpectedRevision: revision, position };
}

/** The stored metadata: the writer's JSON object with the chain added last (a hex string, so no
 * escaping), without serialising it again. */
function withChain(metadataJson: string, chain: string): string {
  if (!metadataJson.startsWith('{')) throw new TypeError('event metadata must be a JSON object');
  return metadataJson === '{}'
    ? `{"${CHAIN_KEY}":"${chain}"}`
    : `${metadataJson.slice(0, -1)},"${CHAIN_KEY}":"${chain}"}`;
}

/** A retried append of events already stored in this stream succeeds without writing again. */
function idempotentResult(
  statements: AppendStatements,
  streamName: string,
  events: readonly EventToAppend[],
): AppendResult {
  let position = 0n;
  for (const event of events) {
    const row = statements.eventById.get(event.id);
    if (!row || row.stream !== streamName) throw new DuplicateEventIdError(event.id);
    if (row.position > position) position = row.position;
  }
  const revision = statements.streamTip.get(streamName)?.revision ?? 0n;
  return { nextExpectedRevision: revision, position };
}
