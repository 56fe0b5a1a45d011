import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../../..').replace(/[\\/]dist$/, '');

/** Starts append-child.js (from the build in dist/) against a store file or an esdb:// string. */
export function spawnAppender(where: string, streamPrefix: string, concurrency = 1): ChildProcess {
  const script = join(root, 'dist/libs/event-store/src/testing/append-child.js');
  // The `@gw/*` aliases resolved into dist/ as the built apps resolve them (tsconfig.runtime.json).
  return spawn(
    process.execPath,
    ['-r', require.resolve('tsconfig-paths/register'), script, where, streamPrefix, String(concurrency)],
    {
      env: { ...process.env, TS_NODE_PROJECT: join(root, 'tsconfig.runtime.json') },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
}
