import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '@gw/testing';

/**
 * Known advisories in packages we install but do not choose directly, with the first fixed version.
 * The lock file decides what CI and every fresh clone install, so it is what is checked.
 */
const FIXED_IN: Record<string, string> = {
  // DoS advisories of multer < 2.2.0. It came with @nestjs/platform-express, which the API no longer
  // uses; should anything bring it back, it must be a fixed version.
  multer: '2.2.0',
};

function atLeast(version: string, minimum: string): boolean {
  const a = version.split(/[.-]/).map(Number);
  const b = minimum.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

describe('dependency advisories', () => {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };

  it.each(Object.entries(FIXED_IN))('installs no %s older than %s', (name, fixed) => {
    const copies = Object.entries(lock.packages).filter(
      ([path]) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`),
    );
    expect(copies.filter(([, entry]) => !atLeast(entry.version ?? '0.0.0', fixed))).toEqual([]);
  });
});
