import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../../..').replace(/[\\/]dist$/, '');

/** Starts append-child.js (from the build in dist/) against a store file or an esdb:// string. */
export function spawnAppender(where: string, streamPrefix: string, concurrency = 1): ChildProcess {
  const script = join(root, 'dist/libs/event-store/src/testing/append-child.js');
  return spawn(process.execPath, ['-r', join(root, 'tools/runtime/paths.js'), script, where, streamPrefix, String(concurrency)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}
