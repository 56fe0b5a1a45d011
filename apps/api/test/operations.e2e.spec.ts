import { ApiProcess, createAccount } from '@gw/testing';
import { expectFailure, expectSuccess, get, postForm, postJson, request, type Answer } from '@gw/testing';

/** docs/api.md section 4 (except 4.8), end to end through the built API, with the default catalogue. */

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY_MS = 86_400_000;
const DURATION_DAYS: Record<string, number> = { trial: 3, monthly: 30, annual: 365 };
const LISTED_KEYS = [
  'createdAt',
  'events',
  'expiresAt',
  'label',
  'state',
  'instanceid',
  'packageid',
  'status',
  'webhookEnabled',
  'webhookUrl',
];
/** The notification kinds of an instance that never chose any (docs/api.md 8.4). */
const DEFAULT_EVENTS = ['messages', 'ownMessages', 'acks'];

type Account = { email: string; apikey: string };
type Instance = { instanceid: string; token: string };

/** Exactly these keys; `signingSecret` (section 6) may be present once a URL was registered. */
/** What webhook and getWebhookStatus always show of the receiver's options (docs/api.md section 12). */
const OPTION_KEYS = ['signatureScheme', 'webhookHeaders'];

function expectKeys(body: Record<string, unknown>, keys: string[]): void {
  const { signingSecret, ...rest } = body;
  expect(Object.keys(rest).sort()).toEqual([...keys].sort());
  if (signingSecret !== undefined) expect(signingSecret).toMatch(/^whsec_/);
}

