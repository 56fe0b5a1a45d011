import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A size-limited filesystem for disk-full tests: a tmpfs mounted on a fresh temporary directory. */

function run(command: string, args: string[]): string | undefined {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) return `${command}: ${result.error.message}`;
  if (result.status !== 0) return `${command} ${args.join(' ')} exited with ${result.status}: ${result.stderr.trim()}`;
  return undefined;
}

/** Mounts a tmpfs of `size` (as mount's `size=`, e.g. `16m`) on a fresh directory; returns it. */
export function mountTmpfs(size: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-diskfull-'));
  const failed = run('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
  if (failed) {
    rmdirSync(dir);
    throw new Error(failed);
  }
  return dir;
}

/** Unmounts and removes a directory made by mountTmpfs; lazily if something still holds it open. */
export function unmountTmpfs(dir: string): void {
  const failed = run('umount', [dir]);
  if (failed && run('umount', ['-l', dir])) throw new Error(failed);
  rmSync(dir, { recursive: true, force: true });
}

/** Why a tmpfs cannot be mounted here (not root, no mount(8), not permitted), or undefined when it can. */
export function tmpfsUnavailableReason(): string | undefined {
  if (process.platform !== 'linux') return `needs Linux to mount a tmpfs (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return `needs root to mount a tmpfs (running as uid ${process.getuid?.()})`;
  try {
    unmountTmpfs(mountTmpfs('1m'));
    return undefined;
  } catch (error) {
    return `cannot mount a tmpfs: ${(error as Error).message}`;
  }
}

/** Bytes that an unprivileged writer can still allocate on the filesystem holding `dir`. */
export function freeBytes(dir: string): number {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
}

/**
 * Writes `file` until the filesystem refuses with ENOSPC, in ever smaller chunks down to one byte,
 * so that not even the tail of a block is left. Returns the bytes written.
 */
export function fillDisk(file: string): number {
  const fd = openSync(file, 'a');
  let written = 0;
  try {
    for (let chunk = 1 << 20; chunk >= 1; chunk >>= 2) {
      const buffer = Buffer.alloc(chunk, 0x5a);
      for (;;) {
        try {
          const n = writeSync(fd, buffer);
          written += n;
          if (n < chunk) break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}
