import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { SqliteEventStore } from './sqlite-event-store';
import { startWalCheckpointer } from './wal-checkpointer';

const PAGE = 4096;
/** SQLite's own auto-checkpoint threshold, in pages of the write-ahead log. */
const AUTOCHECKPOINT_PAGES = 1000;

/** Appends one after the other (each its own commit) until the log holds 1.5 times the pages of
 * SQLite's threshold: 60 events of 100 KB, 25 pages each. */
async function writePastTheThreshold(store: SqliteEventStore): Promise<void> {
  const pad = 'x'.repeat(100 * 1024);
  for (let i = 0; i < 60; i++)
    await store.append(`big-${i}`, [{ id: `big-${i}`, type: 'Big', data: { pad } }], 'no_stream');
}

/** Another process that writes to the file for `ms` as an app under load does, 20 rows of 4 KB per
 * commit with about 2 ms between commits (its event loop's other work), and never checkpoints
 * itself; resolves with the rows it wrote. */
function writeAsUnderLoad(file: string, ms: number): Promise<number> {
  const script = `
    const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const db = new Database(process.argv[1], { timeout: 5000 });
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, pad BLOB)');
    const insert = db.prepare('INSERT INTO filler (pad) VALUES (?)');
    const pad = Buffer.alloc(4096, 7);
    const group = db.transaction(() => { for (let i = 0; i < 20; i++) insert.run(pad); });
    const pause = new Int32Array(new SharedArrayBuffer(4));
    let rows = 0;
    for (const until = Date.now() + ${ms}; Date.now() < until; rows += 20) {
      group();
      Atomics.wait(pause, 0, 0, 2);
    }
    db.close();
    process.stdout.write(String(rows));
  `;
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`writer exited with ${code}`))));
  });
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

describe('embedded SQLite store: WAL checkpoints', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gw-checkpoint-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("do not run in a commit (on the event loop) when the log grows past SQLite's own threshold between two rounds of the thread", async () => {
    const file = join(dir, 'events.sqlite');
    // The thread's first round is a minute away: whatever is copied into the file meanwhile was
    // copied by a commit.
    const store = new SqliteEventStore({ file, checkpointIntervalMs: 60_000 });
    try {
      await store.append('first', [{ id: 'first', type: 'First', data: {} }], 'no_stream');
      const before = statSync(file).size;

      await writePastTheThreshold(store);

      expect(statSync(`${file}-wal`).size).toBeGreaterThan(AUTOCHECKPOINT_PAGES * PAGE);
      expect(statSync(file).size).toBe(before);
    } finally {
      await store.close();
    }
  });

  it('are made by the checkpointer thread, which copies the log into the store file', async () => {
    const file = join(dir, 'events.sqlite');
    const store = new SqliteEventStore({ file, checkpointIntervalMs: 20 });
    try {
      const before = statSync(file).size;
      await writePastTheThreshold(store);
      // 60 events of 100 KB: once copied, the file holds at least that many bytes more.
      expect(await until(() => statSync(file).size >= before + 60 * 100 * 1024, 10_000)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('keep the log short while another process writes all the time', async () => {
    const file = join(dir, 'events.sqlite');
    const store = new SqliteEventStore({ file, checkpointIntervalMs: 20 });
    try {
      const rows = await writeAsUnderLoad(file, 3000);
      // Without a restart the log would hold every page written (a row is at least one page).
      expect(rows).toBeGreaterThan(4 * AUTOCHECKPOINT_PAGES);
      expect(statSync(`${file}-wal`).size).toBeLessThan(Math.min(rows / 2, 4 * AUTOCHECKPOINT_PAGES) * PAGE);
    } finally {
      await store.close();
    }
  });

  it('go back into the commits, with a warning, when the thread cannot run', async () => {
    const file = join(dir, 'events.sqlite');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    // A directory where the thread expects the file: its connection cannot open, and the thread ends.
    const notAFile = join(dir, 'not-a-file');
    mkdirSync(notAFile);
    const stopped: string[] = [];
    const checkpointer = startWalCheckpointer(db, notAFile, { onStopped: (reason) => stopped.push(reason) });
    try {
      expect(await until(() => stopped.length > 0, 10_000)).toBe(true);
      expect(stopped[0]).toMatch(/SQLITE_CANTOPEN/);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(AUTOCHECKPOINT_PAGES);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it('stay with the thread when it is stopped on purpose', async () => {
    const file = join(dir, 'events.sqlite');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    const stopped: string[] = [];
    const checkpointer = startWalCheckpointer(db, file, { onStopped: (reason) => stopped.push(reason) });
    const threshold = () => Number(db.pragma('wal_autocheckpoint', { simple: true }));
    expect(threshold()).toBeGreaterThan(AUTOCHECKPOINT_PAGES);
    await checkpointer.stop();
    expect(stopped).toEqual([]);
    expect(threshold()).toBeGreaterThan(AUTOCHECKPOINT_PAGES);
    db.close();
  });
});
