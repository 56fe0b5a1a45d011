import { ApiProcess, expectFailure, expectSuccess, recordingHttp } from '@gw/testing';
import { refused, setUp, type Instance } from './support/error-codes';

/** 0008 (docs/api.md section 3): the webhook URLs that registration refuses, and what the two
 * development switches lift. Every answer here goes through expectSuccess, expectFailure or
 * `refused`, which check its status, JSON type and envelope; error-codes.e2e checks the rest. */

const { get, postJson } = recordingHttp();

describe('error codes: webhook URLs (0008)', () => {
  let api: ApiProcess;
  let instance: Instance;
  beforeAll(async () => {
    api = await ApiProcess.start();
    ({ instance } = await setUp(api, get));
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });

  const webhook = (webhookUrl: string, token = instance.token) =>
    postJson(api.apiUrl, '/webhook', { instanceid: instance.instanceid, token, webhookUrl });
  const status = async (i = instance) => expectSuccess(await get(api.apiUrl, '/getWebhookStatus', { ...i }));

  const tooLong = `https://8.8.8.8/${'a'.repeat(2033)}`;
  it.each([
    ['an http: URL', 'http://8.8.8.8/hook'],
    ['a relative URL', '/hook'],
    ['a URL without scheme', '8.8.8.8/hook'],
    ['an ftp: URL', 'ftp://8.8.8.8/hook'],
    ['a URL over 2048 characters', tooLong],
    ['a URL with a space', 'https://8.8.8.8/a b'],
    ['a URL with a leading space', ' https://8.8.8.8/hook'],
    ['a loopback host', 'https://127.0.0.1/hook'],
    ['a private host', 'https://10.0.0.1/hook'],
    ['the link-local metadata host', 'https://169.254.169.254/latest'],
    ['an IPv6 loopback host', 'https://[::1]/hook'],
    ['an IPv4-mapped loopback host', 'https://[::ffff:127.0.0.1]/hook'],
    ['localhost, which resolves to loopback', 'https://localhost/hook'],
  ])('0008: %s is refused and the registered URL stays', async (_kind, url) => {
    expectSuccess(await webhook('https://8.8.8.8/kept'));
    await refused(webhook(url), ['0008'], ['webhookUrl']);
    expect(await status()).toMatchObject({ webhookUrl: 'https://8.8.8.8/kept', enabled: true });
  });

  it('0008 boundary: a URL of exactly 2048 characters is accepted', async () => {
    expect(expectSuccess(await webhook(tooLong.slice(0, 2048))).webhookUrl).toHaveLength(2048);
  });

  describe('with the development switches', () => {
    let httpApi: ApiProcess;
    let privateApi: ApiProcess;
    beforeAll(async () => {
      [httpApi, privateApi] = await Promise.all([
        ApiProcess.start({ env: { ALLOW_HTTP_WEBHOOKS: 'true' } }),
        ApiProcess.start({ env: { ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' } }),
      ]);
    });
    afterAll(async () => {
      for (const p of [httpApi, privateApi]) await p.stop().then(() => p.removeData());
    });
    const hook = async (target: ApiProcess, urls: string[]) => {
      const { instance: i } = await setUp(target, get);
      return Promise.all(urls.map((webhookUrl) => postJson(target.apiUrl, '/webhook', { ...i, webhookUrl })));
    };

    it('ALLOW_HTTP_WEBHOOKS=true accepts an http URL, but still no private host or other scheme', async () => {
      const [plain, loopback, ftp] = await hook(httpApi, [
        'http://8.8.8.8/hook',
        'http://127.0.0.1/hook',
        'ftp://8.8.8.8/hook',
      ]);
      expect(expectSuccess(plain)).toMatchObject({ webhookUrl: 'http://8.8.8.8/hook', enabled: true });
      expectFailure(loopback, ['0008']);
      expectFailure(ftp, ['0008']);
    });

    it('ALLOW_PRIVATE_WEBHOOK_TARGETS=true accepts localhost and private hosts, but still no http', async () => {
      const [local, loopback, plain] = await hook(privateApi, [
        'https://localhost/hook',
        'https://127.0.0.1/hook',
        'http://localhost/hook',
      ]);
      expect(expectSuccess(local)).toMatchObject({ webhookUrl: 'https://localhost/hook', enabled: true });
      expectSuccess(loopback);
      expectFailure(plain, ['0008']);
    });
  });
});
