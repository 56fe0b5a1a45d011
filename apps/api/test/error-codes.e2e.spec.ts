import {
  ApiProcess,
  createAccount,
  expectFailure,
  expectSuccess,
  type Answer,
  malformedAnswers,
  recordingHttp,
} from '@gw/testing';
import { refused, setUp, type Account, type Instance } from './support/error-codes';

/** The error codes of docs/api.md section 3 that a request's form and credentials cause (0001 to 0006,
 * 0008, 0013), the way a real client would; error-codes-webhook-url.e2e covers the URLs 0008 refuses,
 * error-codes-state.e2e covers 0007, 0009, 0011 and 0012. */

const http = recordingHttp();
const { get, postJson, postForm, request } = http;

describe('error codes', () => {
  let api: ApiProcess;
  let owner: Account;
  let instance: Instance;
  beforeAll(async () => {
    api = await ApiProcess.start({ env: { STORE_LOCK_TIMEOUT_MS: '300' } });
    ({ who: owner, instance } = await setUp(api, get));
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });

  const account = (path: string, params: Record<string, string>) => get(api.accountUrl, path, params);
  const webhook = (webhookUrl: string, token = instance.token) =>
    postJson(api.apiUrl, '/webhook', { instanceid: instance.instanceid, token, webhookUrl });

  it('0013: an unknown path answers 404 on either host, also for an operation of the other host', async () => {
    for (const [base, path] of [
      [api.accountUrl, '/nope'],
      [api.apiUrl, '/nope'],
      [api.accountUrl, '/getWebhookStatus'],
      [api.apiUrl, '/newInstance'],
    ]) {
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
    await refused(
      account('/renewInstance', { email: owner.email, apikey: '' }),
      ['0001'],
      ['apikey', 'packageid', 'instanceid'],
    );
    await refused(postJson(api.apiUrl, '/webhook', {}), ['0001'], ['instanceid', 'token', 'webhookUrl']);
    await refused(
      postForm(api.apiUrl, '/getWebhookStatus', { instanceid: instance.instanceid, token: '' }),
      ['0001'],
      ['token'],
    );
  });

  it.each([
    ['a number', 42],
    ['an array', ['x']],
    ['an object', { v: 'x' }],
    ['null', null],
    ['a boolean', true],
  ])('0002: a JSON parameter that is %s instead of a string', async (_kind, value) => {
    await refused(
      postJson(api.apiUrl, '/getWebhookStatus', { instanceid: instance.instanceid, token: value }),
      ['0002'],
      ['token'],
    );
    // The body's malformed value wins over a good one in the query string.
    await refused(
      postJson(api.apiUrl, '/webhook', { ...instance, webhookUrl: value }, { webhookUrl: '' }),
      ['0002'],
      ['webhookUrl'],
    );
  });

  it('0002: control characters, too-long values, malformed e-mail addresses and repeated names', async () => {
    const malformed = (answer: Promise<Answer>, field: string) => refused(answer, ['0002'], [field]);
    await malformed(account('/listInstances', { email: owner.email, apikey: `${owner.apikey}\u0001` }), 'apikey');
    await malformed(account('/listInstances', { email: `${owner.email}\n`, apikey: owner.apikey }), 'email');
    // C1 controls too (U+0080 to U+009F): U+0085 is a line break to some readers.
    await malformed(
      postJson(api.apiUrl, '/getWebhookStatus', { instanceid: instance.instanceid, token: `a\u0085${instance.token}` }),
      'token',
    );
    await malformed(
      postJson(api.apiUrl, '/getWebhookStatus', { instanceid: `${instance.instanceid}\u007f`, token: instance.token }),
      'instanceid',
    );
    await malformed(
      get(api.apiUrl, '/getWebhookStatus', { instanceid: 'i'.repeat(129), token: instance.token }),
      'instanceid',
    );
    expectFailure(await get(api.apiUrl, '/getWebhookStatus', { instanceid: 'i'.repeat(128), token: instance.token }), [
      '0006',
    ]);
    await malformed(
      account('/listInstances', { email: `${'a'.repeat(243)}@example.com`, apikey: owner.apikey }),
      'email',
    );
    await malformed(
      account('/newInstance', { email: owner.email, token: 't'.repeat(513), packageid: 'trial' }),
      'token',
    );
    await malformed(
      account('/newInstance', { email: owner.email, token: owner.apikey, packageid: 'p'.repeat(65) }),
      'packageid',
    );
    for (const email of ['not-an-email', 'a@', '@example.com', 'a b@example.com']) {
      await malformed(account('/listInstances', { email, apikey: owner.apikey }), 'email');
    }
    await malformed(
      request(`${api.accountUrl}/listInstances?email=${owner.email}&email=${owner.email}&apikey=${owner.apikey}`),
      'email',
    );
    const form = `instanceid=${instance.instanceid}&token=${instance.token}&token=${instance.token}`;
    await malformed(
      request(`${api.apiUrl}/getWebhookStatus`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      }),
      'token',
    );
    const repeatedKey = `{"instanceid":"${instance.instanceid}","token":"${instance.token}","token":"${instance.token}"}`;
    await malformed(postJson(api.apiUrl, '/getWebhookStatus', repeatedKey), 'token');
  });

  it('0001 and 0002 together: every problem of the form stage, msg in order of first occurrence', async () => {
    const answer = await refused(account('/newInstance', { email: 'bad', token: '' }), ['0002', '0001']);
    expect(answer.json.details.map((d: { code: string; field: string }) => `${d.field}:${d.code}`)).toEqual([
      'email:0002',
      'token:0001',
      'packageid:0001',
    ]);
  });

  it('0003: an unknown e-mail and a wrong API key give identical answers', async () => {
    const other = createAccount(api.dataDir, `codes-other-${process.pid}@example.com`);
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
    const { who, instance: mine } = await setUp(api, get);
    const before = expectSuccess(await account('/listInstances', { email: who.email, apikey: who.apikey }));
    expectFailure(await account('/newInstance', { email: who.email, token: who.apikey, packageid: 'platinum' }), [
      '0004',
    ]);
    expectFailure(
      await account('/renewInstance', {
        email: who.email,
        apikey: who.apikey,
        instanceid: mine.instanceid,
        packageid: 'Trial',
      }),
      ['0004'],
    );
    expect(expectSuccess(await account('/listInstances', { email: who.email, apikey: who.apikey }))).toEqual(before);
  });

  it("0005: renewing another account's instance or a nonexistent one gives identical answers", async () => {
    const { who } = await setUp(api, get);
    const renew = (instanceid: string) =>
      account('/renewInstance', { email: who.email, apikey: who.apikey, instanceid, packageid: 'annual' });
    const answers = [await renew(instance.instanceid), await renew('0123456789abcdef01234567')];
    answers.forEach((a) => expectFailure(a, ['0005']));
    expect(answers[0].text).toBe(answers[1].text);
    const listed = expectSuccess(await account('/listInstances', { email: owner.email, apikey: owner.apikey }));
    expect(listed.instances[0].packageid).toBe('trial');
  });

  it('0006: a wrong token and an unknown instanceid give identical answers on every instance operation', async () => {
    const { instance: other } = await setUp(api, get);
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
    expectFailure(await account('/newInstance', { email: owner.email, token: 'wrong', packageid: 'platinum' }), [
      '0003',
    ]);
    expectFailure(
      await account('/renewInstance', {
        email: owner.email,
        apikey: owner.apikey,
        instanceid: 'ffffffffffffffffffffffff',
        packageid: 'platinum',
      }),
      ['0004', '0005'],
    );
    expectFailure(await postJson(api.apiUrl, '/webhook', { instanceid: instance.instanceid, token: 'wrong' }), [
      '0001',
    ]);
    expectFailure(await webhook('http://8.8.8.8/hook', 'wrong'), ['0008']);
    expectFailure(await webhook('https://127.0.0.1/hook', 'wrong'), ['0006']);
  });

  it('produced every code above, and never a 5xx, HTML, an empty body or anything but a JSON envelope', () => {
    const codes = new Set(http.answers.flatMap(({ answer }) => answer.json?.msg ?? []));
    expect([...codes].sort()).toEqual(['0001', '0002', '0003', '0004', '0005', '0006', '0008', '0013']);
    expect(malformedAnswers(http.answers)).toEqual([]);
  });
});
