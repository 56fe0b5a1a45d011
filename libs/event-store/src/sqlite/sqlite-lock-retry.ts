import { setTimeout as sleep } from 'node:timers/promises';
import { EventStoreUnavailableError } from '../event-store.errors';
import { isBusy, translateSqliteError } from './sqlite-errors';

/**
 * Runs a synchronous SQLite operation, retrying it while another process holds the write lock, for
 * at most `timeoutMs`. better-sqlite3 is synchronous: waiting for the lock inside SQLite would block
 * this process's event loop, so SQLite waits only briefly and longer waits happen here,
 * asynchronously. Other errors, and a lock held past the timeout, come out translated for the port.
 */
export async function retryWhileLocked<T>(operation: () => T, timeoutMs: number, isClosed: () => boolean): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    if (isClosed()) throw new EventStoreUnavailableError('embedded store is closed');
    try {
      return operation();
    } catch (error) {
      if (isBusy(error) && Date.now() < deadline) {
        // 1, 2, 4 … ms: the lock is usually free again within a commit or two of the other process.
        await sleep(Math.min(2 ** attempt, 100));
        continue;
      }
      throw translateSqliteError(error);
    }
  }
}
