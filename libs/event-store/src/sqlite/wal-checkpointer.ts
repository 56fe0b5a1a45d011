import { Worker } from 'node:worker_threads';

/** What the checkpointer thread runs: a connection of its own that copies the WAL into the database
 * file every `intervalMs`. A checkpoint that cannot run now (a full disk, a lock) is tried again
 * on the next round; it never stops the thread. */
const CHECKPOINTER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 1000 });
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.code || error) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** A thread that checkpoints one SQLite file's write-ahead log. */
export interface WalCheckpointer {
  stop(): Promise<void>;
}

/**
 * Log pages past which a commit of the writing connection checkpoints by itself (SQLite's default
 * is 1000). That checkpoint runs on the event loop right after the commit, copying what the thread
 * has not yet copied and fsyncing twice; and since two apps reading and writing all the time seldom
 * leave the log wholly copied with no reader in it, the log starts again only after such a
 * checkpoint. At 2,000 messages/s the log passes 1000 pages about every 80 ms and 4000 about every
 * 300 ms, so each app's event loop holds 10 to 30 ms commits about three times a second. 16000 made
 * those four times rarer and lowered p50/p99 at 2,000/s in most pairs of bench i, but cost bench b
 * a third of its requests/s and d a sixth of its delivery rate in both pairs run (larger logs to
 * look pages up in): not kept. Measured in bench/README.md (issue 27).
 */
export const AUTO_CHECKPOINT_PAGES = 4000;

/**
 * Moves WAL checkpoints off the event loop: this thread copies the log into the database file (with
 * its fsync) every `intervalMs`, and `connection`, the process's writing connection to that file,
 * checkpoints by itself only past AUTO_CHECKPOINT_PAGES, so that it rarely holds up the requests in
 * flight. Past that threshold the connection checkpoints as SQLite always does: under a steady load
 * of two processes that is what lets the log start again, and when the thread cannot keep up or
 * cannot run (a full disk) it keeps the log from growing without end.
 * (The connection is typed by the one method used, so that the declarations of the package's
 * `/sqlite` entry need no better-sqlite3 types.)
 */
export function startWalCheckpointer(
  connection: { pragma(source: string): unknown },
  file: string,
  options: {
    intervalMs?: number;
    /** A checkpoint failed (it is tried again on the next round). */
    onFailure?: (reason: string) => void;
  } = {},
): WalCheckpointer {
  connection.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  const { intervalMs = 200, onFailure = () => undefined } = options;
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: { file, intervalMs, driver: require.resolve('better-sqlite3') },
  });
  worker.unref();
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (message: { failed?: string }) => message.failed && onFailure(message.failed));
  // An error thrown in the thread arrives as a copy: a SqliteError keeps its code alone.
  worker.on('error', (error: { code?: string; message?: string }) =>
    onFailure(error.code ?? error.message ?? String(error)),
  );
  return {
    stop() {
      if (!stopping) {
        stopping = true;
        // Unreferenced, the thread would let the process exit before this resolves.
        worker.ref();
        worker.postMessage('stop');
        // A thread stuck in a checkpoint is not waited for past a bound.
        setTimeout(() => void worker.terminate(), 2000).unref();
      }
      return exited;
    },
  };
}

/** Wraps a warning so that a trouble repeated every second is reported once a minute. */
export function warnAtMostEveryMinute(
  warn: (reason: string) => void,
  now: () => number = Date.now,
): (reason: string) => void {
  let last = -Infinity;
  return (reason) => {
    if (now() - last < 60_000) return;
    last = now();
    warn(reason);
  };
}

/**
 * Copies the whole write-ahead log into the database file and truncates it to zero bytes, so that no
 * old page image (with bytes just deleted) stays in it. A reader in the middle of a transaction, or
 * the checkpointer thread, can hold it up: that is thrown as SQLITE_BUSY, for the caller to retry
 * as it retries a held lock. (The connection is typed by the one method used, so that the declarations
 * of the package's `/sqlite` entry need no better-sqlite3 types.)
 */
export function truncateWal(db: { pragma(source: string): unknown }): void {
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number | bigint }>;
  if (Number(result?.busy ?? 1) !== 0)
    throw Object.assign(new Error('the write-ahead log is in use'), { code: 'SQLITE_BUSY' });
}
