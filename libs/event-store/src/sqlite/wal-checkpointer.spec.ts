import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWalCheckpointer } from './wal-checkpointer';

describe('embedded SQLite store: the WAL checkpointer thread', () => {
  it("reports why it cannot run by SQLite's error code", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-checkpoint-'));
    try {
      // A directory where the thread expects the file: its connection cannot open, and the thread ends.
      const notAFile = join(dir, 'not-a-file');
      mkdirSync(notAFile);
      const failures: string[] = [];
      const checkpointer = startWalCheckpointer(notAFile, { onFailure: (reason) => failures.push(reason) });
      // Resolves once the thread has exited, after its error was reported.
      await checkpointer.stop();
      expect(failures).toEqual(['SQLITE_CANTOPEN']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
