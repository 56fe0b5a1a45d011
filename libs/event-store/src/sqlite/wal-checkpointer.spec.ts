import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUTO_CHECKPOINT_PAGES, startWalCheckpointer } from './wal-checkpointer';

describe('embedded SQLite store: the WAL checkpointer thread', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gw-checkpoint-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reports why it cannot run by SQLite's error code", async () => {
    // A directory where the thread expects the file: its connection cannot open, and the thread ends.
    const notAFile = join(dir, 'not-a-file');
    mkdirSync(notAFile);
    const failures: string[] = [];
    const connection = { pragma: () => undefined };
    const checkpointer = startWalCheckpointer(connection, notAFile, { onFailure: (reason) => failures.push(reason) });
    // Resolves once the thread has exited, after its error was reported.
    await checkpointer.stop();
    expect(failures).toEqual(['SQLITE_CANTOPEN']);
  });

  it('leaves the copying to the thread: a commit checkpoints only once the log passes its threshold', async () => {
    const file = join(dir, 'store.sqlite');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('page_size = 4096');
    db.exec('CREATE TABLE pages (body BLOB NOT NULL)');
    // A thread that never gets to run: only the connection's own checkpoints move the log.
    const checkpointer = startWalCheckpointer(db, file, { intervalMs: 3_600_000 });
    const insert = db.prepare('INSERT INTO pages (body) VALUES (?)');
    const logPages = () => statSync(`${file}-wal`).size / (4096 + 24);
    /** Commits of about one page each (a row of 3 KiB fills a page of its own). */
    const commitPages = (n: number) => {
      for (let i = 0; i < n; i++) insert.run(Buffer.alloc(3000, i % 251));
    };
    try {
      // Past SQLite's default threshold of 1000 pages, no commit has copied the log back and started
      // it again: it holds every page written.
      commitPages(2500);
      expect(logPages()).toBeGreaterThan(2500);
      // Past AUTO_CHECKPOINT_PAGES the connection checkpoints and the log starts again from its
      // beginning, so the file stops growing: the safety net when the thread cannot keep up.
      commitPages(2 * AUTO_CHECKPOINT_PAGES);
      expect(logPages()).toBeGreaterThan(AUTO_CHECKPOINT_PAGES);
      expect(logPages()).toBeLessThan(AUTO_CHECKPOINT_PAGES + 100);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });
});
