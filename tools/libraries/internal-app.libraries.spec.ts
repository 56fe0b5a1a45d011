import { rmSync } from 'node:fs';
import { startEsdbTestServer, type EsdbTestServer } from '@gw/esdb-test-server';
import {
  ApiProcess,
  expectSuccess,
  get,
  NotifierProcess,
  OPS_MAIN,
  postJson,
  ROOT,
  tempDataDir,
  WebhookReceiver,
} from '@gw/testing';
import { Webhook } from 'standardwebhooks';
import { copyApp, entryPoints, installedPackages, run, runOk, timed, type Ran } from './support/packed-install';

/**
 * The libraries as another team's app uses them (docs: README "Using the libraries from another
 * app"): `npm run pack:libs` packs them, examples/internal-app is installed from those files alone
 * into a folder outside the repository and type-checked there, and its `record` and `replay` run
 * against the built API and notifier as real processes, on the embedded store and on EventStoreDB.
 */

let app: string;
let packed: string[];

beforeAll(async () => {
  const printed = await timed('npm run pack:libs', () => runOk('npm', ['run', '--silent', 'pack:libs'], ROOT));
  packed = printed.split('\n').filter(Boolean);
  app = copyApp(packed);
  // One install: better-sqlite3 builds from source where its prebuilt binary cannot be downloaded.
  await timed('npm install of the packed files', () => runOk('npm', ['install', '--no-audit', '--no-fund'], app));
}, 900_000);

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true });
});

describe('the packed libraries', () => {
  it('are one .tgz per package under dist/, installed as real folders, not links into the repository', () => {
    expect(packed.length).toBeGreaterThanOrEqual(8);
    for (const file of packed) expect(file).toMatch(new RegExp(`^${ROOT}/dist/.+\\.tgz$`));
    expect(installedPackages(app).sort()).toEqual(
      expect.arrayContaining([
        '@gw/application',
        '@gw/contract',
        '@gw/domain-core',
        '@gw/domain-inbox',
        '@gw/domain-instances',
        '@gw/domain-notifications',
        '@gw/event-store',
      ]),
    );
  });

  it('each load with import(), every entry point of every package', async () => {
    const entries = installedPackages(app).flatMap((name) => entryPoints(app, name));
    expect(entries).toEqual(expect.arrayContaining(['@gw/event-store/sqlite', '@gw/event-store/esdb']));
    const script = `for (const e of ${JSON.stringify(entries)}) { const m = await import(e); if (Object.keys(m).length < 2) throw new Error(e + ' exports nothing'); }`;
    await runOk(process.execPath, ['--input-type=module', '-e', script], app);
  });

  it('type-check the app under tsc --strict with node16 resolution, their declarations included', async () => {
    const built = await timed('tsc of the example app', () => run('npm', ['run', '--silent', 'build'], app));
    expect(built.stdout + built.stderr).toBe('');
    expect(built.status).toBe(0);
  });
});

