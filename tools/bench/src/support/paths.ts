import { join } from 'node:path';
import { ROOT } from '@gw/testing';

export const RESULTS_DIR = join(ROOT, 'bench/results');
export const PROFILES_DIR = join(ROOT, 'bench/profiles');

/** A bench child script, from the build output next to this file. */
export function childScript(name: string): string {
  return join(__dirname, '../children', `${name}.js`);
}
