import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root: the nearest folder up from here that holds tools/runtime/paths.js (the
 * bench runs from its build output in dist/). */
function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'tools/runtime/paths.js'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no repository root above ${start}`);
  }
}

export const ROOT = findRoot(__dirname);
/** Resolves the `@gw/*` aliases to dist/ in every child process. */
export const PATHS_HOOK = join(ROOT, 'tools/runtime/paths.js');
export const APP_MAINS = {
  api: join(ROOT, 'dist/apps/api/src/main.js'),
  notifier: join(ROOT, 'dist/apps/notifier/src/main.js'),
} as const;
export const RESULTS_DIR = join(ROOT, 'bench/results');
export const PROFILES_DIR = join(ROOT, 'bench/profiles');

/** A bench child script, from the build output next to this file. */
export function childScript(name: string): string {
  return join(__dirname, '../children', `${name}.js`);
}
