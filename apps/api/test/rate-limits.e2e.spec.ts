import { ApiProcess, createAccount, expectFailure, expectSuccess, expectThrottled, get, postJson } from '@gw/testing';

describe('rate limits (0010)', () => {
  let api: ApiProcess;
  afterEach(async () => {
    await api.stop();
    api.removeData();
  });

  it('limits each account on the account host, and leaves other accounts alone', async () => {
    api = await ApiProcess.start({ env: { RATE_LIMIT_ACCOUNT_PER_MINUTE: '5' } });
    const ann = createAccount(api.dataDir, 'ann@example.com');
    const bob = createAccount(api.dataDir, 'bob@example.com');
    for (let i = 0; i < 5; i++)
      expectSuccess(await get(api.accountUrl, '/listInstances', { email: ann.email, apikey: ann.apikey }));
    expectThrottled(await get(api.accountUrl, '/listInstances', { email: 'ANN@example.com', apikey: ann.apikey }));
    expectThrottled(
      await get(api.accountUrl, '/newInstance', { email: ann.email, token: ann.apikey, packageid: 'trial' }),
    );
    expectSuccess(await get(api.accountUrl, '/listInstances', { email: bob.email, apikey: bob.apikey }));
  });

  it('limits each instance on the instance host, and leaves other instances alone', async () => {
    api = await ApiProcess.start({ env: { RATE_LIMIT_INSTANCE_PER_MINUTE: '4' } });
    const owner = createAccount(api.dataDir, 'owner@example.com');
    const [a, b] = [
      expectSuccess(
        await get(api.accountUrl, '/newInstance', { email: owner.email, token: owner.apikey, packageid: 'trial' }),
      ),
      expectSuccess(
        await get(api.accountUrl, '/newInstance', { email: owner.email, token: owner.apikey, packageid: 'trial' }),
      ),
    ];
    const status = (i: { instanceid: string; token: string }) =>
      postJson(api.apiUrl, '/getWebhookStatus', { instanceid: i.instanceid, token: i.token });
    for (let n = 0; n < 4; n++) expectSuccess(await status(a));
    expectThrottled(await status(a));
    expectThrottled(
      await postJson(api.apiUrl, '/webhook', { instanceid: a.instanceid, token: a.token, webhookUrl: '' }),
    );
    expectSuccess(await status(b));
  });

  it('slows down guessing: after too many failed logins from one address, even right credentials wait', async () => {
    api = await ApiProcess.start({ env: { RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '3' } });
    const owner = createAccount(api.dataDir, 'guarded@example.com');
    const instance = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email: owner.email, token: owner.apikey, packageid: 'trial' }),
    );
    for (let n = 0; n < 2; n++)
      expectFailure(await get(api.accountUrl, '/listInstances', { email: owner.email, apikey: `gwk_wrong${n}` }), [
        '0003',
      ]);
    expectFailure(
      await postJson(api.apiUrl, '/getWebhookStatus', { instanceid: instance.instanceid, token: 'gwt_wrong' }),
      ['0006'],
    );
    expectThrottled(
      await postJson(api.apiUrl, '/getWebhookStatus', { instanceid: instance.instanceid, token: instance.token }),
    );
    expectThrottled(await get(api.accountUrl, '/listInstances', { email: owner.email, apikey: owner.apikey }));
    // The limit is per source: /healthz and the ingest host are not behind it.
    expectSuccess(await get(api.apiUrl, '/healthz'));
  });
});
