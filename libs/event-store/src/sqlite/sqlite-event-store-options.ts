/** How an embedded store is opened (SqliteEventStore). */
export interface SqliteEventStoreOptions {
  /** Path of the store file; several processes on one machine may open the same file. */
  file: string;
  /** How long an operation keeps retrying while another process holds the write lock before it
   * reports the store unavailable. */
  lockTimeoutMs?: number;
  /** How often a live subscription looks for events appended by other processes while the log is
   * quiet (10 ms). */
  pollIntervalMs?: number;
  /** How soon it looks again after a look found the log moved (2 ms; at most pollIntervalMs). */
  busyPollIntervalMs?: number;
  /** Under a steady stream of appends while another connection writes to the file too (the other
   * app's), the least time between the starts of two group commits (4 ms): appends that arrive
   * while a group is being committed wait for the rest of it and share the next transaction. An
   * append that finds no group being committed is not held back, and a connection that is the
   * file's only writer never waits. 0: the next group is cut as soon as the one before is durable. */
  groupIntervalMs?: number;
  /** Events read per batch while catching up. */
  batchSize?: number;
  /** Clock for `recordedAt`; injectable for tests. */
  now?: () => Date;
  /** Where the store reports trouble it copes with by itself (a checkpoint that must wait). */
  onWarning?: (message: string, fields: Record<string, unknown>) => void;
  /** Told after each group of appends committed, before their promises settle: the appends and
   * events the group wrote (refused appends not counted) and the seconds its commit took (the
   * transaction with its fsync, and any wait for another process's write lock). For metrics: it
   * runs on the write path, so it must be cheap; what it throws is ignored. */
  onGroupCommitted?: (appends: number, events: number, seconds: number) => void;
  /** Positions a filtered read scans per query, between turns of the event loop (eventsAfter). */
  filterWindow?: number;
}
