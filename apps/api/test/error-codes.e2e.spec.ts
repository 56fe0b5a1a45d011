import Database from 'better-sqlite3';
import { join } from 'node:path';
import { ApiProcess, createAccount } from '@gw/testing';
import { expectFailure, expectSuccess, type Answer } from '@gw/testing';
import { malformedAnswers, recordingHttp } from '@gw/testing';
import { startWithExpiredInstance, type ExpiredInstanceSetup } from '@gw/testing';
import { DAY_MS } from '@gw/testing';

/** Each error code of CONTRACT section 3 (but 0010 and 0014), caused the way a real client would. */

type Account = { email: string; apikey: string };
type Instance = { instanceid: string; token: string };

const http = recordingHttp();
const { get, postJson, postForm, request } = http;
const fieldsOf = (answer: Answer) => answer.json.details.map((d: { field?: string }) => d.field);
/** The failure envelope with these codes and, when given, exactly these fields in `details`. */
async function refused(pending: Promise<Answer>, codes: string[], fields?: string[]): Promise<Answer> {
  const answer = await pending;
  expectFailure(answer, codes);
  if (fields) expect(fieldsOf(answer)).toEqual(fields);
  return answer;
}
let seq = 0;

async function setUp(api: ApiProcess, packageid = 'trial'): Promise<{ who: Account; instance: Instance }> {
  const who = createAccount(api.dataDir, `codes-${++seq}@example.com`);
  const instance = expectSuccess(await get(api.accountUrl, '/newInstance', { email: who.email, token: who.apikey, packageid }));
  return { who, instance: { instanceid: instance.instanceid, token: instance.token } };
}

