import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { EventStoreUnavailableError } from '../event-store.errors';
import { SqliteEventStore } from './sqlite-event-store';

/** Another process with the store open, reading it now and then, as the API or the notifier would. */
function openInAnotherProcess(file: string): Promise<ChildProcess> {
  const script = `
    const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const db = new Database(process.argv[1], { timeout: 5 });
    const count = db.prepare('SELECT count(*) FROM events');
    // A read that meets the truncation answers busy: the next one, 5 ms later, reads again.
    setInterval(() => { try { count.get(); } catch (error) { if (error.code !== 'SQLITE_BUSY') throw error; } }, 5);
    process.stdout.write('ready\\n');
  `;
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', () => resolve(child));
  });
}

/** The files of the store's folder (the database, its -wal and -shm) that hold `bytes`. */
function filesHolding(dir: string, bytes: Buffer): string[] {
  return readdirSync(dir).filter((name) => readFileSync(join(dir, name)).includes(bytes));
}

describe('embedded SQLite store: deleting a stream', () => {
  it('leaves none of its bytes in any file of the store, while other connections and processes have it open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-delete-'));
    const file = join(dir, 'events.sqlite');
    const store = new SqliteEventStore({ file });
    const other = new SqliteEventStore({ file });
    const child = await openInAnotherProcess(file);
    try {
      const secret = `secret-${randomBytes(16).toString('hex')}`;
      // Neighbours written before and after, so that the secret's rows share pages with rows that stay.
      const neighbours = (from: number) =>
        Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            other.append(
              `keep-${from + i}`,
              [{ id: `k${from + i}`, type: 'Kept', data: { pad: 'k'.repeat(200) } }],
              'no_stream',
            ),
          ),
        );
      await neighbours(0);
      await store.append('datakey-x', [{ id: 'd1', type: 'DataKeyCreated', data: { sealedKey: secret } }], 'no_stream');
      await store.append('datakey-x', [{ id: 'd2', type: 'Again', data: { copy: secret } }], 0n);
      await neighbours(50);
      expect(filesHolding(dir, Buffer.from(secret))).not.toEqual([]);

      await store.deleteStream('datakey-x');

      expect(filesHolding(dir, Buffer.from(secret))).toEqual([]);
      expect(await other.readStream('datakey-x')).toEqual([]);
      expect(await other.readAll()).toHaveLength(100);
      // The store goes on working after the truncation, for both connections.
      await store.append('keep-after', [{ id: 'a1', type: 'After', data: {} }], 'no_stream');
      expect(await other.readLastEvent('keep-after')).toMatchObject({ type: 'After' });
    } finally {
      child.kill();
      await Promise.all([store.close(), other.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a write-ahead log held by a long read as unavailable, and completeDeletes finishes the erasure later', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-delete-'));
    const file = join(dir, 'events.sqlite');
    const store = new SqliteEventStore({ file, lockTimeoutMs: 300 });
    const reader = new Database(file);
    try {
      const secret = `secret-${randomBytes(16).toString('hex')}`;
      await store.append('datakey-y', [{ id: 'd1', type: 'DataKeyCreated', data: { sealedKey: secret } }], 'no_stream');
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM events').get();

      await expect(store.deleteStream('datakey-y')).rejects.toBeInstanceOf(EventStoreUnavailableError);
      expect(await store.readStream('datakey-y')).toEqual([]);

      reader.exec('COMMIT');
      // The rows are gone, so a repeated erasure has nothing left to delete; completeDeletes alone
      // finishes it (erasures call it at their end).
      expect(filesHolding(dir, Buffer.from(secret))).not.toEqual([]);
      await store.completeDeletes();
      expect(filesHolding(dir, Buffer.from(secret))).toEqual([]);
    } finally {
      reader.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
