import { Worker } from 'node:worker_threads';

/** What the checkpointer thread runs: a connection of its own that copies the WAL into the database
 * file every `intervalMs` (PASSIVE: it waits for nobody). Copying is not enough to keep the log short:
 * SQLite starts the log again from its beginning only when a writer finds it wholly copied, and with
 * other processes writing all the time a PASSIVE round almost never leaves it so (the log grew to 1.5
 * GB in a minute of bench i). So once the log holds `restartPages`, the round ends with a RESTART,
 * which holds new writers off (at most `restartWaitMs`, SQLite's busy wait) while it copies the few
 * frames written since and waits for readers to leave the log; the next commit starts it anew. A
 * checkpoint that cannot run now (a full disk, a lock) is tried again on the next round; it never
 * stops the thread. */
const CHECKPOINTER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: workerData.restartWaitMs });
const timer = setInterval(() => {
  try {
    const [copied] = db.pragma('wal_checkpoint(PASSIVE)');
    if (copied.log >= workerData.restartPages) db.pragma('wal_checkpoint(RESTART)');
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

/** A connection as the checkpointer needs it (typed by what is used, so that the declarations of the
 * package's `/sqlite` entry need no better-sqlite3 types). */
interface WalConnection {
  pragma(source: string): unknown;
  readonly open: boolean;
}

/** Pages in the log past which the thread restarts it (about 4 MiB; SQLite's own threshold). */
const RESTART_PAGES = 1000;
/** Past this many pages the connection checkpoints in its commits again, as SQLite does by itself
 * at 1000: only reached when the thread cannot restart the log (a reader that stays in it). */
const SAFETY_NET_PAGES = 20_000;
/** SQLite's default threshold, for a connection whose thread has ended. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/**
 * Moves `db`'s WAL checkpoints off the event loop: a thread of its own copies the log into the
 * database file (with its fsyncs) every `intervalMs` and restarts it once it is long (see
 * CHECKPOINTER), and the connection checkpoints in its commits only past SAFETY_NET_PAGES. Left at
 * SQLite's 1000 pages, a committing connection checkpointed on the event loop whenever the log
 * passed them between two rounds of the thread, and at 2,000 messages a second it did: strace
 * showed the main threads of both apps fsyncing the log and the database file dozens of times a
 * second, each time after copying up to a round's worth of pages (bench i, issue 27). Should the
 * thread end unexpectedly, the connection goes back to SQLite's own threshold (`onStopped`), so that
 * the log stays bounded.
 */
export function startWalCheckpointer(
  db: WalConnection,
  file: string,
  options: {
    intervalMs?: number;
    /** A checkpoint failed (it is tried again on the next round). */
    onFailure?: (reason: string) => void;
    /** The thread ended without being stopped; the connection checkpoints in its commits again. */
    onStopped?: (reason: string) => void;
  } = {},
): WalCheckpointer {
  const { intervalMs = 200, onFailure = () => undefined, onStopped = () => undefined } = options;
  db.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: {
      file,
      intervalMs,
      restartPages: RESTART_PAGES,
      // Writers wait while a RESTART waits: a few group commits at most.
      restartWaitMs: 50,
      driver: require.resolve('better-sqlite3'),
    },
  });
  worker.unref();
  let stopping = false;
  let lastError = 'exited';
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      if (!stopping && db.open) {
        db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
        onStopped(`${lastError} (exit code ${code})`);
      }
      resolve();
    }),
  );
  worker.on('message', (message: { failed?: string }) => message.failed && onFailure(message.failed));
  worker.on('error', (error: { code?: string; message?: string }) => {
    // An error thrown in the thread arrives as a copy: a SqliteError keeps its code alone.
    lastError = error.code ?? error.message ?? String(error);
    onFailure(lastError);
  });
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
