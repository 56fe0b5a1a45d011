import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './config';
import { loadStoreEnvironment } from './store-environment';
import { configErrorOf, PRODUCTION_SECRETS, useTempCwd } from './__fixtures__/config-spec-support';

describe('loadStoreEnvironment (a process beside the service)', () => {
  const temp = useTempCwd();

  it('finds the embedded store and the development key file in DATA_DIR, the same key the service uses', () => {
    const env = { DATA_DIR: 'shared' };
    const service = loadConfig(env, temp.cwd);
    const beside = loadStoreEnvironment(env, temp.cwd);
    expect(beside.dataDir).toBe(join(temp.cwd, 'shared'));
    expect(beside.eventStore).toEqual({ kind: 'embedded', file: join(temp.cwd, 'shared', 'events.sqlite') });
    expect(beside.secretsKey).toHaveLength(32);
    expect(beside.secretsKey.equals(service.secrets.secretsKey)).toBe(true);
    expect(beside.lockTimeoutMs).toBe(service.store.lockTimeoutMs);
  });

  it('makes the development key file when it comes first, and the service then uses that key', () => {
    const beside = loadStoreEnvironment({}, temp.cwd);
    expect(existsSync(join(temp.cwd, 'data', 'secrets.key'))).toBe(true);
    expect(loadConfig({}, temp.cwd).secrets.secretsKey.equals(beside.secretsKey)).toBe(true);
  });

  it('takes SECRETS_KEY (hex or base64) and an EventStoreDB connection string as given', () => {
    const key = Buffer.alloc(32, 7);
    const beside = loadStoreEnvironment(
      { SECRETS_KEY: key.toString('base64'), EVENT_STORE: 'esdb://127.0.0.1:2113?tls=false' },
      temp.cwd,
    );
    expect(beside.secretsKey.equals(key)).toBe(true);
    expect(beside.eventStore).toEqual({ kind: 'esdb', connectionString: 'esdb://127.0.0.1:2113?tls=false' });
    expect(loadStoreEnvironment({ SECRETS_KEY: key.toString('hex') }, temp.cwd).secretsKey.equals(key)).toBe(true);
    expect(existsSync(join(temp.cwd, 'data', 'secrets.key'))).toBe(false);
  });

  it('names every bad variable at once, never the key, and writes no key file for a bad environment', () => {
    const error = configErrorOf(() =>
      loadStoreEnvironment({ EVENT_STORE: 'postgres://x', STORE_LOCK_TIMEOUT_MS: 'soon' }, temp.cwd),
    );
    expect(error.problems).toEqual([
      expect.stringMatching(/^EVENT_STORE: /),
      expect.stringMatching(/^STORE_LOCK_TIMEOUT_MS: /),
    ]);
    expect(existsSync(join(temp.cwd, 'data', 'secrets.key'))).toBe(false);
    const short = configErrorOf(() => loadStoreEnvironment({ SECRETS_KEY: 'c2hvcnQ=' }, temp.cwd));
    expect(short.problems).toEqual(['SECRETS_KEY: must be 32 bytes, given as base64 or 64 hex digits']);
    expect(short.message).not.toContain('c2hvcnQ=');
  });

  it('requires SECRETS_KEY in production, as the service does', () => {
    const error = configErrorOf(() => loadStoreEnvironment({ NODE_ENV: 'production' }, temp.cwd));
    expect(error.problems).toEqual(['SECRETS_KEY: is required in production (32 random bytes, base64 or hex)']);
    const { SECRETS_KEY } = PRODUCTION_SECRETS;
    expect(loadStoreEnvironment({ NODE_ENV: 'production', SECRETS_KEY }, temp.cwd).secretsKey).toHaveLength(32);
  });
});
