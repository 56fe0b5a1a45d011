import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { EventStoreUnavailableError } from '../event-store.errors';
import { SqliteEventStore } from './sqlite-event-store';
import { translateSqliteError } from './sqlite-errors';

const sqliteError = (code: string) => Object.assign(new Error(code), { code });

describe('translateSqliteError', () => {
  it.each(['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_SHMSIZE', 'SQLITE_BUSY', 'SQLITE_READONLY'])(
    'reports %s as the store being unavailable (0011, safe to retry), keeping the cause',
    (code) => {
      const cause = sqliteError(code);
      const translated = translateSqliteError(cause);
      expect(translated).toBeInstanceOf(EventStoreUnavailableError);
      expect((translated as Error).message).toContain(code);
      expect((translated as Error).cause).toBe(cause);
    },
  );

  it('leaves errors that are not outages as they are', () => {
    const constraint = sqliteError('SQLITE_CONSTRAINT_UNIQUE');
    expect(translateSqliteError(constraint)).toBe(constraint);
    const bug = new RangeError('a bug');
    expect(translateSqliteError(bug)).toBe(bug);
  });
});

describe('embedded SQLite store on a full disk', () => {
  it('refuses an append that needs room as unavailable, stores none of it, and accepts it once there is room', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-full-'));
    const store = new SqliteEventStore({ file: join(dir, 'events.sqlite') });
    try {
      await store.append('s-1', [{ id: 'e1', type: 'T', data: { n: 1 } }], 'no_stream');
      // SQLite's own page limit fails an append exactly as a full disk does: SQLITE_FULL, rolled back.
      const db = store['db'] as Database.Database;
      db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
      const big = [
        { id: 'e2', type: 'T', data: { body: 'x'.repeat(64 * 1024) } },
        { id: 'e3', type: 'T', data: { n: 3 } },
      ];
      const refused = await store.append('s-1', big, 0n).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(EventStoreUnavailableError);
      expect((refused as Error).message).toContain('SQLITE_FULL');
      expect((await store.readStream('s-1')).map((e) => e.id)).toEqual(['e1']);

      db.pragma('max_page_count = 1073741823');
      await expect(store.append('s-1', big, 0n)).resolves.toMatchObject({ nextExpectedRevision: 2n });
      expect((await store.readStream('s-1')).map((e) => e.id)).toEqual(['e1', 'e2', 'e3']);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
