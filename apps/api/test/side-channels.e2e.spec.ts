import {
  ApiProcess,
  WebhookReceiver,
  createAccount,
  expectFailure,
  expectSuccess,
  get,
  postForm,
  postJson,
} from '@gw/testing';

// CONTRACT section 11, 'Nothing leaks through side channels' (docs/api.md 4.4 and section 5): request
// logs show a webhookUrl as scheme, host and port only, and a 0008 for a non-public host says so
// without naming the address, its kind or what the name resolved to. Real API processes, their
// logs as written to stdout, a real receiver.

interface Instance {
  instanceid: string;
  token: string;
}

async function newInstance(api: ApiProcess, email: string): Promise<Instance> {
  const owner = createAccount(api.dataDir, email);
  return expectSuccess(
    await get(api.accountUrl, '/newInstance', { email: owner.email, token: owner.apikey, packageid: 'trial' }),
  );
}

describe('request logs and webhook URLs', () => {
  let api: ApiProcess;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    api = await ApiProcess.start({
      env: { ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', ALLOW_HTTP_WEBHOOKS: 'true', LOG_LEVEL: 'info' },
    });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await api.stop();
    api.removeData();
  });

  it("never prints a webhookUrl's user info, path or query, only its scheme, host and port", async () => {
    const instance = await newInstance(api, 'logs@example.com');
    const secretParts = ['usr-s3cret', 'pw-s3cret', 'path-s3cret', 'query-s3cret', 'frag-s3cret'];
    const url = `http://usr-s3cret:pw-s3cret@127.0.0.1:${receiver.port}/path-s3cret/hook?token=query-s3cret#frag-s3cret`;
    const origin = `http://127.0.0.1:${receiver.port}`;

    expectSuccess(await get(api.apiUrl, '/webhook', { ...instance, webhookUrl: url }));
    expectSuccess(
      await postJson(
        api.apiUrl,
        '/testWebhook',
        { instanceid: instance.instanceid },
        { token: instance.token, webhookUrl: url },
      ),
    );
    expectSuccess(await postForm(api.apiUrl, '/getWebhookStatus', { ...instance }, { webhookUrl: url }));
    expectSuccess(await get(api.accountUrl, '/webhook', { ...instance, webhookUrl: url }));
    // Refused ones are logged too: a form refusal, and an unknown operation's query.
    expectFailure(
      await get(api.apiUrl, '/webhook', { ...instance, webhookUrl: 'ftp://usr-s3cret@127.0.0.1/path-s3cret' }),
      ['0008'],
    );
    expectFailure(await get(api.apiUrl, '/nowhere', { webhookUrl: url }), ['0013'], 404);

    const lines = () =>
      api.output.split('\n').filter((line) => line.includes('"msg":"request"') && line.includes('webhookUrl='));
    const deadline = Date.now() + 5000;
    while (lines().length < 5 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    expect(lines().length).toBeGreaterThanOrEqual(5);
    expect(lines().filter((line) => line.includes(`webhookUrl=${origin}`)).length).toBeGreaterThanOrEqual(4);
    for (const part of secretParts) expect(api.output).not.toContain(part);
  });
});

describe('0008 for a host that is not public', () => {
  let api: ApiProcess;
  beforeAll(async () => {
    api = await ApiProcess.start();
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });

  it.each([
    ['a loopback literal', 'https://127.0.0.1/hook', '127.0.0.1'],
    ['a private literal', 'https://10.20.30.40/hook', '10.20.30.40'],
    ['a link-local literal', 'https://169.254.169.254/latest', '169.254.169.254'],
    ['an IPv6 loopback literal', 'https://[::1]/hook', '::1'],
    ['a name that is loopback', 'https://sneaky.localhost/hook', 'sneaky'],
    ['localhost with a trailing dot', 'https://localhost./hook', 'localhost'],
  ])(
    'says "not a public address" for %s, naming neither the address nor its kind',
    async (_what, webhookUrl, named) => {
      const instance = await newInstance(api, `refused-${Math.random().toString(36).slice(2)}@example.com`);
      for (const answer of [
        await get(api.apiUrl, '/webhook', { ...instance, webhookUrl }),
        await postJson(api.apiUrl, '/testWebhook', { ...instance, webhookUrl }),
      ]) {
        expectFailure(answer, ['0008']);
        expect(answer.json.details).toEqual([
          { code: '0008', field: 'webhookUrl', message: 'webhookUrl is not a public address' },
        ]);
        expect(answer.text).not.toContain(named);
        expect(answer.text).not.toMatch(/loopback|private|link-local|resolves|unique-local|multicast/i);
      }
    },
  );

  it('keeps naming the other 0008 reasons', async () => {
    const instance = await newInstance(api, 'forms@example.com');
    const reasons = async (webhookUrl: string) =>
      (await get(api.apiUrl, '/webhook', { ...instance, webhookUrl })).json.details.map(
        (d: { message: string }) => d.message,
      );
    expect(await reasons('http://hooks.example.com/a')).toEqual(['webhookUrl must be an https URL']);
    expect(await reasons(`https://hooks.example.com/${'a'.repeat(2048)}`)).toEqual([
      'webhookUrl must be at most 2048 characters',
    ]);
    expect(await reasons('https://hooks.example.com/a\\b')).toEqual(['webhookUrl must not contain a backslash']);
  });
});
