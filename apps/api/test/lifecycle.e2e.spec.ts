import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ApiProcess, appEntryArgs, runOps, tempDataDir } from '@gw/testing';
import { expectSuccess, get, request } from '@gw/testing';

describe('process lifecycle', () => {
  it('answers /healthz on every listener once ready, and exits 0 on SIGTERM', async () => {
    const api = await ApiProcess.start();
    try {
      for (const base of [api.accountUrl, api.apiUrl]) {
        expect(expectSuccess(await get(base, '/healthz'))).toEqual({ success: true, status: 'ok' });
      }
      expect(await api.stop('SIGTERM')).toBe(0);
      expect(api.output).toContain('"msg":"stopped"');
    } finally {
      await api.stop('SIGKILL');
      api.removeData();
    }
  });

  it('finishes a request in flight when SIGTERM arrives', async () => {
    const api = await ApiProcess.start();
    try {
      // A slow client: headers now, body later; the answer must still come after SIGTERM.
      const controller = new AbortController();
      let release!: () => void;
      const body = new ReadableStream({
        start(stream) {
          stream.enqueue(new TextEncoder().encode('{"instanceid":"x",'));
          release = () => {
            stream.enqueue(new TextEncoder().encode('"token":"y"}'));
            stream.close();
          };
        },
      });
      const pending = request(`${api.apiUrl}/getWebhookStatus`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
        signal: controller.signal,
      } as RequestInit);
      await new Promise((r) => setTimeout(r, 200));
      const stopped = api.stop('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      release();
      const answer = await pending;
      expect(answer.json).toMatchObject({ success: false, msg: ['0006'] });
      expect(await stopped).toBe(0);
    } finally {
      api.removeData();
    }
  });

  it('refuses to start on bad configuration, naming every bad variable, with exit code 1', () => {
    const dataDir = tempDataDir();
    const result = spawnSync(process.execPath, appEntryArgs('api'), {
      env: {
        PATH: process.env['PATH'],
        DATA_DIR: dataDir,
        API_PORT: 'eighty',
        ACCOUNT_PORT: '99999',
        LOG_LEVEL: 'chatty',
        ALLOW_HTTP_WEBHOOKS: 'perhaps',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    for (const name of ['API_PORT', 'ACCOUNT_PORT', 'LOG_LEVEL', 'ALLOW_HTTP_WEBHOOKS'])
      expect(result.stderr).toContain(name);
    expect(result.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('operator CLI', () => {
  const dataDir = tempDataDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates an account and prints its e-mail lowercased and an API key', () => {
    const result = runOps(dataDir, ['accounts', 'create', '--email', 'Ops.User@Example.COM']);
    expect(result.status).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(Object.keys(printed).sort()).toEqual(['apikey', 'email']);
    expect(printed.email).toBe('ops.user@example.com');
    // At least 128 bits of entropy: 24 random bytes in base64url after the prefix.
    expect(printed.apikey).toMatch(/^gwk_[A-Za-z0-9_-]{32}$/);
  });

  it('refuses an existing account, whatever the case of the address, with exit code 1 and a message on stderr', () => {
    const result = runOps(dataDir, ['accounts', 'create', '--email', 'OPS.user@example.com']);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('already exists');
  });

  it('refuses a malformed e-mail address and an unknown command with exit code 1', () => {
    expect(runOps(dataDir, ['accounts', 'create', '--email', 'not-an-address']).status).toBe(1);
    expect(runOps(dataDir, ['accounts', 'delete']).status).toBe(1);
    expect(runOps(dataDir, ['accounts', 'create']).status).toBe(1);
  });

  it('lists the package catalogue in use', () => {
    const result = runOps(dataDir, ['packages', 'list']);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { packageid: 'trial', durationDays: 3 },
      { packageid: 'monthly', durationDays: 30 },
      { packageid: 'annual', durationDays: 365 },
    ]);
  });

  it('prints the log for audits, hashes, keys and the sealed address hidden', () => {
    const events = runOps(dataDir, ['events', 'list'])
      .stdout.trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((e) => e.type)).toEqual(['AccountKeyCreated', 'AccountRegistered']);
    expect(events[0].data).toEqual({
      accountId: expect.stringMatching(/^[0-9a-f]{32}$/),
      sealedKey: '[hidden]',
      createdAt: expect.any(String),
    });
    expect(events[1].data).toEqual({
      accountId: events[0].data.accountId,
      email: '[hidden]',
      apiKeyHash: '[hidden]',
      registeredAt: expect.any(String),
    });
  });
});

describe('operator CLI: what it refuses', () => {
  const dataDir = tempDataDir();
  beforeAll(() => expect(runOps(dataDir, ['accounts', 'create', '--email', 'refusals@example.com']).status).toBe(0));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    [['packages', 'list', '--foo']],
    [['packages', 'list', 'extra']],
    [['audit', 'verify', '--bogus']],
    [['audit', 'verify', 'extra']],
    [['events', 'list', '--limit', '0']],
    [['events', 'list', '--limit', '99999999999999999999']],
    [['events', 'list', '--limit', '1.5']],
    [['events', 'list', '--after', '99999999999999999999']],
    [['events', 'list', '--after', '9223372036854775808']],
    [['events', 'list', '--stream', 'anything', '--after', '1']],
  ])('%j: exit 1, the usage on stderr, nothing on stdout', (args) => {
    const result = runOps(dataDir, args);
    expect(result).toMatchObject({ status: 1, stdout: '' });
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).toContain('Usage: npm run ops');
  });

  it('pages through the log: --limit beyond a page, and --after the last position printed', () => {
    for (let n = 0; n < 3; n++)
      expect(runOps(dataDir, ['accounts', 'create', '--email', `page-${n}@example.com`]).status).toBe(0);
    const lines = (args: string[]) =>
      runOps(dataDir, ['events', 'list', ...args])
        .stdout.trim()
        .split('\n')
        .map((line) => JSON.parse(line));
    const all = lines(['--limit', '5000000']);
    expect(all.length).toBeGreaterThanOrEqual(8);
    expect(lines(['--limit', '3']).map((e) => e.id)).toEqual(all.slice(0, 3).map((e) => e.id));
    expect(lines(['--after', all[2].position, '--limit', '2']).map((e) => e.id)).toEqual(
      all.slice(3, 5).map((e) => e.id),
    );
  });

  it('prints the first N events of one stream with --stream and --limit', () => {
    const all = runOps(dataDir, ['events', 'list'])
      .stdout.trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const stream = all[0].streamName;
    const listed = runOps(dataDir, ['events', 'list', '--stream', stream, '--limit', '1']);
    expect(listed.status).toBe(0);
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual([all[0].id]);
  });

  it.each([[['events', 'list']], [['audit', 'verify']], [['audit', 'timeline', '--account', 'a@example.com']]])(
    '%j on a DATA_DIR that holds no store: exit 1 naming it, and nothing made there',
    (args) => {
      const parent = tempDataDir();
      const missing = join(parent, 'mistyped');
      try {
        const result = runOps(missing, args);
        expect(result).toMatchObject({ status: 1, stdout: '' });
        expect(result.stderr).toContain(`DATA_DIR: no event store at ${join(missing, 'events.sqlite')}`);
        expect(existsSync(missing)).toBe(false);
      } finally {
        rmSync(parent, { recursive: true, force: true });
      }
    },
  );

  it('runs in production without INTERNAL_TOKEN, which it never uses', () => {
    const production = { NODE_ENV: 'production', SECRETS_KEY: randomBytes(32).toString('base64') };
    const listed = runOps(dataDir, ['packages', 'list'], production);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain('"packageid":"trial"');
  });
});
