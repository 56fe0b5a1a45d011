import {
  ApiProcess,
  createAccount,
  expectFailure,
  expectSuccess,
  expectThrottled,
  fromAddress,
  get,
  postJson,
  request,
} from '@gw/testing';

// Security review findings 1, 2, 5 and 9 (docs/api.md section 2): budgets keyed only on values that
// passed the form rules, spent only by whoever authenticated, and per source for everything else.
// Each client below is a distinct loopback source address.
const INTERNAL_TOKEN = 'budgets-spec-internal-token-0123456789';
const stranger = fromAddress('127.0.0.2');
const owner = fromAddress('127.0.0.3');
/** The gateway's address, which the public shares here (both on this machine). */
const gateway = fromAddress('127.0.0.1');

async function metric(api: ApiProcess, name: string, limit: string): Promise<number> {
  const text = (await request(`${api.internalUrl}/metrics`, { headers: { authorization: `Bearer ${INTERNAL_TOKEN}` } }))
    .text;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{limit="${limit}"}`));
  if (!line) throw new Error(`metric ${name}{limit="${limit}"} missing from:\n${text.slice(0, 500)}`);
  return Number(line.split(' ')[1]);
}

describe('rate-limit budgets', () => {
  let api: ApiProcess;
  afterEach(async () => {
    await api.stop();
    api.removeData();
  });

  it('keeps no bucket for values that failed the form rules, so junk cannot grow memory', async () => {
    api = await ApiProcess.start({
      env: { RATE_LIMIT_INSTANCE_PER_MINUTE: '600', RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '100000', INTERNAL_TOKEN },
    });
    for (let i = 0; i < 300; i++) {
      const junk = `${i}-`.padEnd(60_000, 'x');
      expectFailure(await postJson(api.apiUrl, '/getWebhookStatus', { instanceid: junk, token: 't' }), ['0002']);
    }
    // Nothing authenticated, so no instance bucket; the one source spent its own budget.
    expect(await metric(api, 'gw_rate_limit_keys', 'instance')).toBe(0);
    expect(await metric(api, 'gw_rate_limit_bytes', 'instance')).toBe(0);
    expect(await metric(api, 'gw_rate_limit_keys', 'source')).toBe(1);
    expect(await metric(api, 'gw_rate_limit_bytes', 'source')).toBeLessThan(1024);
  });

  it('does not let a stranger spend an account budget without its key', async () => {
    api = await ApiProcess.start({
      env: { RATE_LIMIT_ACCOUNT_PER_MINUTE: '20', RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '30' },
    });
    const bob = createAccount(api.dataDir, 'bob@example.com');
    for (let i = 0; i < 20; i++)
      expectFailure(await stranger.get(api.accountUrl, '/listInstances', { email: bob.email }), ['0001']);
    for (let i = 0; i < 10; i++) {
      expectFailure(
        await stranger.get(api.accountUrl, '/listInstances', { email: bob.email, apikey: `gwk_wrong${i}` }),
        ['0003'],
      );
    }
    // 30 failures spent the stranger's own budget: it is refused, even with a right key.
    expectThrottled(await stranger.get(api.accountUrl, '/listInstances', { email: bob.email, apikey: bob.apikey }));
    expectSuccess(await owner.get(api.accountUrl, '/listInstances', { email: bob.email, apikey: bob.apikey }));
  });

  it('does not let a stranger spend an instance budget without its token', async () => {
    api = await ApiProcess.start({
      env: { RATE_LIMIT_INSTANCE_PER_MINUTE: '20', RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '1000' },
    });
    const account = createAccount(api.dataDir, 'carol@example.com');
    const instance = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'trial' }),
    );
    for (let i = 0; i < 25; i++)
      expectFailure(await stranger.postJson(api.apiUrl, '/getWebhookStatus', { instanceid: instance.instanceid }), [
        '0001',
      ]);
    for (let i = 0; i < 25; i++) {
      expectFailure(
        await stranger.postJson(api.apiUrl, '/getWebhookStatus', {
          instanceid: instance.instanceid,
          token: `gwt_no${i}`,
        }),
        ['0006'],
      );
    }
    for (let i = 0; i < 20; i++)
      expectSuccess(
        await owner.postJson(api.apiUrl, '/getWebhookStatus', {
          instanceid: instance.instanceid,
          token: instance.token,
        }),
      );
    // The owner's own 20 requests spent the instance's budget, whoever sends the next one.
    expectThrottled(
      await stranger.postJson(api.apiUrl, '/getWebhookStatus', {
        instanceid: instance.instanceid,
        token: instance.token,
      }),
    );
  });

  it('throttles wrong bearer tokens on the ingest host per source, after routing', async () => {
    api = await ApiProcess.start({ env: { RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '5', INTERNAL_TOKEN } });
    const message = { id: 'm1', chatId: 'c1', time: 1_700_000_000 };
    const wrong = { authorization: 'Bearer not-the-token-at-all' };
    const right = { authorization: `Bearer ${INTERNAL_TOKEN}` };
    for (let i = 0; i < 5; i++)
      expectFailure(await stranger.postJson(api.internalUrl, '/instances/abc/messages', message, wrong), ['0014'], 401);
    expectThrottled(await stranger.postJson(api.internalUrl, '/instances/abc/messages', message, wrong), 429);
    expectThrottled(await stranger.postJson(api.internalUrl, '/instances/abc/messages', message, right), 429);
    // Routing still comes first, and the gateway at another address is not affected.
    expectFailure(await stranger.request(`${api.internalUrl}/nowhere`), ['0013'], 404);
    expectFailure(await owner.postJson(api.internalUrl, '/instances/abc/messages', message, right), ['0005'], 404);
  });

  it('never refuses the gateway on the ingest host because of public failures from its address', async () => {
    api = await ApiProcess.start({ env: { RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '30', INTERNAL_TOKEN } });
    const account = createAccount(api.dataDir, 'gateway-owner@example.com');
    const instance = expectSuccess(
      await owner.get(api.accountUrl, '/newInstance', {
        email: account.email,
        token: account.apikey,
        packageid: 'trial',
      }),
    );
    // 30 failed requests on the public hosts from the gateway's own address (and one more, refused).
    for (let i = 0; i < 15; i++)
      expectFailure(
        await gateway.get(api.accountUrl, '/listInstances', { email: account.email, apikey: `gwk_wrong${i}` }),
        ['0003'],
      );
    for (let i = 0; i < 15; i++)
      expectFailure(
        await gateway.postJson(api.apiUrl, '/getWebhookStatus', {
          instanceid: instance.instanceid,
          token: `gwt_no${i}`,
        }),
        ['0006'],
      );
    expectThrottled(
      await gateway.get(api.accountUrl, '/listInstances', { email: account.email, apikey: account.apikey }),
    );
    expectThrottled(
      await gateway.postJson(api.apiUrl, '/getWebhookStatus', {
        instanceid: instance.instanceid,
        token: instance.token,
      }),
    );

    const right = { authorization: `Bearer ${INTERNAL_TOKEN}` };
    for (let i = 0; i < 40; i++) {
      const recorded = await gateway.postJson(
        api.internalUrl,
        `/instances/${instance.instanceid}/messages`,
        { id: `gw-${i}`, chatId: 'c1', time: 1_700_000_000 },
        right,
      );
      expect(recorded.status).toBe(202);
    }
    // The other way round too: wrong bearer tokens spend the ingest host's budget only.
    const wrong = { authorization: 'Bearer not-the-token-at-all' };
    for (let i = 0; i < 30; i++)
      expectFailure(
        await owner.postJson(api.internalUrl, '/instances/abc/messages', { id: 'm', chatId: 'c', time: 1 }, wrong),
        ['0014'],
        401,
      );
    expectThrottled(
      await owner.postJson(api.internalUrl, '/instances/abc/messages', { id: 'm', chatId: 'c', time: 1 }, right),
      429,
    );
    expectSuccess(await owner.get(api.accountUrl, '/listInstances', { email: account.email, apikey: account.apikey }));
  });

  it('does not echo the path in a 405 on the ingest host', async () => {
    api = await ApiProcess.start();
    const answer = await request(`${api.internalUrl}/instances/secret-looking-id-4711/messages`);
    expectFailure(answer, ['0013'], 405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.text).not.toContain('secret-looking-id-4711');
  });
});
