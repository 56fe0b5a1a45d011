import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { EventStoreUnavailableError } from '../event-store.errors';
import type {
  AppendOptions,
  AppendResult,
  EventFilter,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  ReadAllOptions,
  RecordedEvent,
  StreamRange,
  SubscribeOptions,
  SubscriptionMessage,
} from '../event-store.port';
import { GroupCommit, groupInterval, type GroupOutcome } from './group-commit';
import { OtherWriters } from './other-writers';
import { appendToStream, ChainTips, commitGroup, writtenBy, type PendingAppend } from './sqlite-append';
import { startWalCheckpointer, truncateWal, warnAtMostEveryMinute, type WalCheckpointer } from './wal-checkpointer';
import { WalSync } from './wal-sync';
import { BUSY_POLL_MS, nextPollWait, pollWait, QUIET_POLL_MS } from './poll-wait';
import { retryWhileLocked } from './sqlite-lock-retry';
import { FilteredReads, filterWindowOf, toRecorded } from './sqlite-reads';
import { openDatabase, prepareStatements, streamRows, type Statements } from './sqlite-statements';
import { listStreamNames } from './sqlite-stream-names';
import type { SqliteEventStoreOptions } from './sqlite-event-store-options';

const APPENDED = 'appended';
/** nudge() was called, or the store closes: every subscription looks, paced ones too. */
const NUDGED = 'nudged';