describe('operations (docs/api.md section 4)', () => {
  let api: ApiProcess;
  let accountSeq = 0;
  beforeAll(async () => {
    api = await ApiProcess.start();
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });

  const account = (): Account => createAccount(api.dataDir, `ops-${++accountSeq}@example.com`);
  const newInstance = async (who: Account, packageid = 'trial') =>
    expectSuccess(await get(api.accountUrl, '/newInstance', { email: who.email, token: who.apikey, packageid }));
  const list = async (who: Account) =>
    expectSuccess(await get(api.accountUrl, '/listInstances', { email: who.email, apikey: who.apikey }))
      .instances as any[];
  const status = async (i: Instance) =>
    expectSuccess(await get(api.apiUrl, '/getWebhookStatus', { instanceid: i.instanceid, token: i.token }));
  const setWebhook = async (i: Instance, webhookUrl: string) =>
    expectSuccess(await postJson(api.apiUrl, '/webhook', { instanceid: i.instanceid, token: i.token, webhookUrl }));
  const listed = async (who: Account, i: Instance) => (await list(who)).find((row) => row.instanceid === i.instanceid);

  describe('account host', () => {
    it('the operator CLI prints the e-mail lowercased, and a new account lists no instances', async () => {
      const created = createAccount(api.dataDir, 'Mixed.Case@Example.COM');
      expect(created.email).toBe('mixed.case@example.com');
      expect(created.apikey).toMatch(/^\S{22,}$/);
      expect(await list(created)).toEqual([]);
    });

    it('newInstance answers instanceid, token, packageid, createdAt and expiresAt = createdAt + package duration', async () => {
      const who = account();
      const seen = new Set<string>();
      for (const packageid of ['trial', 'monthly', 'annual']) {
        const before = Date.now();
        const body = await newInstance(who, packageid);
        const after = Date.now();
        expectKeys(body, ['success', 'instanceid', 'token', 'packageid', 'createdAt', 'expiresAt']);
        expect(body.packageid).toBe(packageid);
        expect(typeof body.instanceid).toBe('string');
        expect(body.token).toMatch(/^\S{22,}$/);
        expect(body.createdAt).toMatch(ISO_MS);
        expect(body.expiresAt).toMatch(ISO_MS);
        expect(Date.parse(body.createdAt)).toBeGreaterThanOrEqual(before - 1000);
        expect(Date.parse(body.createdAt)).toBeLessThanOrEqual(after + 1000);
        expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(DURATION_DAYS[packageid] * DAY_MS);
        seen.add(body.instanceid).add(body.token);
      }
      expect(seen.size).toBe(6);
    });

    it('renewInstance on an active instance counts from its expiresAt and can change the package', async () => {
      const who = account();
      const created = await newInstance(who, 'trial');
      const renew = (packageid: string) =>
        get(api.accountUrl, '/renewInstance', {
          email: who.email,
          apikey: who.apikey,
          instanceid: created.instanceid,
          packageid,
        });

      const annual = expectSuccess(await renew('annual'));
      expectKeys(annual, ['success', 'instanceid', 'packageid', 'expiresAt']);
      expect(annual).toMatchObject({ instanceid: created.instanceid, packageid: 'annual' });
      expect(annual.expiresAt).toMatch(ISO_MS);
      expect(Date.parse(annual.expiresAt)).toBe(Date.parse(created.expiresAt) + 365 * DAY_MS);

      const monthly = expectSuccess(await renew('monthly'));
      expect(monthly.packageid).toBe('monthly');
      expect(Date.parse(monthly.expiresAt)).toBe(Date.parse(annual.expiresAt) + 30 * DAY_MS);

      expect(await listed(who, created)).toMatchObject({
        packageid: 'monthly',
        createdAt: created.createdAt,
        expiresAt: monthly.expiresAt,
        status: 'active',
      });
    });

    it("listInstances shows only the account's own instances, oldest first, with the documented keys and no secrets", async () => {
      const owner = account();
      const other = account();
      const mine = [
        await newInstance(owner, 'annual'),
        await newInstance(owner, 'trial'),
        await newInstance(owner, 'monthly'),
      ];
      const theirs = await newInstance(other);

      const answer = await get(api.accountUrl, '/listInstances', { email: owner.email, apikey: owner.apikey });
      const body = expectSuccess(answer);
      expectKeys(body, ['success', 'instances', 'next']);
      expect(body.instances.map((i: Instance) => i.instanceid)).toEqual(mine.map((i) => i.instanceid));
      const created = body.instances.map((i: { createdAt: string }) => Date.parse(i.createdAt));
      expect(created).toEqual([...created].sort((a, b) => a - b));
      body.instances.forEach((row: Record<string, unknown>, n: number) => {
        expectKeys(row, LISTED_KEYS);
        expect(row).toEqual({
          instanceid: mine[n].instanceid,
          packageid: mine[n].packageid,
          createdAt: mine[n].createdAt,
          expiresAt: mine[n].expiresAt,
          status: 'active',
          webhookUrl: '',
          webhookEnabled: false,
          events: DEFAULT_EVENTS,
          label: null,
          state: null,
        });
      });
      for (const secret of [...mine.map((i) => i.token), theirs.token, owner.apikey])
        expect(answer.text).not.toContain(secret);
      expect(answer.text).not.toMatch(/hash|"token"/i);
      expect((await list(other)).map((i) => i.instanceid)).toEqual([theirs.instanceid]);
    });

    it('compares e-mail addresses case-insensitively on newInstance, renewInstance and listInstances', async () => {
      const who = account();
      const shouted = who.email.toUpperCase();
      const created = expectSuccess(
        await get(api.accountUrl, '/newInstance', { email: shouted, token: who.apikey, packageid: 'trial' }),
      );
      expectSuccess(
        await get(api.accountUrl, '/renewInstance', {
          email: shouted,
          apikey: who.apikey,
          instanceid: created.instanceid,
          packageid: 'trial',
        }),
      );
      const rows = expectSuccess(
        await get(api.accountUrl, '/listInstances', { email: `Ops${who.email.slice(3)}`, apikey: who.apikey }),
      );
      expect(rows.instances.map((i: Instance) => i.instanceid)).toEqual([created.instanceid]);
      expect(await list(who)).toEqual(rows.instances);
    });

    it('GET /webhook on the account host registers and clears the webhook like the instance host (4.6)', async () => {
      const instance = await newInstance(account());
      const viaAccountHost = (webhookUrl: string) =>
        get(api.accountUrl, '/webhook', { instanceid: instance.instanceid, token: instance.token, webhookUrl });
      const on = expectSuccess(await viaAccountHost('https://8.8.8.8/account-host'));
      expectKeys(on, ['success', 'webhookUrl', 'enabled', 'events', ...OPTION_KEYS]);
      expect(on).toMatchObject({ webhookUrl: 'https://8.8.8.8/account-host', enabled: true, events: DEFAULT_EVENTS });
      expect(await status(instance)).toMatchObject({
        webhookUrl: 'https://8.8.8.8/account-host',
        enabled: true,
        instanceStatus: 'active',
      });
      expect(expectSuccess(await viaAccountHost(''))).toMatchObject({ webhookUrl: '', enabled: false });
      expect(await status(instance)).toMatchObject({ webhookUrl: '', enabled: false });
    });
  });

  describe('instance host parameter forms', () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await newInstance(account());
    });

    const post = (path: string, contentType: string, body: string, query = '') =>
      request(`${api.apiUrl}${path}${query && `?${query}`}`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
    const FORMS: Array<[string, (path: string, params: Record<string, string>) => Promise<Answer>]> = [
      ['GET with a query string', (path, p) => get(api.apiUrl, path, p)],
      ['POST application/x-www-form-urlencoded', (path, p) => postForm(api.apiUrl, path, p)],
      ['POST application/json', (path, p) => postJson(api.apiUrl, path, p)],
      [
        'POST application/json; charset=utf-8',
        (path, p) => post(path, 'application/json; charset=utf-8', JSON.stringify(p)),
      ],
      [
        'POST form; charset=UTF-8',
        (path, p) => post(path, 'application/x-www-form-urlencoded; charset=UTF-8', `${new URLSearchParams(p)}`),
      ],
      [
        'POST with an empty JSON body, parameters in the query',
        (path, p) => post(path, 'application/json', '', `${new URLSearchParams(p)}`),
      ],
      [
        'POST without a body, parameters in the query',
        (path, p) => request(`${api.apiUrl}${path}?${new URLSearchParams(p)}`, { method: 'POST' }),
      ],
    ];

    it.each(FORMS)('%s: webhook registers and clears, getWebhookStatus reports it', async (name, send) => {
      const creds = { instanceid: instance.instanceid, token: instance.token };
      const url = `https://8.8.8.8/forms/${encodeURIComponent(name)}`;
      const on = expectSuccess(await send('/webhook', { ...creds, webhookUrl: url }));
      expectKeys(on, ['success', 'webhookUrl', 'enabled', 'events', ...OPTION_KEYS]);
      expect(on).toMatchObject({ webhookUrl: url, enabled: true, events: DEFAULT_EVENTS });
      const seen = expectSuccess(await send('/getWebhookStatus', creds));
      expectKeys(seen, ['success', 'webhookUrl', 'enabled', 'instanceStatus', 'events', ...OPTION_KEYS, 'health']);
      expect(seen).toMatchObject({ webhookUrl: url, enabled: true, instanceStatus: 'active' });
      expect(expectSuccess(await send('/webhook', { ...creds, webhookUrl: '' }))).toMatchObject({
        webhookUrl: '',
        enabled: false,
      });
      expect(expectSuccess(await send('/getWebhookStatus', creds))).toMatchObject({ webhookUrl: '', enabled: false });
    });

    it.each([
      ['form', postForm],
      ['JSON', postJson],
    ] as const)('a %s body value overrides the same name in the query string', async (_kind, send) => {
      const { instanceid, token } = instance;
      const url = 'https://8.8.8.8/from-the-body';
      const wrong = `${token}x`;
      expect(
        expectSuccess(
          await send(api.apiUrl, '/webhook', { token, webhookUrl: url }, { instanceid, token: wrong, webhookUrl: '' }),
        ),
      ).toMatchObject({
        webhookUrl: url,
        enabled: true,
      });
      expectSuccess(await send(api.apiUrl, '/getWebhookStatus', { token }, { instanceid, token: wrong }));
      expectFailure(await send(api.apiUrl, '/getWebhookStatus', { token: wrong }, { instanceid, token }), ['0006']);
      expectFailure(
        await send(api.apiUrl, '/webhook', { token: wrong, webhookUrl: '' }, { instanceid, token, webhookUrl: '' }),
        ['0006'],
      );
      expect(await status(instance)).toMatchObject({ webhookUrl: url, enabled: true });
    });
  });

  describe('webhook semantics', () => {
    it('a new instance has no webhook: empty URL, delivery off, instance active', async () => {
      const instance = await newInstance(account());
      const body = await status(instance);
      expectKeys(body, ['success', 'webhookUrl', 'enabled', 'instanceStatus', 'events', ...OPTION_KEYS, 'health']);
      expect(body).toMatchObject({ webhookUrl: '', enabled: false, instanceStatus: 'active', events: DEFAULT_EVENTS });
    });

    it('stores and returns the URL exactly as sent (port, case, query string, escapes)', async () => {
      const who = account();
      const instance = await newInstance(who);
      const url = 'https://8.8.8.8:443/Hooks/InBox?Source=GW&x=%7e&list=a,b';
      expect(new URL(url).href).not.toBe(url); // a parser would have normalised it
      expect(await setWebhook(instance, url)).toMatchObject({ webhookUrl: url, enabled: true });
      expect((await status(instance)).webhookUrl).toBe(url);
      expect((await listed(who, instance)).webhookUrl).toBe(url);
      const viaQuery = expectSuccess(await get(api.apiUrl, '/webhook', { ...instance, webhookUrl: `${url}&via=get` }));
      expect(viaQuery.webhookUrl).toBe(`${url}&via=get`);
    });

    it('registering the same URL twice succeeds both times and leaves it registered', async () => {
      const instance = await newInstance(account());
      for (let n = 0; n < 2; n++) {
        expect(await setWebhook(instance, 'https://1.1.1.1/twice')).toMatchObject({
          webhookUrl: 'https://1.1.1.1/twice',
          enabled: true,
        });
      }
      expect(await status(instance)).toMatchObject({ webhookUrl: 'https://1.1.1.1/twice', enabled: true });
    });

    it('an empty webhookUrl switches delivery off, also when none was registered', async () => {
      const who = account();
      const instance = await newInstance(who);
      expect(await setWebhook(instance, '')).toMatchObject({ webhookUrl: '', enabled: false });
      await setWebhook(instance, 'https://8.8.8.8/on');
      const off = await setWebhook(instance, '');
      expectKeys(off, ['success', 'webhookUrl', 'enabled', 'events', ...OPTION_KEYS]);
      expect(off).toMatchObject({ webhookUrl: '', enabled: false });
      expect(await status(instance)).toMatchObject({ webhookUrl: '', enabled: false, instanceStatus: 'active' });
      expect(await listed(who, instance)).toMatchObject({ webhookUrl: '', webhookEnabled: false });
    });

    it('listInstances reflects each instance’s webhookUrl and webhookEnabled', async () => {
      const who = account();
      const withHook = await newInstance(who);
      const without = await newInstance(who);
      await setWebhook(withHook, 'https://8.8.4.4/listed');
      const rows = await list(who);
      expect(rows.map((r) => [r.instanceid, r.webhookUrl, r.webhookEnabled])).toEqual([
        [withHook.instanceid, 'https://8.8.4.4/listed', true],
        [without.instanceid, '', false],
      ]);
      rows.forEach((row) => expectKeys(row, LISTED_KEYS));
    });
  });

  describe('read-your-writes (4.7)', () => {
    it('every successful write is reflected by the very next listInstances and getWebhookStatus', async () => {
      const who = account();
      const instances: Instance[] = [];
      for (let round = 0; round < 4; round++) {
        const created = await newInstance(who);
        instances.push(created);
        expect((await list(who)).map((r) => r.instanceid)).toEqual(instances.map((i) => i.instanceid));
        expect(await status(created)).toMatchObject({ webhookUrl: '', instanceStatus: 'active' });

        const url = `https://8.8.8.8/round/${round}`;
        await setWebhook(created, url);
        expect(await status(created)).toMatchObject({ webhookUrl: url, enabled: true });
        expect(await listed(who, created)).toMatchObject({ webhookUrl: url, webhookEnabled: true });

        await setWebhook(created, '');
        expect(await status(created)).toMatchObject({ webhookUrl: '', enabled: false });
        expect(await listed(who, created)).toMatchObject({ webhookUrl: '', webhookEnabled: false });

        const renewed = expectSuccess(
          await get(api.accountUrl, '/renewInstance', {
            email: who.email,
            apikey: who.apikey,
            instanceid: created.instanceid,
            packageid: 'monthly',
          }),
        );
        expect(await listed(who, created)).toMatchObject({ packageid: 'monthly', expiresAt: renewed.expiresAt });
      }
    });
  });
});
