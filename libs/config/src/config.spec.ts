import { join } from 'node:path';
import { DEFAULT_PACKAGES_FILE, loadConfig } from './config';
import { configErrorOf, PRODUCTION_SECRETS, useTempCwd } from './__fixtures__/config-spec-support';

describe('loadConfig', () => {
  const temp = useTempCwd();

  describe('with an empty environment', () => {
    it('uses the defaults', () => {
      const config = loadConfig({}, temp.cwd);
      expect(config).toMatchObject({
        mode: 'development',
        http: { host: '0.0.0.0', accountPort: 8080, apiPort: 8081 },
        store: {
          dataDir: join(temp.cwd, 'data'),
          eventStore: { kind: 'embedded', file: join(temp.cwd, 'data', 'events.sqlite') },
          readModelFile: join(temp.cwd, 'data', 'read-models.sqlite'),
        },
        log: { level: 'info' },
        webhooks: { allowPrivateTargets: false, allowHttp: false },
        // Only an explicit NODE_ENV=development creates the demo account.
        demoAccount: false,
      });
      expect(loadConfig({ NODE_ENV: 'development' }, temp.cwd).demoAccount).toBe(true);
    });

    it('loads the three shipped packages from config/packages.json', () => {
      const config = loadConfig({}, temp.cwd);
      expect(config.packages.file).toBe(DEFAULT_PACKAGES_FILE);
      expect(config.packages.file.endsWith(join('config', 'packages.json'))).toBe(true);
      expect(config.packages.catalogue).toEqual([
        { packageid: 'trial', durationDays: 3 },
        { packageid: 'monthly', durationDays: 30 },
        { packageid: 'annual', durationDays: 365 },
      ]);
    });

    it('treats empty-string variables as unset', () => {
      const config = loadConfig(
        { API_PORT: '', ACCOUNT_PORT: '', LOG_LEVEL: '', EVENT_STORE: '', NODE_ENV: '' },
        temp.cwd,
      );
      expect(config).toMatchObject({
        http: { apiPort: 8081, accountPort: 8080 },
        log: { level: 'info' },
        mode: 'development',
      });
      expect(config.store.eventStore).toEqual({ kind: 'embedded', file: join(temp.cwd, 'data', 'events.sqlite') });
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
        temp.cwd,
      );
      expect(config).toMatchObject({
        http: { apiPort: 9001, accountPort: 9000 },
        log: { level: 'debug' },
        webhooks: { allowHttp: true, allowPrivateTargets: true },
        demoAccount: false,
        store: {
          dataDir: join(temp.cwd, 'store'),
          eventStore: { kind: 'embedded', file: join(temp.cwd, 'store', 'events.sqlite') },
        },
      });
    });

    it('defaults the log level to warn in test mode and turns the demo account off in production', () => {
      expect(loadConfig({ NODE_ENV: 'test' }, temp.cwd).log.level).toBe('warn');
      const production = loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS }, temp.cwd);
      expect(production.mode).toBe('production');
      expect(production.demoAccount).toBe(false);
    });
  });

  describe('with bad variables', () => {
    it('reports every bad variable in one ConfigError', () => {
      const error = configErrorOf(() =>
        loadConfig(
          {
            API_PORT: 'abc',
            ACCOUNT_PORT: '70000',
            LOG_LEVEL: 'loud',
            ALLOW_HTTP_WEBHOOKS: 'maybe',
            EVENT_STORE: 'mysql://x',
          },
          temp.cwd,
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
      const error = configErrorOf(() => loadConfig({ API_PORT: value }, temp.cwd));
      expect(error.problems).toEqual([expect.stringMatching(/^API_PORT: /)]);
    });

    it('reads SIGNING_SECRET_OVERLAP_HOURS in hours, decimals allowed, and names a bad value', () => {
      expect(loadConfig({}, temp.cwd).webhooks.signingSecretOverlapHours).toBe(24);
      expect(loadConfig({ SIGNING_SECRET_OVERLAP_HOURS: '0.0005' }, temp.cwd).webhooks.signingSecretOverlapHours).toBe(
        0.0005,
      );
      expect(loadConfig({ SIGNING_SECRET_OVERLAP_HOURS: '0' }, temp.cwd).webhooks.signingSecretOverlapHours).toBe(0);
      expect(loadConfig({ SIGNING_SECRET_OVERLAP_HOURS: '720' }, temp.cwd).webhooks.signingSecretOverlapHours).toBe(
        720,
      );
      for (const value of ['-1', '720.5', '1e3', 'soon', '.5', '1.', 'Infinity']) {
        const error = configErrorOf(() =>
          loadConfig({ SIGNING_SECRET_OVERLAP_HOURS: value, API_PORT: 'abc' }, temp.cwd),
        );
        expect(error.problems).toEqual([
          expect.stringMatching(/^API_PORT: /),
          `SIGNING_SECRET_OVERLAP_HOURS: must be a number from 0 to 720, decimals allowed (got "${value}")`,
        ]);
      }
    });

    it('reads WEBHOOK_DISABLE_AFTER_HOURS: 120 by default, decimals allowed, 0 for never (docs/api.md section 12)', () => {
      expect(loadConfig({}, temp.cwd).notifier.disableAfterHours).toBe(120);
      expect(loadConfig({ WEBHOOK_DISABLE_AFTER_HOURS: '0.001' }, temp.cwd).notifier.disableAfterHours).toBe(0.001);
      expect(loadConfig({ WEBHOOK_DISABLE_AFTER_HOURS: '0' }, temp.cwd).notifier.disableAfterHours).toBe(0);
      expect(() => loadConfig({ WEBHOOK_DISABLE_AFTER_HOURS: '-1' }, temp.cwd)).toThrow(/WEBHOOK_DISABLE_AFTER_HOURS/);
    });

    it('reads EXPIRY_NOTICE_HOURS as comma-separated hours, decimals allowed, and names a bad value', () => {
      expect(loadConfig({}, temp.cwd).notifier.expiryNoticeHours).toEqual([72, 24]);
      expect(loadConfig({ EXPIRY_NOTICE_HOURS: '0.002, 0.001' }, temp.cwd).notifier.expiryNoticeHours).toEqual([
        0.002, 0.001,
      ]);
      expect(loadConfig({ EXPIRY_NOTICE_HOURS: '48' }, temp.cwd).notifier.expiryNoticeHours).toEqual([48]);
      for (const value of ['0', '-1', '24,', 'soon', '1e3', '72;24', '900000']) {
        const error = configErrorOf(() => loadConfig({ EXPIRY_NOTICE_HOURS: value, API_PORT: 'abc' }, temp.cwd));
        expect(error.problems).toEqual([
          expect.stringMatching(/^API_PORT: /),
          `EXPIRY_NOTICE_HOURS: must be comma-separated hours, each above 0 and at most 876000, decimals allowed (got "${value}")`,
        ]);
      }
    });

    it('reads MESSAGE_RETENTION_DAYS in whole days, 0 keeping forever, and names a bad value', () => {
      expect(loadConfig({}, temp.cwd).notifier.messageRetentionDays).toBe(30);
      expect(loadConfig({ MESSAGE_RETENTION_DAYS: '0' }, temp.cwd).notifier.messageRetentionDays).toBe(0);
      expect(loadConfig({ MESSAGE_RETENTION_DAYS: '7' }, temp.cwd).notifier.messageRetentionDays).toBe(7);
      for (const value of ['-1', '1.5', 'month', '36501']) {
        const error = configErrorOf(() => loadConfig({ MESSAGE_RETENTION_DAYS: value }, temp.cwd));
        expect(error.problems).toEqual([expect.stringMatching(/^MESSAGE_RETENTION_DAYS: /)]);
      }
    });

    it('refuses an unknown NODE_ENV', () => {
      const error = configErrorOf(() => loadConfig({ NODE_ENV: 'staging' }, temp.cwd));
      expect(error.problems).toEqual([expect.stringMatching(/^NODE_ENV: .*"staging"/)]);
    });

    it('selects EventStoreDB by an esdb:// connection string, discovery included', () => {
      expect(loadConfig({ EVENT_STORE: 'esdb://localhost:2113?tls=false' }, temp.cwd).store.eventStore).toEqual({
        kind: 'esdb',
        connectionString: 'esdb://localhost:2113?tls=false',
      });
      expect(loadConfig({ EVENT_STORE: 'esdb+discover://a:2113,b:2113' }, temp.cwd).store.eventStore.kind).toBe('esdb');
      expect(configErrorOf(() => loadConfig({ EVENT_STORE: 'esdb://' }, temp.cwd)).problems).toEqual([
        expect.stringMatching(/^EVENT_STORE: /),
      ]);
    });

    it('refuses control characters in a string variable', () => {
      const error = configErrorOf(() => loadConfig({ HOST: 'local\nhost' }, temp.cwd));
      expect(error.problems).toEqual([expect.stringMatching(/^HOST: .*control characters/)]);
    });

    it('bounds testWebhook calls in flight with TEST_WEBHOOK_CONCURRENCY, 32 unless set', () => {
      expect(loadConfig({}, temp.cwd).webhooks.testConcurrency).toBe(32);
      expect(loadConfig({ TEST_WEBHOOK_CONCURRENCY: '4' }, temp.cwd).webhooks.testConcurrency).toBe(4);
      for (const bad of ['0', '-1', '2.5', 'many', '10001']) {
        expect(configErrorOf(() => loadConfig({ TEST_WEBHOOK_CONCURRENCY: bad }, temp.cwd)).problems).toEqual([
          expect.stringMatching(/^TEST_WEBHOOK_CONCURRENCY: /),
        ]);
      }
    });

    it("bounds the ingest host's recordings in flight with INGEST_MAX_IN_FLIGHT, 256 unless set, 0 for none", () => {
      expect(loadConfig({}, temp.cwd).rateLimits.ingestInFlight).toBe(256);
      expect(loadConfig({ INGEST_MAX_IN_FLIGHT: '0' }, temp.cwd).rateLimits.ingestInFlight).toBe(0);
      for (const bad of ['-1', '2.5', 'many', '1000001']) {
        expect(configErrorOf(() => loadConfig({ INGEST_MAX_IN_FLIGHT: bad }, temp.cwd)).problems).toEqual([
          expect.stringMatching(/^INGEST_MAX_IN_FLIGHT: /),
        ]);
      }
    });

    it('binds the internal listeners to INTERNAL_HOST, loopback unless told otherwise', () => {
      expect(loadConfig({}, temp.cwd).http.internalHost).toBe('127.0.0.1');
      expect(loadConfig({ INTERNAL_HOST: '::' }, temp.cwd).http.internalHost).toBe('::');
      expect(configErrorOf(() => loadConfig({ INTERNAL_HOST: 'bad host' }, temp.cwd)).problems).toEqual([
        'INTERNAL_HOST: must be an IP address or a host name (got "bad host")',
      ]);
    });

    it('tells the dashboard where the instance host is only when PUBLIC_API_URL says so', () => {
      expect(loadConfig({}, temp.cwd).http.publicApiUrl).toBe('');
      expect(loadConfig({ PUBLIC_API_URL: 'https://api.example.com/' }, temp.cwd).http.publicApiUrl).toBe(
        'https://api.example.com',
      );
      expect(loadConfig({ PUBLIC_API_URL: 'https://example.com/gateway/api' }, temp.cwd).http.publicApiUrl).toBe(
        'https://example.com/gateway/api',
      );
      for (const bad of [
        'api.example.com',
        'ftp://api.example.com',
        'https://u:p@api.example.com',
        'https://api.example.com/?a=1',
      ]) {
        expect(configErrorOf(() => loadConfig({ PUBLIC_API_URL: bad }, temp.cwd)).problems).toEqual([
          `PUBLIC_API_URL: must be an absolute http or https URL without credentials, query or fragment (got "${bad}")`,
        ]);
      }
    });

    it('refuses a malformed HOST and two listeners on one port', () => {
      const error = configErrorOf(() => loadConfig({ HOST: 'not a host!', API_PORT: '8080' }, temp.cwd));
      expect(error.problems).toEqual([
        'HOST: must be an IP address or a host name (got "not a host!")',
        'API_PORT: 8080 is also ACCOUNT_PORT; each listener needs its own port',
      ]);
      expect(loadConfig({ HOST: '::1', ACCOUNT_PORT: '0', API_PORT: '0' }, temp.cwd).http.host).toBe('::1');
    });
  });
});