const LOCAL_TARGETS = { ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', SHUTDOWN_GRACE_MS: '500' };

/** The example's scripts with the service's environment: `npm run record|replay`. */
const script = (name: 'record' | 'replay', env: Record<string, string>): Promise<Ran> =>
  run('npm', ['run', '--silent', name], app, { PATH: process.env['PATH'], NODE_ENV: 'test', ...env });

const opsEnv = (env: Record<string, string>) => ({ PATH: process.env['PATH'], NODE_ENV: 'test', ...env });
/** The operator CLI of the repository (an independent reader of the same log). */
const ops = (env: Record<string, string>, args: string[]) =>
  run(process.execPath, [OPS_MAIN, ...args], ROOT, opsEnv(env));

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each([
  ['the embedded store, with the development key file of DATA_DIR', 'embedded'],
  ['EventStoreDB, with SECRETS_KEY', 'esdb'],
] as const)('an app outside the repository, on %s', (_, store) => {
  let receiver: WebhookReceiver;
  let server: EsdbTestServer | undefined;
  let api: ApiProcess;
  let notifier: NotifierProcess;
  /** What the service's processes, the operator CLI and the example app are all given. */
  let env: Record<string, string>;
  let account: { email: string; apikey: string };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    const dataDir = tempDataDir();
    env = { DATA_DIR: dataDir };
    if (store === 'esdb') {
      server = await startEsdbTestServer({ port: 0 });
      env = { ...env, EVENT_STORE: server.connectionString, SECRETS_KEY: 'cd'.repeat(32) };
    }
    api = await ApiProcess.start({ dataDir, env: { ...env, ...LOCAL_TARGETS } });
    notifier = await NotifierProcess.start(dataDir, { ...env, ...LOCAL_TARGETS, RETRY_SCHEDULE: '1,1,1' });
    const created = await ops(env, ['accounts', 'create', '--email', `internal-app-${store}@example.com`]);
    expect(created.status).toBe(0);
    account = JSON.parse(created.stdout);
  }, 120_000);

  afterAll(async () => {
    await notifier?.stop();
    await api?.stop();
    api?.removeData();
    await receiver?.stop();
    await server?.stop();
  });

  /** How many events the instance's streams hold, as the operator CLI lists them. */
  async function storedEvents(instanceId: string): Promise<number> {
    let count = 0;
    for (const stream of ['instance', 'inbox', 'notifications', 'erasure']) {
      const listed = await ops(env, ['events', 'list', '--stream', `${stream}-${instanceId}`]);
      expect(listed.status).toBe(0);
      count += listed.stdout.split('\n').filter(Boolean).length;
    }
    return count;
  }

  async function replay(instanceId: string): Promise<Record<string, unknown>> {
    const ran = await script('replay', { ...env, INSTANCE_ID: instanceId });
    expect(ran).toMatchObject({ status: 0, stderr: '' });
    const lines = ran.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]);
  }

  it('records a message that the running notifier delivers once, however often it is recorded, and replays the history before and after', async () => {
    const instance = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'trial' }),
    );
    const path = `/hook/${store}`;
    const { signingSecret } = expectSuccess(
      await postJson(api.apiUrl, '/webhook', { ...instance, webhookUrl: receiver.url(path) }),
    );

    const before = await replay(instance.instanceid);
    expect(before).toMatchObject({ instanceid: instance.instanceid, packageid: 'trial', messages: 0, deleted: false });
    expect(before['events']).toBe(await storedEvents(instance.instanceid));

    const ids = {
      ...env,
      INSTANCE_ID: instance.instanceid,
      MESSAGE_ID: `m-${store}`,
      BODY: 'hello from an internal app',
    };
    const recorded = await script('record', ids);
    expect(recorded).toMatchObject({ status: 0, stderr: '' });
    expect(JSON.parse(recorded.stdout)).toMatchObject({ instanceid: instance.instanceid, messageid: `m-${store}` });
    await until('the delivery', async () => receiver.at(path).length === 1);
    // The same id again: recorded once, so notified once.
    expect(await script('record', ids)).toMatchObject({ status: 0 });
    const after = await until('the delivery in the log', async () => {
      const audit = await replay(instance.instanceid);
      return audit['notificationsDelivered'] === 1 && audit;
    });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // past a retry delay: nothing comes twice
    expect(receiver.at(path)).toHaveLength(1);

    const [delivered] = receiver.at(path);
    expect(delivered.json).toEqual({
      instanceId: instance.instanceid,
      sequence: 1,
      messages: [
        {
          id: `m-${store}`,
          chatId: 'internal-app@c.us',
          from: 'internal-app@c.us',
          fromMe: false,
          senderName: 'internal-app',
          type: 'chat',
          body: 'hello from an internal app',
          time: expect.any(Number),
        },
      ],
    });
    expect(new Webhook(signingSecret).verify(delivered.rawBody, delivered.headers as Record<string, string>)).toEqual(
      delivered.json,
    );

    // A later replay counts what was added since: the message, its notification and its delivery.
    expect(after).toMatchObject({ messages: 1, notificationsCreated: 1, notificationsDelivered: 1 });
    expect(after['events']).toBe(await storedEvents(instance.instanceid));
    expect(Number(after['events']) - Number(before['events'])).toBe(3);
    // The app's appends extend each stream's hash chain as the service's own do.
    const verified = await ops(env, ['audit', 'verify']);
    expect(verified).toMatchObject({ status: 0 });
  }, 120_000);

  it('refuses to record for an instance that does not exist, and writes nothing', async () => {
    const ran = await script('record', { ...env, INSTANCE_ID: 'no-such-instance', MESSAGE_ID: 'm-x' });
    expect(ran.status).toBe(1);
    expect(ran.stderr).toContain('no instance no-such-instance');
    expect(await storedEvents('no-such-instance')).toBe(0);
  }, 60_000);
});
