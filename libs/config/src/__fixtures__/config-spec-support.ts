import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config';

/** Runs `fn` and returns the ConfigError it throws (failing the test if it throws anything else). */
export function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError, but nothing was thrown');
}

// 32 different byte values: production refuses a key of fewer than 16.
export const PRODUCTION_SECRETS = { INTERNAL_TOKEN: 'abcdefghijklmnopqrstuvwxyz012345', SECRETS_KEY: Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7)).toString('hex') };

/** A fresh working directory for each test (`temp.cwd`), removed after it, and a way to write a
 * package catalogue into it. */
export function useTempCwd(): { readonly cwd: string; writeCatalogue(name: string, content: string): string } {
  let cwd = '';
  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'config-spec-'));
  });
  afterEach(() => {
    rmSync(cwd, { recursive: true, force: true });
  });
  return {
    get cwd() {
      return cwd;
    },
    writeCatalogue(name, content) {
      const file = join(cwd, name);
      writeFileSync(file, content, 'utf8');
      return file;
    },
  };
}
