import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { eventStoreContractSuite } from '../testing/event-store-contract';
import { spawnAppender } from '../testing/spawn-appender';
import { DuplicateEventIdError, EventStoreUnavailableError } from '../event-store.errors';
import { SqliteEventStore } from './sqlite-event-store';
import { SCHEMA } from './sqlite-schema';
import { openDatabase } from './sqlite-statements';

function tempFile(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gw-store-'));
  return { dir, file: join(dir, 'events.sqlite') };
}

/**
 * Another process making the same fresh store file, as the API or the notifier does when both start
 * at once: it creates the table inside a write transaction and holds it for `holdMs` before it
 * commits. Resolves once the lock is held.
 */
async function processCreatingTheStore(file: string, holdMs: number): Promise<ChildProcess> {
  const script = `
    const Database = require(process.argv[1]);
    const db = new Database(process.argv[2]);
    db.pragma('journal_mode = WAL');
    db.exec('BEGIN IMMEDIATE');
    db.exec(process.env.SCHEMA);
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[3]));
  `;
  const child = spawn(process.execPath, ['-e', script, require.resolve('better-sqlite3'), file, String(holdMs)], {
    env: { ...process.env, SCHEMA },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  expect(chunk.toString()).toBe('locked\n');
  return child;
}

eventStoreContractSuite({
  name: 'embedded SQLite',
  async create() {
    const { dir, file } = tempFile();
    const store = new SqliteEventStore({ file, pollIntervalMs: 20 });
    const others: SqliteEventStore[] = [];
    return {
      store,
      async openAnother() {
        const other = new SqliteEventStore({ file, pollIntervalMs: 20 });
        others.push(other);
        return other;
      },
      spawnAppender: (streamPrefix, concurrency) => spawnAppender(file, streamPrefix, concurrency),
      commits: (s) => (s as SqliteEventStore).writeStats.commits,
      async cleanup() {
        await Promise.all([store, ...others].map((s) => s.close()));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
});

describe('embedded SQLite store', () => {
  it('answers an append only once its commit is fsynced, and fails it when the log cannot be synced', async () => {
    const { dir, file } = tempFile();
    const store = new SqliteEventStore({ file });
    try {
      const db = new Database(file, { readonly: true });
      // NORMAL: the commit itself does not fsync on the event loop; WalSync does, on the thread pool.
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      db.close();
      // With the log removed under the connection, the commit still goes in, but nothing can sync it:
      // the append must not be answered as durable.
      unlinkSync(`${file}-wal`);
      await expect(store.append('s-1', [{ id: 'e1', type: 'T', data: {} }], 'no_stream')).rejects.toThrow(
        EventStoreUnavailableError,
      );
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('copies its write-ahead log into the database file on a thread of its own', async () => {
    const { dir, file } = tempFile();
    const store = new SqliteEventStore({ file });
    try {
      const before = statSync(file).size;
      await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          store.append(`wal-${i}`, [{ id: `w${i}`, type: 'T', data: { pad: 'x'.repeat(500) } }], 'no_stream'),
        ),
      );
      // 300 KB is far below SQLite's own checkpoint threshold (1000 pages): only the thread moves it.
      const deadline = Date.now() + 10_000;
      while (statSync(file).size < before + 250_000 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(statSync(file).size).toBeGreaterThan(before + 250_000);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("sees another connection's commit in the head at once, and its own without reading the file", async () => {
    const { dir, file } = tempFile();
    const a = new SqliteEventStore({ file });
    const b = new SqliteEventStore({ file });
    try {
      expect(await a.headPosition()).toBe(0n);
      const fromB = await b.append('s-1', [{ id: 'e1', type: 'T', data: {} }], 'no_stream');
      expect(await a.headPosition()).toBe(fromB.position);
      const fromA = await a.append('s-2', [{ id: 'e2', type: 'T', data: {} }], 'no_stream');
      expect(await a.headPosition()).toBe(fromA.position);
      expect(await b.headPosition()).toBe(fromA.position);
    } finally {
      await Promise.all([a.close(), b.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an event id already stored in another stream (ids are unique in the whole log here)', async () => {
    const { dir, file } = tempFile();
    const store = new SqliteEventStore({ file });
    try {
      await store.append('a-1', [{ id: 'same', type: 'T', data: {} }], 'no_stream');
      await expect(store.append('b-1', [{ id: 'same', type: 'T', data: {} }], 'no_stream')).rejects.toBeInstanceOf(
        DuplicateEventIdError,
      );
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a store held locked by another process as unavailable, then recovers by itself', async () => {
    const { dir, file } = tempFile();
    const store = new SqliteEventStore({ file, lockTimeoutMs: 300 });
    const locker = new Database(file);
    try {
      locker.exec('BEGIN IMMEDIATE');
      await expect(store.append('s-1', [{ id: 'e1', type: 'T', data: {} }], 'any')).rejects.toBeInstanceOf(
        EventStoreUnavailableError,
      );
      locker.exec('ROLLBACK');
      await expect(store.append('s-1', [{ id: 'e1', type: 'T', data: {} }], 'any')).resolves.toMatchObject({
        nextExpectedRevision: 0n,
      });
    } finally {
      locker.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts beside another process that is still making the same fresh file, instead of failing to start', async () => {
    const { dir, file } = tempFile();
    const creator = await processCreatingTheStore(file, 300);
    const exited = once(creator, 'exit');
    let store: SqliteEventStore | undefined;
    try {
      store = new SqliteEventStore({ file });
      await expect(store.append('s-1', [{ id: 'e1', type: 'T', data: {} }], 'no_stream')).resolves.toMatchObject({
        nextExpectedRevision: 0n,
      });
      expect(await exited).toEqual([0, null]);
    } finally {
      creator.kill();
      await store?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails to start with the outage error when another process holds the fresh file past the lock timeout', async () => {
    const { dir, file } = tempFile();
    const creator = await processCreatingTheStore(file, 10_000);
    try {
      let failure: unknown;
      try {
        new SqliteEventStore({ file, lockTimeoutMs: 200 });
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(EventStoreUnavailableError);
      expect((failure as Error).message).toBe('embedded store unavailable (SQLITE_BUSY)');
    } finally {
      creator.kill();
      await once(creator, 'exit');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('waits inside SQLite for another process to release its lock only while opening; afterwards for 1 ms at most', () => {
    const { dir, file } = tempFile();
    const db = openDatabase(file, 5000);
    try {
      expect(db.pragma('busy_timeout', { simple: true })).toBe(1n);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('waits out a short lock held by another process instead of failing', async () => {
    const { dir, file } = tempFile();
    const store = new SqliteEventStore({ file, lockTimeoutMs: 3000 });
    const locker = new Database(file);
    try {
      locker.exec('BEGIN IMMEDIATE');
      setTimeout(() => locker.exec('COMMIT'), 200);
      await expect(store.append('s-1', [{ id: 'e1', type: 'T', data: {} }], 'no_stream')).resolves.toMatchObject({
        nextExpectedRevision: 0n,
      });
    } finally {
      locker.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
