import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvReader } from './env-reader';
import type { SecretsConfig } from './sections';

/**
 * The ingest token and the secrets key: production must be given them; development makes each once
 * into DATA_DIR, so that every process sharing the data dir (API, notifier, simulator) uses the same.
 * Without `withToken` (a process that never uses the ingest token) the token is left empty.
 */
export function readSecrets(
  read: EnvReader,
  production: boolean,
  dataDir: string,
  { withToken = true, makeKey = true }: { withToken?: boolean; makeKey?: boolean } = {},
): SecretsConfig {
  return {
    internalToken: withToken ? readInternalToken(read, production, dataDir) : '',
    secretsKey: readSecretsKey(read, production, dataDir, makeKey),
  };
}

/** A development secret kept in DATA_DIR (mode 0600), made by the first process that needs it. */
function developmentSecret(read: EnvReader, dataDir: string, fileName: string, make: () => string): string {
  const file = join(dataDir, fileName);
  if (!existsSync(file)) {
    // DATA_DIR holds the store and secrets: private to this user (docs/api.md section 5).
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, `${make()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process created it first; read theirs (once written).
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
  }
  const secret = readOnceWritten(file);
  if (secret === '') read.problems.push(`${file}: is empty; delete it to have a new one made`);
  return secret;
}

/**
 * The secret in `file`, waiting up to a second for it while the file is empty: the API and the
 * notifier start together, and the one that finds the file made may read it between the other's
 * creating it and writing its line (one write). Still empty after that, it is read as empty.
 */
function readOnceWritten(file: string): string {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; ; waited += 10) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret !== '' || waited >= 1000) return secret;
    Atomics.wait(pause, 0, 0, 10);
  }
}

function readInternalToken(read: EnvReader, production: boolean, dataDir: string): string {
  const raw = read.env['INTERNAL_TOKEN'];
  if (raw !== undefined && raw !== '') {
    if (raw.length < 16 || /\s/.test(raw))
      read.problems.push('INTERNAL_TOKEN: must be at least 16 characters without spaces');
    return raw;
  }
  if (production) {
    read.problems.push('INTERNAL_TOKEN: is required in production');
    return '';
  }
  return developmentSecret(read, dataDir, 'internal-token', () => randomBytes(24).toString('base64url'));
}

/** SECRETS_KEY's 32 bytes; outside production, when unset, the development key file DATA_DIR/secrets.key
 * (made when missing, unless `makeKey` is false: a process that only reads what the service sealed
 * needs the key it sealed with). */
export function readSecretsKey(read: EnvReader, production: boolean, dataDir: string, makeKey = true): Buffer {
  const raw = read.env['SECRETS_KEY'] ?? '';
  if (raw === '' && !production && !makeKey && !existsSync(join(dataDir, 'secrets.key'))) {
    read.problems.push(
      `SECRETS_KEY: not set, and ${join(dataDir, 'secrets.key')} does not exist: give the key the service runs with`,
    );
    return Buffer.alloc(0);
  }
  const text =
    raw !== ''
      ? raw
      : production
        ? ''
        : developmentSecret(read, dataDir, 'secrets.key', () => randomBytes(32).toString('base64'));
  if (text === '') {
    if (production) read.problems.push('SECRETS_KEY: is required in production (32 random bytes, base64 or hex)');
    return Buffer.alloc(0);
  }
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) {
    read.problems.push('SECRETS_KEY: must be 32 bytes, given as base64 or 64 hex digits');
  }
  return key;
}
