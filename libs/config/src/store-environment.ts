import type { EventStoreLocation } from '@gw/event-store';
import { ConfigError } from './config';
import { EnvReader, type Env } from './env-reader';
import { readSecretsKey } from './secrets';
import { readStore } from './sections';

/** What a process beside the service needs to read and write its log: where the log is, and the
 * key that seals what the log holds sealed. */
export interface StoreEnvironment {
  dataDir: string;
  eventStore: EventStoreLocation;
  /** SECRETS_KEY's 32 bytes. */
  secretsKey: Buffer;
  /** How long the embedded store waits for another process's write lock (STORE_LOCK_TIMEOUT_MS). */
  lockTimeoutMs: number;
}

/**
 * Reads `DATA_DIR`, `EVENT_STORE` and `SECRETS_KEY` as the service does (outside production an unset
 * `SECRETS_KEY` is the development key file `DATA_DIR/secrets.key`, made by whichever process needs
 * it first); throws a ConfigError naming every bad variable.
 */
export function loadStoreEnvironment(env: Env = process.env, cwd = process.cwd()): StoreEnvironment {
  const read = new EnvReader(env);
  const mode = read.oneOf('NODE_ENV', 'development', ['development', 'production', 'test'] as const);
  const store = readStore(read, cwd);
  // As loadConfig: a development key is written into DATA_DIR only for an otherwise good environment.
  const secretsKey = read.problems.length === 0 ? readSecretsKey(read, mode === 'production', store.dataDir) : null;
  if (read.problems.length > 0 || !secretsKey) throw new ConfigError(read.problems);
  return { dataDir: store.dataDir, eventStore: store.eventStore, secretsKey, lockTimeoutMs: store.lockTimeoutMs };
}
