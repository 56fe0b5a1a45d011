import { startEsdbTestServer, type EsdbTestServer } from '@gw/esdb-test-server';
import {
  ApiProcess,
  expectFailure,
  expectSuccess,
  get,
  NotifierProcess,
  postJson,
  request,
  runOpsAsync,
  tempDataDir,
  WebhookReceiver,
} from '@gw/testing';
import { INTERNAL_TOKEN, sleep, until } from './support/stack';

/**
 * The stack across several processes on EventStoreDB (through the in-repo protocol test server):
 * two API replicas sharing nothing but the store, and two notifier workers splitting instances.
 */
describe('several processes on EventStoreDB', () => {
  let server: EsdbTestServer;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  const apis: ApiProcess[] = [];
  const workers: NotifierProcess[] = [];
  let account: { email: string; apikey: string };
  const instances: Array<{ instanceid: string; token: string; path: string }> = [];

  beforeAll(async () => {
    server = await startEsdbTestServer({ port: 0 });
    receiver = await WebhookReceiver.start();
    env = {
      EVENT_STORE: server.connectionString,
      SECRETS_KEY: 'ab'.repeat(32),
      INTERNAL_TOKEN,
      ALLOW_HTTP_WEBHOOKS: 'true',
      ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
      RETRY_SCHEDULE: '1,1,1,1,1',
      NOTIFIER_CHECKPOINT_INTERVAL_MS: '200',
      SHUTDOWN_GRACE_MS: '500',
    };
    for (let i = 0; i < 2; i++) apis.push(await ApiProcess.start({ env }));
    for (let k = 0; k < 2; k++) {
      workers.push(
        await NotifierProcess.start(tempDataDir(), { ...env, NOTIFIER_PARTITIONS: '2', NOTIFIER_PARTITION: String(k) }),
      );
    }
    const created = await runOpsAsync(tempDataDir(), ['accounts', 'create', '--email', 'scale@example.com'], {
      EVENT_STORE: server.connectionString,
      SECRETS_KEY: env['SECRETS_KEY'],
    });
    expect(created.status).toBe(0);
    account = JSON.parse(created.stdout);
  }, 120_000);

  afterAll(async () => {
    for (const p of [...apis, ...workers]) {
      await p.stop();
      p.removeData();
    }
    await receiver.stop();
    await server.stop();
  });

  const record = (api: ApiProcess, instanceid: string, id: string) =>
    request(`${api.internalUrl}/instances/${instanceid}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${INTERNAL_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id, chatId: 'c@c.us', time: 1767225600, body: id }),
    });
  const uniqueIds = () => new Set(receiver.requests.map((r) => r.webhookId));

  it('shows a write answered by one replica on the other in the next request', async () => {
    for (let i = 0; i < 5; i++) {
      const [writer, reader] = i % 2 ? [apis[1], apis[0]] : [apis[0], apis[1]];
      const created = expectSuccess(
        await get(writer.accountUrl, '/newInstance', {
          email: account.email,
          token: account.apikey,
          packageid: 'trial',
        }),
      );
      const listed = expectSuccess(
        await get(reader.accountUrl, '/listInstances', { email: account.email, apikey: account.apikey }),
      );
      expect(listed.instances.map((x: { instanceid: string }) => x.instanceid)).toContain(created.instanceid);
      const path = `/hook/${created.instanceid}`;
      expectSuccess(
        await postJson(reader.apiUrl, '/webhook', {
          ...pick(created),
          webhookUrl: `http://127.0.0.1:${receiver.port}${path}`,
        }),
      );
      const status = expectSuccess(await postJson(writer.apiUrl, '/getWebhookStatus', pick(created)));
      expect(status).toMatchObject({ enabled: true, webhookUrl: `http://127.0.0.1:${receiver.port}${path}` });
      instances.push({ ...pick(created), path });
    }
  });

  it('delivers notifications for 50 instances, each exactly once, shared between both workers', async () => {
    while (instances.length < 50) {
      const api = apis[instances.length % 2];
      const created = expectSuccess(
        await get(api.accountUrl, '/newInstance', {
          email: account.email,
          token: account.apikey,
          packageid: 'monthly',
        }),
      );
      const path = `/hook/${created.instanceid}`;
      expectSuccess(
        await postJson(api.apiUrl, '/webhook', {
          ...pick(created),
          webhookUrl: `http://127.0.0.1:${receiver.port}${path}`,
        }),
      );
      instances.push({ ...pick(created), path });
    }
    for (const [n, instance] of instances.entries())
      expect((await record(apis[n % 2], instance.instanceid, `steady-${n}`)).status).toBe(202);
    await until('50 notifications', () => receiver.requests.length >= 50, 30_000);
    await sleep(1000); // anything extra would show up now
    expect(receiver.requests).toHaveLength(50);
    expect(new Set(receiver.requests.map((r) => r.path))).toEqual(new Set(instances.map((i) => i.path)));
    for (const worker of workers) expect(await delivered(worker)).toBeGreaterThan(0);
  });

  it('loses nothing when a worker is killed with SIGKILL and started again', async () => {
    const before = uniqueIds().size;
    await workers[0].stop('SIGKILL');
    for (const [n, instance] of instances.entries())
      expect((await record(apis[n % 2], instance.instanceid, `after-kill-${n}`)).status).toBe(202);
    await workers[0].start();
    await until('50 more notifications', () => uniqueIds().size >= before + 50, 30_000);
    const bodies = receiver.requests.map((r) => r.json.messages[0].id as string);
    for (let n = 0; n < 50; n++) expect(bodies).toContain(`after-kill-${n}`);
  });

  it('rides out a connection loss: 0011 meanwhile, then the API and the notifier recover by themselves', async () => {
    const outage = server.simulateOutage(3000);
    await sleep(300);
    expectFailure(
      await get(apis[0].accountUrl, '/newInstance', {
        email: account.email,
        token: account.apikey,
        packageid: 'trial',
      }),
      ['0011'],
    );
    expectFailure(await postJson(apis[1].apiUrl, '/getWebhookStatus', pick(instances[0])), ['0011']);
    await outage;
    await until(
      'the API to answer again',
      async () =>
        (await get(apis[0].accountUrl, '/listInstances', { email: account.email, apikey: account.apikey })).json
          ?.success,
      20_000,
      200,
    );
    const before = uniqueIds().size;
    for (const [n, instance] of instances.slice(0, 10).entries()) {
      expect((await record(apis[n % 2], instance.instanceid, `after-outage-${n}`)).status).toBe(202);
    }
    await until('notifications recorded after the outage', () => uniqueIds().size >= before + 10, 30_000);
  });
});

function pick(instance: { instanceid: string; token: string }) {
  return { instanceid: instance.instanceid, token: instance.token };
}

async function delivered(worker: NotifierProcess): Promise<number> {
  const text = await (await fetch(`${worker.statusUrl}/metrics`)).text();
  return Number(/^notifier_notifications_delivered_total (\d+)/m.exec(text)?.[1] ?? 0);
}
