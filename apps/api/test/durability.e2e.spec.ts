import { rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiProcess, createAccount } from '@gw/testing';
import { expectSuccess, get, postJson } from '@gw/testing';

describe('nothing acknowledged is lost', () => {
  let api: ApiProcess;
  let account: { email: string; apikey: string };

  beforeAll(async () => {
    api = await ApiProcess.start();
    account = createAccount(api.dataDir, 'durable@example.com');
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });

  const list = async () =>
    expectSuccess(await get(api.accountUrl, '/listInstances', { email: account.email, apikey: account.apikey }));

  it('keeps every change answered with success when the API is killed with SIGKILL right after', async () => {
    const created = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'trial' }),
    );
    const renewed = expectSuccess(
      await get(api.accountUrl, '/renewInstance', {
        email: account.email,
        apikey: account.apikey,
        instanceid: created.instanceid,
        packageid: 'annual',
      }),
    );
    const registered = expectSuccess(
      await postJson(api.apiUrl, '/webhook', {
        instanceid: created.instanceid,
        token: created.token,
        webhookUrl: 'https://8.8.8.8/after-kill',
      }),
    );
    expect(registered.signingSecret).toMatch(/^whsec_/);

    expect(await api.stop('SIGKILL')).toBeNull();
    await api.start();

    const after = await list();
    expect(after.instances).toContainEqual(
      expect.objectContaining({
        instanceid: created.instanceid,
        packageid: 'annual',
        expiresAt: renewed.expiresAt,
        webhookUrl: 'https://8.8.8.8/after-kill',
        webhookEnabled: true,
      }),
    );
    const status = expectSuccess(
      await postJson(api.apiUrl, '/getWebhookStatus', { instanceid: created.instanceid, token: created.token }),
    );
    expect(status).toEqual({
      success: true,
      webhookUrl: 'https://8.8.8.8/after-kill',
      enabled: true,
      instanceStatus: 'active',
      events: ['messages', 'ownMessages', 'acks'],
      signingSecret: registered.signingSecret,
      signatureScheme: 'hmac',
      webhookHeaders: {},
      health: { consecutiveFailures: 0, failingSince: null, lastSuccessAt: null },
    });
  });

  it('rebuilds deleted read models from the log to identical answers', async () => {
    const instances: Array<{ instanceid: string; token: string }> = [];
    for (let i = 0; i < 5; i++) {
      instances.push(
        expectSuccess(
          await get(api.accountUrl, '/newInstance', {
            email: account.email,
            token: account.apikey,
            packageid: 'monthly',
          }),
        ),
      );
    }
    expectSuccess(await postJson(api.apiUrl, '/webhook', { ...pick(instances[1]), webhookUrl: 'https://8.8.8.8/one' }));
    expectSuccess(await postJson(api.apiUrl, '/webhook', { ...pick(instances[2]), webhookUrl: 'https://8.8.8.8/two' }));
    expectSuccess(await postJson(api.apiUrl, '/webhook', { ...pick(instances[2]), webhookUrl: '' }));
    expectSuccess(
      await get(api.accountUrl, '/renewInstance', {
        email: account.email,
        apikey: account.apikey,
        instanceid: instances[3].instanceid,
        packageid: 'trial',
      }),
    );

    const answers = async () => ({
      list: await list(),
      statuses: await Promise.all(
        instances.map(async (i) => (await postJson(api.apiUrl, '/getWebhookStatus', pick(i))).json),
      ),
    });
    const before = await answers();

    await api.stop();
    const readModels = join(api.dataDir, 'read-models.sqlite');
    expect(existsSync(readModels)).toBe(true);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${readModels}${suffix}`, { force: true });
    await api.start();

    expect(await answers()).toEqual(before);
  });
});

function pick(instance: { instanceid: string; token: string }) {
  return { instanceid: instance.instanceid, token: instance.token };
}