describe('error codes', () => {
  let api: ApiProcess;
  let owner: Account;
  let instance: Instance;
  beforeAll(async () => {
    api = await ApiProcess.start({ env: { STORE_LOCK_TIMEOUT_MS: '300' } });
    ({ who: owner, instance } = await setUp(api));
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });

  const account = (path: string, params: Record<string, string>) => get(api.accountUrl, path, params);
  const webhook = (webhookUrl: string, token = instance.token) => postJson(api.apiUrl, '/webhook', { instanceid: instance.instanceid, token, webhookUrl });
  const status = async (i = instance) => expectSuccess(await get(api.apiUrl, '/getWebhookStatus', { ...i }));

  it('0013: an unknown path answers 404 on either host, also for an operation of the other host', async () => {
    for (const [base, path] of [[api.accountUrl, '/nope'], [api.apiUrl, '/nope'], [api.accountUrl, '/getWebhookStatus'], [api.apiUrl, '/newInstance']]) {
      expectFailure(await request(`${base}${path}`), ['0013'], 404);
    }
  });

  it.each([
    ['POST', 'account', '/newInstance', ['GET']],
    ['POST', 'account', '/webhook', ['GET']],
    ['DELETE', 'instance', '/webhook', ['GET', 'POST']],
    ['PUT', 'instance', '/getWebhookStatus', ['GET', 'POST']],
  ])('0013: %s on the %s host %s answers 405 with an Allow header', async (method, host, path, allowed) => {
    const answer = await request(`${host === 'account' ? api.accountUrl : api.apiUrl}${path}`, { method });
    expectFailure(answer, ['0013'], 405);
    const allow = (answer.headers.get('allow') ?? '').split(',').map((m) => m.trim());
    expect(allow).toEqual(expect.arrayContaining(allowed));
    expect(allow).not.toContain(method);
  });

  it('0001: every missing or empty required parameter is reported at once, with the code once in msg', async () => {
    for (const params of [{}, { email: '', token: '', packageid: '' }] as Record<string, string>[]) {
      await refused(account('/newInstance', params), ['0001'], ['email', 'token', 'packageid']);
    }
    await refused(account('/renewInstance', { email: owner.email, apikey: '' }), ['0001'], ['apikey', 'packageid', 'instanceid']);
    await refused(postJson(api.apiUrl, '/webhook', {}), ['0001'], ['instanceid', 'token', 'webhookUrl']);
    await refused(postForm(api.apiUrl, '/getWebhookStatus', { instanceid: instance.instanceid, token: '' }), ['0001'], ['token']);
  });

  it.each([['a number', 42], ['an array', ['x']], ['an object', { v: 'x' }], ['null', null], ['a boolean', true]])(
    '0002: a JSON parameter that is %s instead of a string',
    async (_kind, value) => {
      await refused(postJson(api.apiUrl, '/getWebhookStatus', { instanceid: instance.instanceid, token: value }), ['0002'], ['token']);
      // The body's malformed value wins over a good one in the query string.
      await refused(postJson(api.apiUrl, '/webhook', { ...instance, webhookUrl: value }, { webhookUrl: '' }), ['0002'], ['webhookUrl']);
    },
  );

  it('0002: control characters, too-long values, malformed e-mail addresses and repeated names', async () => {
    const malformed = (answer: Promise<Answer>, field: string) => refused(answer, ['0002'], [field]);
    await malformed(account('/listInstances', { email: owner.email, apikey: `${owner.apikey}\u0001` }), 'apikey');
    await malformed(account('/listInstances', { email: `${owner.email}\n`, apikey: owner.apikey }), 'email');
    await malformed(postJson(api.apiUrl, '/getWebhookStatus', { instanceid: `${instance.instanceid}\u007f`, token: instance.token }), 'instanceid');
    await malformed(get(api.apiUrl, '/getWebhookStatus', { instanceid: 'i'.repeat(129), token: instance.token }), 'instanceid');
    expectFailure(await get(api.apiUrl, '/getWebhookStatus', { instanceid: 'i'.repeat(128), token: instance.token }), ['0006']);
    await malformed(account('/listInstances', { email: `${'a'.repeat(243)}@example.com`, apikey: owner.apikey }), 'email');
    await malformed(account('/newInstance', { email: owner.email, token: 't'.repeat(513), packageid: 'trial' }), 'token');
    await malformed(account('/newInstance', { email: owner.email, token: owner.apikey, packageid: 'p'.repeat(65) }), 'packageid');
    for (const email of ['not-an-email', 'a@', '@example.com', 'a b@example.com']) {
      await malformed(account('/listInstances', { email, apikey: owner.apikey }), 'email');
    }
    await malformed(request(`${api.accountUrl}/listInstances?email=${owner.email}&email=${owner.email}&apikey=${owner.apikey}`), 'email');
    const form = `instanceid=${instance.instanceid}&token=${instance.token}&token=${instance.token}`;
    await malformed(request(`${api.apiUrl}/getWebhookStatus`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }), 'token');
    const repeatedKey = `{"instanceid":"${instance.instanceid}","token":"${instance.token}","token":"${instance.token}"}`;
    await malformed(postJson(api.apiUrl, '/getWebhookStatus', repeatedKey), 'token');
  });

  it('0001 and 0002 together: every problem of the form stage, msg in order of first occurrence', async () => {
    const answer = await refused(account('/newInstance', { email: 'bad', token: '' }), ['0002', '0001']);
    expect(answer.json.details.map((d: { code: string; field: string }) => `${d.field}:${d.code}`)).toEqual(['email:0002', 'token:0001', 'packageid:0001']);
  });

  it('0003: an unknown e-mail and a wrong API key give identical answers', async () => {
    const other = createAccount(api.dataDir, `codes-${++seq}@example.com`);
    const lists = [
      await account('/listInstances', { email: 'nobody@example.com', apikey: owner.apikey }),
      await account('/listInstances', { email: owner.email, apikey: `${owner.apikey}x` }),
      await account('/listInstances', { email: owner.email, apikey: other.apikey }),
    ];
    const creates = [
      await account('/newInstance', { email: 'nobody@example.com', token: owner.apikey, packageid: 'trial' }),
      await account('/newInstance', { email: owner.email, token: other.apikey, packageid: 'trial' }),
    ];
    for (const group of [lists, creates]) {
      group.forEach((a) => expectFailure(a, ['0003']));
      expect(new Set(group.map((a) => a.text)).size).toBe(1);
    }
  });

  it('0004: an unknown packageid, on newInstance and renewInstance, creates and changes nothing', async () => {
    const { who, instance: mine } = await setUp(api);
    const before = expectSuccess(await account('/listInstances', { email: who.email, apikey: who.apikey }));
    expectFailure(await account('/newInstance', { email: who.email, token: who.apikey, packageid: 'platinum' }), ['0004']);
    expectFailure(await account('/renewInstance', { email: who.email, apikey: who.apikey, instanceid: mine.instanceid, packageid: 'Trial' }), ['0004']);
    expect(expectSuccess(await account('/listInstances', { email: who.email, apikey: who.apikey }))).toEqual(before);
  });

  it("0005: renewing another account's instance or a nonexistent one gives identical answers", async () => {
    const { who } = await setUp(api);
    const renew = (instanceid: string) => account('/renewInstance', { email: who.email, apikey: who.apikey, instanceid, packageid: 'annual' });
    const answers = [await renew(instance.instanceid), await renew('0123456789abcdef01234567')];
    answers.forEach((a) => expectFailure(a, ['0005']));
    expect(answers[0].text).toBe(answers[1].text);
    const listed = expectSuccess(await account('/listInstances', { email: owner.email, apikey: owner.apikey }));
    expect(listed.instances[0].packageid).toBe('trial');
  });

  it('0006: a wrong token and an unknown instanceid give identical answers on every instance operation', async () => {
    const { instance: other } = await setUp(api);
    const sends = [
      (i: Instance) => get(api.apiUrl, '/getWebhookStatus', { ...i }),
      (i: Instance) => postJson(api.apiUrl, '/webhook', { ...i, webhookUrl: 'https://8.8.8.8/x' }),
      (i: Instance) => get(api.accountUrl, '/webhook', { ...i, webhookUrl: '' }),
    ];
    for (const send of sends) {
      const answers = [
        await send({ instanceid: instance.instanceid, token: `${instance.token}x` }),
        await send({ instanceid: instance.instanceid, token: other.token }),
        await send({ instanceid: 'ffffffffffffffffffffffff', token: instance.token }),
      ];
      answers.forEach((a) => expectFailure(a, ['0006']));
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    }
  });

  it('stages: a form problem hides bad credentials, bad credentials hide the rest, stage 3 reports all', async () => {
    expectFailure(await account('/newInstance', { email: owner.email, token: 'wrong' }), ['0001']);
    expectFailure(await account('/newInstance', { email: owner.email, token: 'wrong', packageid: 'platinum' }), ['0003']);
    expectFailure(await account('/renewInstance', { email: owner.email, apikey: owner.apikey, instanceid: 'ffffffffffffffffffffffff', packageid: 'platinum' }), ['0004', '0005']);
    expectFailure(await postJson(api.apiUrl, '/webhook', { instanceid: instance.instanceid, token: 'wrong' }), ['0001']);
    expectFailure(await webhook('http://8.8.8.8/hook', 'wrong'), ['0008']);
    expectFailure(await webhook('https://127.0.0.1/hook', 'wrong'), ['0006']);
  });

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
      const { instance: i } = await setUp(target);
      return Promise.all(urls.map((webhookUrl) => postJson(target.apiUrl, '/webhook', { ...i, webhookUrl })));
    };

    it('ALLOW_HTTP_WEBHOOKS=true accepts an http URL, but still no private host or other scheme', async () => {
      const [plain, loopback, ftp] = await hook(httpApi, ['http://8.8.8.8/hook', 'http://127.0.0.1/hook', 'ftp://8.8.8.8/hook']);
      expect(expectSuccess(plain)).toMatchObject({ webhookUrl: 'http://8.8.8.8/hook', enabled: true });
      expectFailure(loopback, ['0008']);
      expectFailure(ftp, ['0008']);
    });

    it('ALLOW_PRIVATE_WEBHOOK_TARGETS=true accepts localhost and private hosts, but still no http', async () => {
      const [local, loopback, plain] = await hook(privateApi, ['https://localhost/hook', 'https://127.0.0.1/hook', 'http://localhost/hook']);
      expect(expectSuccess(local)).toMatchObject({ webhookUrl: 'https://localhost/hook', enabled: true });
      expectSuccess(loopback);
      expectFailure(plain, ['0008']);
    });
  });

  describe('0009: unreadable bodies', () => {
    const post = (headers: Record<string, string>, body: string | Uint8Array) =>
      request(`${api.apiUrl}/getWebhookStatus`, { method: 'POST', headers, body });
    const json = { 'content-type': 'application/json' };
    const padded = (bytes: number) => JSON.stringify({ ...instance, pad: 'x'.repeat(bytes - JSON.stringify({ ...instance, pad: '' }).length) });

    it.each([
      ['malformed JSON', json, '{"instanceid": "x",'],
      ['a JSON array', json, '["instanceid", "token"]'],
      ['a JSON string', json, '"instanceid"'],
      ['text/plain', { 'content-type': 'text/plain' }, 'instanceid=x&token=y'],
      ['no content type', {}, new TextEncoder().encode('instanceid=x&token=y')],
      ['an unsupported charset', { 'content-type': 'application/json; charset=iso-8859-1' }, '{"token": "x"}'],
      ['invalid UTF-8', json, new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d])],
      ['a malformed form escape', { 'content-type': 'application/x-www-form-urlencoded' }, 'instanceid=%E0%A4%A&token=x'],
    ])('%s answers 0009 alone, and the server answers the next request', async (_kind, headers, body) => {
      expectFailure(await post(headers as Record<string, string>, body), ['0009']);
      await status();
    });

    it('a body over 64 KiB answers 0009, one of exactly 64 KiB is read, and the server keeps answering', async () => {
      expect(expectSuccess(await post(json, padded(65_536))).instanceStatus).toBe('active');
      expectFailure(await post(json, padded(65_537)), ['0009']);
      expectFailure(await post(json, padded(200_000)), ['0009']);
      await status();
    });
  });

  it('0011: while another process holds the store’s write lock, writes answer 0011; retried later, they succeed', async () => {
    const { who, instance: mine } = await setUp(api);
    const create = () => account('/newInstance', { email: who.email, token: who.apikey, packageid: 'trial' });
    const db = new Database(join(api.dataDir, 'events.sqlite'));
    try {
      db.exec('BEGIN IMMEDIATE');
      expectFailure(await create(), ['0011']);
      expectFailure(await postJson(api.apiUrl, '/webhook', { ...mine, webhookUrl: 'https://8.8.8.8/locked' }), ['0011']);
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
    const created = expectSuccess(await create());
    const listed = expectSuccess(await account('/listInstances', { email: who.email, apikey: who.apikey }));
    expect(listed.instances.map((i: Instance) => i.instanceid)).toEqual([mine.instanceid, created.instanceid]);
    expect(await status(mine)).toMatchObject({ webhookUrl: '', enabled: false });
  });

  describe('0007: an expired instance', () => {
    let expired: ExpiredInstanceSetup;
    beforeAll(async () => {
      expired = await startWithExpiredInstance();
    });
    afterAll(() => expired.stop());
    const creds = () => ({ instanceid: expired.instance.instanceid, token: expired.instance.token });
    const hook = (params: Record<string, string>) => postJson(expired.api.apiUrl, '/webhook', { ...creds(), ...params });
    const statusLater = async () => expectSuccess(await get(expired.api.apiUrl, '/getWebhookStatus', creds()));
    const listLater = async () =>
      expectSuccess(await get(expired.api.accountUrl, '/listInstances', { email: expired.who.email, apikey: expired.who.apikey })).instances[0];

    it('shows as expired with delivery off, and refuses every webhook change with 0007', async () => {
      const { webhookUrl } = expired;
      expect(await statusLater()).toMatchObject({ webhookUrl, enabled: false, instanceStatus: 'expired' });
      expect(await listLater()).toMatchObject({ status: 'expired', webhookEnabled: false, webhookUrl });
      await refused(hook({ webhookUrl: 'https://8.8.8.8/new' }), ['0007']);
      await refused(hook({ webhookUrl: '' }), ['0007']);
      await refused(get(expired.api.accountUrl, '/webhook', { ...creds(), webhookUrl: 'https://8.8.8.8/new' }), ['0007']);
      await refused(hook({ webhookUrl: 'https://10.0.0.1/new' }), ['0007', '0008']);
      await refused(hook({ token: 'wrong', webhookUrl: 'https://8.8.8.8/new' }), ['0006']);
      expect(await statusLater()).toMatchObject({ webhookUrl, instanceStatus: 'expired' });
    });

    it('renewing counts from now and brings it back: delivery is on again by itself and changes succeed', async () => {
      const { api: later, who, instance: i, offsetMs, webhookUrl } = expired;
      const before = Date.now() + offsetMs;
      const renewed = expectSuccess(await get(later.accountUrl, '/renewInstance', { email: who.email, apikey: who.apikey, instanceid: i.instanceid, packageid: 'trial' }));
      const expires = Date.parse(renewed.expiresAt);
      expect(expires).toBeGreaterThanOrEqual(before + 3 * DAY_MS - 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + offsetMs + 3 * DAY_MS + 1000);
      expect(expires).toBeGreaterThan(Date.parse(i.expiresAt) + 3 * DAY_MS);
      expect(await statusLater()).toMatchObject({ webhookUrl, enabled: true, instanceStatus: 'active' });
      expect(await listLater()).toMatchObject({ status: 'active', webhookEnabled: true, expiresAt: renewed.expiresAt });
      expectSuccess(await hook({ webhookUrl: 'https://8.8.8.8/renewed' }));
    });
  });

  describe('0012: concurrent changes to one instance', () => {
    // Another process (a replica, say) holds the store's write lock for a moment while 30 changes to one
    // instance arrive: those that come in meanwhile read the same revision and wait for the lock, so
    // once it is free only the first write lands as decided and the others meet a real conflict.
    // (Interleaving through the DNS lookup of `localhost` is not possible: with
    // ALLOW_PRIVATE_WEBHOOK_TARGETS=true no lookup is made.)
    let noRetries: ApiProcess;
    let defaultRetries: ApiProcess;
    beforeAll(async () => {
      [noRetries, defaultRetries] = await Promise.all([ApiProcess.start({ env: { CONFLICT_RETRIES: '0' } }), ApiProcess.start()]);
    });
    afterAll(async () => {
      for (const p of [noRetries, defaultRetries]) await p.stop().then(() => p.removeData());
    });
    const burst = async (target: ApiProcess, i: Instance) => {
      const db = new Database(join(target.dataDir, 'events.sqlite'));
      db.exec('BEGIN IMMEDIATE');
      const pending = Array.from({ length: 30 }, (_, n) => postJson(target.apiUrl, '/webhook', { ...i, webhookUrl: `https://8.8.8.8/${n % 2 ? 'a' : 'b'}` }));
      await new Promise((resolve) => setTimeout(resolve, 200));
      db.exec('ROLLBACK');
      db.close();
      const answers = await Promise.all(pending);
      const conflicts = answers.filter((a) => a.json?.msg?.[0] === '0012');
      conflicts.forEach((a) => expectFailure(a, ['0012']));
      answers.filter((a) => !conflicts.includes(a)).forEach((a) => expect(expectSuccess(a).enabled).toBe(true));
      return conflicts.length;
    };

    it('with CONFLICT_RETRIES=0 some answers are 0012 and all the others succeed', async () => {
      const { instance: i } = await setUp(noRetries);
      let conflicts = 0;
      for (let round = 0; round < 5 && conflicts === 0; round++) conflicts += await burst(noRetries, i);
      expect(conflicts).toBeGreaterThan(0);
      expect((await get(noRetries.apiUrl, '/getWebhookStatus', { ...i })).json.webhookUrl).toMatch(/^https:\/\/8\.8\.8\.8\/[ab]$/);
    });

    it('with the default retries the same bursts never answer 0012', async () => {
      const { instance: i } = await setUp(defaultRetries);
      for (let round = 0; round < 3; round++) expect(await burst(defaultRetries, i)).toBe(0);
    });
  });

  it('produced every code above, and never a 5xx, HTML, an empty body or anything but a JSON envelope', () => {
    const codes = new Set(http.answers.flatMap(({ answer }) => answer.json?.msg ?? []));
    expect([...codes].sort()).toEqual(['0001', '0002', '0003', '0004', '0005', '0006', '0007', '0008', '0009', '0011', '0012', '0013']);
    expect(malformedAnswers(http.answers)).toEqual([]);
  });
});
