import { open, type FileHandle } from 'node:fs/promises';

/**
 * Makes what this connection committed durable without holding the event loop: the store runs
 * with `synchronous=NORMAL` (a commit writes its frames into the write-ahead log without an fsync)
 * and this fsyncs the log on libuv's thread pool before any append of the group is answered. An
 * fsync covers every byte written to the file before it, the log's header and other processes'
 * frames included, so an answered append survives a power loss as it does with `synchronous=FULL`,
 * while the write lock is held only for the write and the event loop never waits on the disk.
 */
export class WalSync {
  private handle?: Promise<FileHandle>;

  constructor(private readonly databaseFile: string) {}

  /** Flushes the write-ahead log to stable storage. */
  async sync(): Promise<void> {
    // Opened at the first sync, after a commit made sure the log exists. The connection that wrote
    // keeps the log open, so SQLite never removes it while this handle lives (it restarts and
    // truncates it in place).
    this.handle ??= open(`${this.databaseFile}-wal`, 'r');
    try {
      await (await this.handle).sync();
    } catch (error) {
      // A handle that could not be opened is opened again next time.
      this.handle = undefined;
      throw error;
    }
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await (await handle?.catch(() => undefined))?.close();
  }
}
