import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './config';
import { configErrorOf, PRODUCTION_SECRETS, useTempCwd } from './__fixtures__/config-spec-support';

// The secrets section and what production refuses: the development switches, weak or missing keys
// and tokens, a DATA_DIR others can read; outside production, a development key kept in DATA_DIR.

describe('loadConfig: secrets and production', () => {
  const temp = useTempCwd();

  it('refuses the development switches in production, naming each one', () => {
    const error = configErrorOf(() =>
      loadConfig(
        {
          NODE_ENV: 'production',
          DEMO_ACCOUNT: 'true',
          ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
          ALLOW_HTTP_WEBHOOKS: '1',
          ...PRODUCTION_SECRETS,
        },
        temp.cwd,
      ),
    );
    expect(error.problems).toEqual([
      'ALLOW_PRIVATE_WEBHOOK_TARGETS: must not be true in production (it is for local development and tests)',
      'ALLOW_HTTP_WEBHOOKS: must not be true in production (it is for local development and tests)',
      'DEMO_ACCOUNT: must not be true in production (it is for local development and tests)',
    ]);
    // Outside production they are allowed.
    expect(
      loadConfig({ NODE_ENV: 'test', ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', ALLOW_HTTP_WEBHOOKS: 'true' }, temp.cwd)
        .webhooks.allowHttp,
    ).toBe(true);
  });

  it('refuses a short or repetitive INTERNAL_TOKEN in production', () => {
    const weak = ['a'.repeat(16), 'abcdefghijklmnopqrstuvwxyz01234', 'abcdefghijklmnoabcdefghijklmnoabcdefghijklmno'];
    for (const INTERNAL_TOKEN of weak) {
      const error = configErrorOf(() =>
        loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS, INTERNAL_TOKEN }, temp.cwd),
      );
      expect(error.problems).toEqual([
        'INTERNAL_TOKEN: must be at least 32 characters with at least 16 different ones in production',
      ]);
    }
    // 32 characters, 16 of them different: enough.
    const strong = 'abcdefghijklmnop'.repeat(2);
    expect(
      loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS, INTERNAL_TOKEN: strong }, temp.cwd).secrets
        .internalToken,
    ).toBe(strong);
    expect(loadConfig({ NODE_ENV: 'test', INTERNAL_TOKEN: 'a'.repeat(16) }, temp.cwd).secrets.internalToken).toBe(
      'a'.repeat(16),
    );
  });

  it('refuses in production a SECRETS_KEY of fewer than 16 different byte values, never repeating it', () => {
    const zeros = '0'.repeat(64);
    const fifteen = Buffer.from(Array.from({ length: 32 }, (_, i) => i % 15)).toString('base64');
    for (const SECRETS_KEY of [zeros, 'ab'.repeat(32), fifteen]) {
      const error = configErrorOf(() =>
        loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS, SECRETS_KEY }, temp.cwd),
      );
      expect(error.problems).toEqual([
        'SECRETS_KEY: must hold at least 16 different byte values in production (32 random bytes)',
      ]);
      expect(error.message).not.toContain(SECRETS_KEY);
    }
    const sixteen = Buffer.from(Array.from({ length: 32 }, (_, i) => i % 16)).toString('base64');
    expect(
      loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS, SECRETS_KEY: sixteen }, temp.cwd).secrets.secretsKey,
    ).toHaveLength(32);
    // Outside production the key's form is all that is checked.
    expect(loadConfig({ NODE_ENV: 'test', SECRETS_KEY: zeros }, temp.cwd).secrets.secretsKey).toHaveLength(32);
  });

  it('makes an existing DATA_DIR private in production, and refuses to start naming it when it cannot', () => {
    const dataDir = join(temp.cwd, 'shared');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }, temp.cwd);
    expect(statSync(dataDir).mode & 0o777).toBe(0o755);
    loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS, DATA_DIR: dataDir }, temp.cwd);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    // A folder this process may not change (even root may not chmod /proc's).
    const error = configErrorOf(() =>
      loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS, DATA_DIR: '/proc/self/fd' }, temp.cwd),
    );
    expect(error.problems).toEqual([expect.stringMatching(/^DATA_DIR: \/proc\/self\/fd cannot be made private/)]);
  });

  it('requires INTERNAL_TOKEN and SECRETS_KEY in production, and checks the key is 32 bytes', () => {
    const error = configErrorOf(() => loadConfig({ NODE_ENV: 'production' }, temp.cwd));
    expect(error.problems).toEqual([
      'INTERNAL_TOKEN: is required in production',
      'SECRETS_KEY: is required in production (32 random bytes, base64 or hex)',
    ]);
    const short = configErrorOf(() =>
      loadConfig(
        { NODE_ENV: 'production', INTERNAL_TOKEN: PRODUCTION_SECRETS.INTERNAL_TOKEN, SECRETS_KEY: 'c2hvcnQ=' },
        temp.cwd,
      ),
    );
    expect(short.problems).toEqual(['SECRETS_KEY: must be 32 bytes, given as base64 or 64 hex digits']);
    expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS }, temp.cwd).secrets.secretsKey).toHaveLength(32);
  });

  it('makes one development key and internal token in DATA_DIR and reuses them', () => {
    const first = loadConfig({}, temp.cwd);
    const second = loadConfig({}, temp.cwd);
    expect(first.secrets.secretsKey).toHaveLength(32);
    expect(second.secrets.secretsKey.equals(first.secrets.secretsKey)).toBe(true);
    expect(second.secrets.internalToken).toBe(first.secrets.internalToken);
    expect(first.secrets.internalToken.length).toBeGreaterThanOrEqual(32);
  });

  it('reads a development secret another process has made but not yet written, once it is written', async () => {
    // What the API or the notifier finds when the other, starting at the same moment, has just
    // created the file: it is empty until the other writes its line.
    const dataDir = join(temp.cwd, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const theirs = { 'secrets.key': Buffer.alloc(32, 7).toString('base64'), 'internal-token': 't'.repeat(32) };
    for (const name of Object.keys(theirs)) writeFileSync(join(dataDir, name), '', { mode: 0o600 });
    const writer = spawn(
      process.execPath,
      [
        '-e',
        `const { writeFileSync } = require('node:fs');
         const [dir, files] = [process.argv[1], JSON.parse(process.argv[2])];
         process.stdout.write('started');
         setTimeout(() => { for (const [name, secret] of Object.entries(files)) writeFileSync(dir + '/' + name, secret + '\\n'); }, 150);`,
        dataDir,
        JSON.stringify(theirs),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(writer.stdout!, 'data');
      const config = loadConfig({}, temp.cwd);
      expect(config.secrets.secretsKey.equals(Buffer.alloc(32, 7))).toBe(true);
      expect(config.secrets.internalToken).toBe(theirs['internal-token']);
    } finally {
      writer.kill();
    }
  });

  it('refuses a development secret file that stays empty, naming it', () => {
    const dataDir = join(temp.cwd, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    for (const name of ['secrets.key', 'internal-token']) writeFileSync(join(dataDir, name), '', { mode: 0o600 });
    expect(configErrorOf(() => loadConfig({}, temp.cwd)).problems).toEqual([
      `${join(dataDir, 'internal-token')}: is empty; delete it to have a new one made`,
      `${join(dataDir, 'secrets.key')}: is empty; delete it to have a new one made`,
    ]);
  });

  it('needs no INTERNAL_TOKEN, and makes none, for a process that never uses it', () => {
    const { SECRETS_KEY } = PRODUCTION_SECRETS;
    const production = loadConfig({ NODE_ENV: 'production', SECRETS_KEY }, temp.cwd, { internalToken: false });
    expect(production.secrets.internalToken).toBe('');
    // A weak token that is given is not checked either: it is not used.
    expect(() =>
      loadConfig({ NODE_ENV: 'production', SECRETS_KEY, INTERNAL_TOKEN: 'a'.repeat(40) }, temp.cwd, {
        internalToken: false,
      }),
    ).not.toThrow();
    const development = loadConfig({}, temp.cwd, { internalToken: false });
    expect(development.secrets.internalToken).toBe('');
    expect(existsSync(join(temp.cwd, 'data', 'internal-token'))).toBe(false);
    expect(existsSync(join(temp.cwd, 'data', 'secrets.key'))).toBe(true);
  });

  it('with existingStore, refuses a DATA_DIR without an embedded store and makes nothing there', () => {
    const error = configErrorOf(() => loadConfig({ DATA_DIR: 'typo' }, temp.cwd, { existingStore: true }));
    expect(error.problems).toEqual([
      `DATA_DIR: no event store at ${join(temp.cwd, 'typo', 'events.sqlite')} (this command reads the store the service wrote and makes none)`,
    ]);
    expect(existsSync(join(temp.cwd, 'typo'))).toBe(false);
    mkdirSync(join(temp.cwd, 'typo'));
    writeFileSync(join(temp.cwd, 'typo', 'events.sqlite'), '');
    // A store without the development key it was sealed with (the service ran with SECRETS_KEY):
    // a key made now would read nothing.
    const noKey = configErrorOf(() => loadConfig({ DATA_DIR: 'typo' }, temp.cwd, { existingStore: true }));
    expect(noKey.problems).toEqual([
      `SECRETS_KEY: not set, and ${join(temp.cwd, 'typo', 'secrets.key')} does not exist: give the key the service runs with`,
    ]);
    expect(existsSync(join(temp.cwd, 'typo', 'secrets.key'))).toBe(false);
    const { SECRETS_KEY } = PRODUCTION_SECRETS;
    expect(loadConfig({ DATA_DIR: 'typo', SECRETS_KEY }, temp.cwd, { existingStore: true }).store.dataDir).toBe(
      join(temp.cwd, 'typo'),
    );
    // EventStoreDB has no file to look for; the key still is needed, and not made.
    const esdb = { DATA_DIR: 'other', EVENT_STORE: 'esdb://localhost:2113?tls=false' };
    const cli = { existingStore: true, internalToken: false };
    expect(() => loadConfig({ ...esdb, SECRETS_KEY }, temp.cwd, cli)).not.toThrow();
    expect(configErrorOf(() => loadConfig(esdb, temp.cwd, cli)).problems[0]).toMatch(/^SECRETS_KEY: not set/);
    expect(existsSync(join(temp.cwd, 'other'))).toBe(false);
  });
});
