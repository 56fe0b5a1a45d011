import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startWalCheckpointer } from './wal-checkpointer';

describe('embedded SQLite store: the WAL checkpointer thread', () => {
  it("reports why it cannot run by SQLite's error code", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-checkpoint-'));
    // A directory where the thread expects the file: its connection cannot open, and the thread ends.
    const notAFile = join(dir, 'not-a-file');
    mkdirSync(notAFile);
    const failures: string[] = [];
    const checkpointer = startWalCheckpointer(notAFile, { onFailure: (reason) => failures.push(reason) });
    try {
      for (const deadline = Date.now() + 10_000; failures.length === 0 && Date.now() < deadline;) await sleep(20);
      expect(failures).toEqual(['SQLITE_CANTOPEN']);
    } finally {
      await checkpointer.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
