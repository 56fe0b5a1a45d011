import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, DEFAULT_PACKAGES_FILE, loadConfig } from './config';

/** Runs `fn` and returns the ConfigError it throws (failing the test if it throws anything else). */
function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError, but nothing was thrown');
}

const PRODUCTION_SECRETS = { INTERNAL_TOKEN: 'abcdefghijklmnopqrstuvwxyz012345', SECRETS_KEY: 'ab'.repeat(32) };

describe('loadConfig', () => {
  let cwd: string;

  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'config-spec-'));
  });

  afterEach(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  const writeCatalogue = (name: string, content: string) => {
    const file = join(cwd, name);
    writeFileSync(file, content, 'utf8');
    return file;
  };

  describe('with an empty environment', () => {
    it('uses the defaults', () => {
      const config = loadConfig({}, cwd);
      expect(config).toMatchObject({
        mode: 'development',
        http: { host: '0.0.0.0', accountPort: 8080, apiPort: 8081 },
        store: {
          dataDir: join(cwd, 'data'),
          eventStore: { kind: 'embedded', file: join(cwd, 'data', 'events.sqlite') },
          readModelFile: join(cwd, 'data', 'read-models.sqlite'),
        },
        log: { level: 'info' },
        webhooks: { allowPrivateTargets: false, allowHttp: false },
        // Only an explicit NODE_ENV=development creates the demo account.
        demoAccount: false,
      });
      expect(loadConfig({ NODE_ENV: 'development' }, cwd).demoAccount).toBe(true);
    });

    it('loads the three shipped packages from config/packages.json', () => {
      const config = loadConfig({}, cwd);
      expect(config.packages.file).toBe(DEFAULT_PACKAGES_FILE);
      expect(config.packages.file.endsWith(join('config', 'packages.json'))).toBe(true);
      expect(config.packages.catalogue).toEqual([
        { packageid: 'trial', durationDays: 3 },
        { packageid: 'monthly', durationDays: 30 },
        { packageid: 'annual', durationDays: 365 },
      ]);
    });

    it('treats empty-string variables as unset', () => {
      const config = loadConfig({ API_PORT: '', ACCOUNT_PORT: '', LOG_LEVEL: '', EVENT_STORE: '', NODE_ENV: '' }, cwd);
      expect(config).toMatchObject({ http: { apiPort: 8081, accountPort: 8080 }, log: { level: 'info' }, mode: 'development' });
      expect(config.store.eventStore).toEqual({ kind: 'embedded', file: join(cwd, 'data', 'events.sqlite') });
    });
  });

  describe('with valid settings', () => {
    it('reads ports, level, booleans and data dir from the environment', () => {
      const config = loadConfig(
        {
          API_PORT: '9001',
          ACCOUNT_PORT: '9000',
          LOG_LEVEL: 'debug',
          ALLOW_HTTP_WEBHOOKS: 'true',
          ALLOW_PRIVATE_WEBHOOK_TARGETS: '1',
          DEMO_ACCOUNT: 'false',
          DATA_DIR: 'store',
          EVENT_STORE: 'embedded',
        },
        cwd,
      );
      expect(config).toMatchObject({
        http: { apiPort: 9001, accountPort: 9000 },
        log: { level: 'debug' },
        webhooks: { allowHttp: true, allowPrivateTargets: true },
        demoAccount: false,
        store: { dataDir: join(cwd, 'store'), eventStore: { kind: 'embedded', file: join(cwd, 'store', 'events.sqlite') } },
      });
    });

    it('defaults the log level to warn in test mode and turns the demo account off in production', () => {
      expect(loadConfig({ NODE_ENV: 'test' }, cwd).log.level).toBe('warn');
      const production = loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS }, cwd);
      expect(production.mode).toBe('production');
      expect(production.demoAccount).toBe(false);
    });
  });

  describe('with bad variables', () => {
    it('reports every bad variable in one ConfigError', () => {
      const error = configErrorOf(() =>
        loadConfig(
          { API_PORT: 'abc', ACCOUNT_PORT: '70000', LOG_LEVEL: 'loud', ALLOW_HTTP_WEBHOOKS: 'maybe', EVENT_STORE: 'mysql://x' },
          cwd,
        ),
      );
      expect(error.name).toBe('ConfigError');
      expect(error).toBeInstanceOf(Error);
      expect(error.problems).toHaveLength(5);
      for (const variable of ['API_PORT', 'ACCOUNT_PORT', 'LOG_LEVEL', 'ALLOW_HTTP_WEBHOOKS', 'EVENT_STORE']) {
        expect(error.problems.filter((p) => p.startsWith(`${variable}:`))).toHaveLength(1);
        expect(error.message).toContain(`  - ${variable}:`);
      }
      expect(error.message.startsWith('Invalid configuration:')).toBe(true);
      expect(error.problems.find((p) => p.startsWith('API_PORT:'))).toContain('"abc"');
      expect(error.problems.find((p) => p.startsWith('ACCOUNT_PORT:'))).toContain('"70000"');
    });

    it.each([['-1'], ['1.5'], ['8080x'], ['65536'], ['0x50']])('refuses API_PORT=%s', (value) => {
      const error = configErrorOf(() => loadConfig({ API_PORT: value }, cwd));
      expect(error.problems).toEqual([expect.stringMatching(/^API_PORT: /)]);
    });

    it('reads SIGNING_SECRET_OVERLAP_HOURS in hours, decimals allowed, and names a bad value', () => {
      expect(loadConfig({}, cwd).webhooks.signingSecretOverlapHours).toBe(24);
      expect(loadConfig({ SIGNING_SECRET_OVERLAP_HOURS: '0.0005' }, cwd).webhooks.signingSecretOverlapHours).toBe(0.0005);
      expect(loadConfig({ SIGNING_SECRET_OVERLAP_HOURS: '0' }, cwd).webhooks.signingSecretOverlapHours).toBe(0);
      expect(loadConfig({ SIGNING_SECRET_OVERLAP_HOURS: '720' }, cwd).webhooks.signingSecretOverlapHours).toBe(720);
      for (const value of ['-1', '720.5', '1e3', 'soon', '.5', '1.', 'Infinity']) {
        const error = configErrorOf(() => loadConfig({ SIGNING_SECRET_OVERLAP_HOURS: value, API_PORT: 'abc' }, cwd));
        expect(error.problems).toEqual([
          expect.stringMatching(/^API_PORT: /),
          `SIGNING_SECRET_OVERLAP_HOURS: must be a number from 0 to 720, decimals allowed (got "${value}")`,
        ]);
      }
    });

    it('refuses an unknown NODE_ENV', () => {
      const error = configErrorOf(() => loadConfig({ NODE_ENV: 'staging' }, cwd));
      expect(error.problems).toEqual([expect.stringMatching(/^NODE_ENV: .*"staging"/)]);
    });

    it('selects EventStoreDB by an esdb:// connection string, discovery included', () => {
      expect(loadConfig({ EVENT_STORE: 'esdb://localhost:2113?tls=false' }, cwd).store.eventStore).toEqual({
        kind: 'esdb',
        connectionString: 'esdb://localhost:2113?tls=false',
      });
      expect(loadConfig({ EVENT_STORE: 'esdb+discover://a:2113,b:2113' }, cwd).store.eventStore.kind).toBe('esdb');
      expect(configErrorOf(() => loadConfig({ EVENT_STORE: 'esdb://' }, cwd)).problems).toEqual([expect.stringMatching(/^EVENT_STORE: /)]);
    });

    it('refuses control characters in a string variable', () => {
      const error = configErrorOf(() => loadConfig({ HOST: 'local\nhost' }, cwd));
      expect(error.problems).toEqual([expect.stringMatching(/^HOST: .*control characters/)]);
    });

    it('refuses the development switches in production, naming each one', () => {
      const error = configErrorOf(() =>
        loadConfig(
          { NODE_ENV: 'production', DEMO_ACCOUNT: 'true', ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', ALLOW_HTTP_WEBHOOKS: '1', ...PRODUCTION_SECRETS },
          cwd,
        ),
      );
      expect(error.problems).toEqual([
        'ALLOW_PRIVATE_WEBHOOK_TARGETS: must not be true in production (it is for local development and tests)',
        'ALLOW_HTTP_WEBHOOKS: must not be true in production (it is for local development and tests)',
        'DEMO_ACCOUNT: must not be true in production (it is for local development and tests)',
      ]);
      // Outside production they are allowed.
      expect(loadConfig({ NODE_ENV: 'test', ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', ALLOW_HTTP_WEBHOOKS: 'true' }, cwd).webhooks.allowHttp).toBe(true);
    });

    it('refuses a short or repetitive INTERNAL_TOKEN in production', () => {
      const weak = ['a'.repeat(16), 'abcdefghijklmnopqrstuvwxyz01234', 'abcdefghijklmnoabcdefghijklmnoabcdefghijklmno'];
      for (const INTERNAL_TOKEN of weak) {
        const error = configErrorOf(() => loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS, INTERNAL_TOKEN }, cwd));
        expect(error.problems).toEqual(['INTERNAL_TOKEN: must be at least 32 characters with at least 16 different ones in production']);
      }
      // 32 characters, 16 of them different: enough.
      const strong = 'abcdefghijklmnop'.repeat(2);
      expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS, INTERNAL_TOKEN: strong }, cwd).secrets.internalToken).toBe(strong);
      expect(loadConfig({ NODE_ENV: 'test', INTERNAL_TOKEN: 'a'.repeat(16) }, cwd).secrets.internalToken).toBe('a'.repeat(16));
    });

    it('binds the internal listeners to INTERNAL_HOST, loopback unless told otherwise', () => {
      expect(loadConfig({}, cwd).http.internalHost).toBe('127.0.0.1');
      expect(loadConfig({ INTERNAL_HOST: '::' }, cwd).http.internalHost).toBe('::');
      expect(configErrorOf(() => loadConfig({ INTERNAL_HOST: 'bad host' }, cwd)).problems).toEqual([
        'INTERNAL_HOST: must be an IP address or a host name (got "bad host")',
      ]);
    });

    it('refuses a malformed HOST and two listeners on one port', () => {
      const error = configErrorOf(() => loadConfig({ HOST: 'not a host!', API_PORT: '8080' }, cwd));
      expect(error.problems).toEqual([
        'HOST: must be an IP address or a host name (got "not a host!")',
        'API_PORT: 8080 is also ACCOUNT_PORT; each listener needs its own port',
      ]);
      expect(loadConfig({ HOST: '::1', ACCOUNT_PORT: '0', API_PORT: '0' }, cwd).http.host).toBe('::1');
    });

    it('requires INTERNAL_TOKEN and SECRETS_KEY in production, and checks the key is 32 bytes', () => {
      const error = configErrorOf(() => loadConfig({ NODE_ENV: 'production' }, cwd));
      expect(error.problems).toEqual([
        'INTERNAL_TOKEN: is required in production',
        'SECRETS_KEY: is required in production (32 random bytes, base64 or hex)',
      ]);
      const short = configErrorOf(() => loadConfig({ NODE_ENV: 'production', INTERNAL_TOKEN: PRODUCTION_SECRETS.INTERNAL_TOKEN, SECRETS_KEY: 'c2hvcnQ=' }, cwd));
      expect(short.problems).toEqual(['SECRETS_KEY: must be 32 bytes, given as base64 or 64 hex digits']);
      expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS }, cwd).secrets.secretsKey).toHaveLength(32);
    });

    it('makes one development key and internal token in DATA_DIR and reuses them', () => {
      const first = loadConfig({}, cwd);
      const second = loadConfig({}, cwd);
      expect(first.secrets.secretsKey).toHaveLength(32);
      expect(second.secrets.secretsKey.equals(first.secrets.secretsKey)).toBe(true);
      expect(second.secrets.internalToken).toBe(first.secrets.internalToken);
      expect(first.secrets.internalToken.length).toBeGreaterThanOrEqual(32);
    });
  });

  describe('PACKAGES_FILE', () => {
    it('loads a custom valid catalogue given as an absolute path', () => {
      const file = writeCatalogue('packages.json', JSON.stringify([{ packageid: 'weekly', durationDays: 7 }, { packageid: 'pro.2y', durationDays: 730 }]));
      const config = loadConfig({ PACKAGES_FILE: file }, cwd);
      expect(config.packages.file).toBe(file);
      expect(config.packages.catalogue).toEqual([
        { packageid: 'weekly', durationDays: 7 },
        { packageid: 'pro.2y', durationDays: 730 },
      ]);
    });

    it('resolves a relative path against cwd', () => {
      const file = writeCatalogue('mine.json', JSON.stringify([{ packageid: 'day', durationDays: 1 }]));
      const config = loadConfig({ PACKAGES_FILE: 'mine.json' }, cwd);
      expect(config.packages.file).toBe(file);
      expect(config.packages.catalogue).toEqual([{ packageid: 'day', durationDays: 1 }]);
    });

    it('reports a missing file naming PACKAGES_FILE', () => {
      const missing = join(cwd, 'nope.json');
      const error = configErrorOf(() => loadConfig({ PACKAGES_FILE: missing }, cwd));
      expect(error.problems).toEqual([`PACKAGES_FILE: ${missing} does not exist`]);
      expect(error.message).toContain('PACKAGES_FILE');
    });

    it('reports invalid JSON naming PACKAGES_FILE', () => {
      const file = writeCatalogue('broken.json', '[{ "packageid": "trial", ');
      const error = configErrorOf(() => loadConfig({ PACKAGES_FILE: file }, cwd));
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(/^PACKAGES_FILE: .*not valid JSON/);
      expect(error.problems[0]).toContain(file);
    });

    it('reports a duplicate packageid naming PACKAGES_FILE', () => {
      const file = writeCatalogue(
        'dupes.json',
        JSON.stringify([
          { packageid: 'trial', durationDays: 3 },
          { packageid: 'trial', durationDays: 5 },
        ]),
      );
      const error = configErrorOf(() => loadConfig({ PACKAGES_FILE: file }, cwd));
      expect(error.problems).toEqual([expect.stringMatching(/^PACKAGES_FILE: .*"trial" appears twice/)]);
      expect(error.message).toContain('PACKAGES_FILE');
    });

    it('reports an empty catalogue naming PACKAGES_FILE', () => {
      const file = writeCatalogue('empty.json', '[]');
      const error = configErrorOf(() => loadConfig({ PACKAGES_FILE: file }, cwd));
      expect(error.problems).toEqual([expect.stringMatching(/^PACKAGES_FILE: /)]);
    });

    it('reports a catalogue problem together with other bad variables', () => {
      const error = configErrorOf(() => loadConfig({ PACKAGES_FILE: join(cwd, 'missing.json'), API_PORT: 'abc' }, cwd));
      expect(error.problems).toHaveLength(2);
      expect(error.problems.some((p) => p.startsWith('PACKAGES_FILE:'))).toBe(true);
      expect(error.problems.some((p) => p.startsWith('API_PORT:'))).toBe(true);
    });
  });
});