/**
 * The embedded adapter: SQLite in WAL mode, each commit's log fsynced before its appends return
 * (WalSync, off the event loop), so that an append that returned survives a process kill or power
 * loss, and other processes on the machine can share the file.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly signals = new EventEmitter();
  private readonly lockTimeoutMs: number;
  private readonly pollIntervalMs: number;
  private readonly busyPollIntervalMs: number;
  private readonly batchSize: number;
  private readonly filterWindow: bigint;
  private readonly now: () => Date;
  private readonly statements: Statements;
  private readonly filteredReads: FilteredReads;
  private readonly appendOne: (append: PendingAppend) => AppendResult;
  private readonly groups: GroupCommit<PendingAppend, AppendResult>;
  private readonly chainTips = new ChainTips();
  private readonly otherWriters: OtherWriters;
  private closing = false;
  /** The head as last seen, and the data version it was seen at (-1: never looked). */
  private head = 0n;
  private seenDataVersion = -1;
  /** nudge() calls so far: a paced subscription that was nudged while it scanned looks again. */
  private nudges = 0;
  private headLook?: Promise<bigint>;
  private readonly checkpointer: WalCheckpointer;
  private readonly wal: WalSync;
  private closed = false;

  constructor(options: SqliteEventStoreOptions) {
    this.lockTimeoutMs = options.lockTimeoutMs ?? 5000;
    // Appends by other processes (the notifier's, the API's) are seen by polling the head, which is
    // an index lookup (PRAGMA data_version first, the head itself only when another connection
    // committed): every 10 ms while the log is quiet, every 2 ms while it moves (nextPollWait).
    this.pollIntervalMs = options.pollIntervalMs ?? QUIET_POLL_MS;
    this.busyPollIntervalMs = Math.min(options.busyPollIntervalMs ?? BUSY_POLL_MS, this.pollIntervalMs);
    this.batchSize = options.batchSize ?? 1000;
    this.filterWindow = filterWindowOf(options.filterWindow);
    this.now = options.now ?? (() => new Date());
    this.signals.setMaxListeners(0);
    const observer = options.onGroupCommitted;
    const interval = groupInterval(options.groupIntervalMs); // before the file is opened
    this.groups = new GroupCommit<PendingAppend, AppendResult>(
      observer ? (group) => this.commitObserved(group, observer) : (group) => this.commitDurably(group),
      (outcomes) => this.groupCommitted(outcomes),
      () => (this.otherWriters.writing ? interval : 0),
    );
    this.db = openDatabase(options.file, this.lockTimeoutMs);
    this.wal = new WalSync(options.file);
    this.checkpointer = startWalCheckpointer(this.db, options.file, {
      onFailure: warnAtMostEveryMinute((reason) => options.onWarning?.('WAL checkpoint failed; retrying', { reason })),
    });
    this.filteredReads = new FilteredReads(this.db);
    this.statements = prepareStatements(this.db);
    this.otherWriters = new OtherWriters(() => this.statements.dataVersion.get() as number);
    // Called inside the group's transaction, better-sqlite3 wraps each call in a SAVEPOINT.
    this.appendOne = this.db.transaction((append: PendingAppend) =>
      appendToStream(this.statements, this.chainTips, append),
    );
  }

  /**
   * Appends are committed in groups: every append that arrives while a group is being committed (or
   * waits for another process's lock) joins the next group, written in one transaction with one
   * fsync. Each append keeps its own checks (a conflict, or a required stream missing, fails only
   * that append: see appendToStream) and resolves only once its group is durable.
   */
  append(
    streamName: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    if (this.closed || this.closing) return Promise.reject(new EventStoreUnavailableError('embedded store is closed'));
    const recordedAt = this.now().toISOString();
    return this.groups.submit({ streamName, events, expected, recordedAt, requires: options?.requires });
  }

  /** Appends and transactions committed so far by this client: group commit shows as fewer commits. */
  get writeStats(): { appends: number; commits: number } {
    const { requests, commits } = this.groups.stats;
    return { appends: requests, commits };
  }

  private groupCommitted(outcomes: ReadonlyArray<GroupOutcome<AppendResult>>): void {
    for (const outcome of outcomes)
      if ('result' in outcome && outcome.result.position > this.head) this.head = outcome.result.position;
    this.signals.emit(APPENDED);
  }

  /** A group's commit, timed and counted for the `onGroupCommitted` observer. */
  private async commitObserved(
    group: readonly PendingAppend[],
    observer: (appends: number, events: number, seconds: number) => void,
  ): Promise<Array<GroupOutcome<AppendResult>>> {
    const started = performance.now();
    const outcomes = await this.commitDurably(group);
    const seconds = (performance.now() - started) / 1000;
    const { appends, events } = writtenBy(group, outcomes);
    try {
      observer(appends, events, seconds);
    } catch {
      // An observer's failure must not fail appends that are already durable.
    }
    return outcomes;
  }

  /** Commits the group (one transaction, see commitGroup), then makes it durable (WalSync) before
   * any of its appends is answered. A failed fsync fails the group: its appends were written and may
   * be retried (an append whose first event is stored already succeeds without writing again). */
  private async commitDurably(group: readonly PendingAppend[]): Promise<Array<GroupOutcome<AppendResult>>> {
    const outcomes = await this.withLockRetry(() => {
      this.otherWriters.look();
      return commitGroup(this.db, this.appendOne, this.chainTips, group);
    });
    try {
      await this.wal.sync();
    } catch (error) {
      throw new EventStoreUnavailableError(
        `the embedded store could not make a commit durable: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
    return outcomes;
  }

  async readStream(streamName: string, range: StreamRange = {}): Promise<RecordedEvent[]> {
    const rows = await this.withLockRetry(() => streamRows(this.statements, streamName, range));
    return rows.map(toRecorded);
  }

  async readLastEvent(streamName: string): Promise<RecordedEvent | undefined> {
    const row = await this.withLockRetry(() => this.statements.lastOfStream.get(streamName));
    return row && toRecorded(row);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const { after = 0n, maxCount = -1, filter } = options;
    // A filtered read goes up to the head it found at the start, in windows; an unfiltered one is one query.
    const upTo = filter
      ? await this.withLockRetry(() => this.statements.head.get()?.head ?? 0n)
      : BigInt(Number.MAX_SAFE_INTEGER);
    return this.eventsAfter(after, upTo, maxCount, filter);
  }

  /** The events after `after` up to `upTo` that pass `filter`, at most `limit` (-1: all); see scan. */
  private eventsAfter(
    after: bigint,
    upTo: bigint,
    limit: number,
    filter?: EventFilter,
    signal?: AbortSignal,
  ): Promise<RecordedEvent[]> {
    return this.filteredReads.scan(after, upTo, limit, {
      filter,
      window: this.filterWindow,
      signal,
      run: (read) => this.withLockRetry(read),
    });
  }

  /**
   * The log's head. Reads that ask within one turn of the event loop share one look, made on the
   * next turn (after every one of them asked); the look reads SQLite only when another connection
   * has committed since the last one (`PRAGMA data_version` tells), as this client's own commits move
   * the head in memory. Every query waits for the head (docs/api.md 4.7): this is on the hot path.
   */
  headPosition(): Promise<bigint> {
    this.headLook ??= new Promise<void>((next) => setImmediate(next)).then(() => {
      this.headLook = undefined;
      return this.withLockRetry(() => {
        const version = this.statements.dataVersion.get() as number;
        if (version !== this.seenDataVersion) {
          const stored = this.statements.head.get()?.head ?? 0n;
          if (stored > this.head) this.head = stored;
          this.seenDataVersion = version;
        }
        return this.head;
      });
    });
    return this.headLook;
  }

  /**
   * Deletes the stream's rows (zeroed by secure_delete), then truncates the write-ahead log, which
   * still holds page images with the deleted bytes. Deleting a missing stream still truncates, so a
   * call that failed at the truncation can simply be repeated.
   */
  async deleteStream(streamName: string): Promise<void> {
    if (this.closed || this.closing) throw new EventStoreUnavailableError('embedded store is closed');
    await this.withLockRetry(() => this.statements.deleteStream.run(streamName));
    await this.wal.sync();
    await this.completeDeletes();
  }

  /** Truncates the write-ahead log, whose page images may still hold deleted bytes. */
  async completeDeletes(): Promise<void> {
    if (this.closed || this.closing) throw new EventStoreUnavailableError('embedded store is closed');
    await this.withLockRetry(() => truncateWal(this.db));
  }

  /** EventStore.streamNames: a walk of the index of stream names (listStreamNames). */
  streamNames(prefix: string): AsyncIterable<string> {
    return listStreamNames(this.statements, prefix, (read) => this.withLockRetry(read));
  }

  /** Polling adapter: a hint that new events may be there, or that a consumer waits for them, makes
   * every live subscription look at once, paced ones too. */
  nudge(): void {
    this.nudges += 1;
    this.signals.emit(NUDGED);
  }

  async *subscribeToAll(options: SubscribeOptions = {}): AsyncIterable<SubscriptionMessage> {
    const { signal, filter } = options;
    let position = options.after ?? 0n;
    let reportedHead = -1n;
    let lookedAtHead = -1n;
    let wait = this.pollIntervalMs;
    const pace = options.paceMs ?? 0;
    while (!signal?.aborted && !this.closed) {
      const nudges = this.nudges;
      const head = await this.headPosition();
      const events = await this.eventsAfter(position, head, this.batchSize, filter, signal);
      // An aborted scan stopped short of the head: nothing of it is reported, no checkpoint either.
      if (signal?.aborted) return;
      for (const event of events) {
        if (signal?.aborted) return;
        position = event.position;
        yield { kind: 'event', event };
      }
      if (events.length === this.batchSize) continue;
      if (position < head) {
        // The filter skipped the rest up to head: report it, so a consumer's checkpoint can move on.
        position = head;
        yield { kind: 'checkpoint', position };
      }
      if (head !== reportedHead) {
        reportedHead = head;
        yield { kind: 'caughtUp', position: head };
      }
      wait = nextPollWait(wait, head !== lookedAtHead, { busy: this.busyPollIntervalMs, quiet: this.pollIntervalMs });
      lookedAtHead = head;
      if (pace === 0) await pollWait(this.signals, wait, [APPENDED, NUDGED], signal);
      // Paced: this client's own appends do not wake it, a nudge does, one made while it scanned too.
      else if (this.nudges === nudges) await pollWait(this.signals, Math.max(wait, pace), [NUDGED], signal);
    }
  }

  async close(): Promise<void> {
    if (this.closed || this.closing) return;
    // Appends already accepted are committed (or refused) before the file is closed.
    this.closing = true;
    await this.groups.drained();
    await this.checkpointer.stop();
    await this.wal.close();
    this.closed = true;
    this.signals.emit(NUDGED);
    this.db.close();
  }

  private withLockRetry<T>(operation: () => T): Promise<T> {
    return retryWhileLocked(operation, this.lockTimeoutMs, () => this.closed);
  }
}
