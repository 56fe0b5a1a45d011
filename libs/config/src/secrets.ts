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
function developmentSecret(dataDir: string, fileName: string, make: () => string): string {
  const file = join(dataDir, fileName);
  if (!existsSync(file)) {
    // DATA_DIR holds the store and secrets: private to this user (docs/api.md section 5).
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, `${make()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process created it first; read theirs.
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
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
  return developmentSecret(dataDir, 'internal-token', () => randomBytes(24).toString('base64url'));
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
        : developmentSecret(dataDir, 'secrets.key', () => randomBytes(32).toString('base64'));
  if (text === '') {
    read.problems.push('SECRETS_KEY: is required in production (32 random bytes, base64 or hex)');
    return Buffer.alloc(0);
  }
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) {
    read.problems.push('SECRETS_KEY: must be 32 bytes, given as base64 or 64 hex digits');
  }
  return key;
}
