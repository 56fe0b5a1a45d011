import { expectFailure, expectSuccess, get, postForm, postJson, request, type Answer } from '@gw/testing';
import {
  DEFAULT_EVENTS,
  expectKeys,
  LISTED_KEYS,
  operationsApi,
  OPTION_KEYS,
  type Instance,
} from './support/operations';

/** docs/api.md section 4 on the instance host: how parameters arrive, what `webhook` stores, and
 * read-your-writes (4.7), end to end through the built API. */

describe('webhook operations on the instance host (docs/api.md section 4)', () => {
  const ops = operationsApi();
  const { account, newInstance, list, status, setWebhook, listed } = ops;

  describe('instance host parameter forms', () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await newInstance(account());
    });

    const post = (path: string, contentType: string, body: string, query = '') =>
      request(`${ops.api.apiUrl}${path}${query && `?${query}`}`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
    const FORMS: Array<[string, (path: string, params: Record<string, string>) => Promise<Answer>]> = [
      ['GET with a query string', (path, p) => get(ops.api.apiUrl, path, p)],
      ['POST application/x-www-form-urlencoded', (path, p) => postForm(ops.api.apiUrl, path, p)],
      ['POST application/json', (path, p) => postJson(ops.api.apiUrl, path, p)],
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
        (path, p) => request(`${ops.api.apiUrl}${path}?${new URLSearchParams(p)}`, { method: 'POST' }),
      ],
    ];

    it.each(FORMS)('%s: webhook registers and clears, getWebhookStatus reports it', async (name, send) => {
      const creds = { instanceid: instance.instanceid, token: instance.token };
      const url = `https://8.8.8.8/forms/${encodeURIComponent(name)}`;
      const on = expectSuccess(await send('/webhook', { ...creds, webhookUrl: url }));
      expectKeys(on, ['success', 'webhookUrl', 'enabled', 'events', ...OPTION_KEYS, 'health']);
      expect(on).toMatchObject({ webhookUrl: url, enabled: true, events: DEFAULT_EVENTS });
      const seen = expectSuccess(await send('/getWebhookStatus', creds));
      expectKeys(seen, ['success', 'webhookUrl', 'enabled', 'instanceStatus', 'events', ...OPTION_KEYS, 'health']);
      expect(seen).toMatchObject({ webhookUrl: url, enabled: true, instanceStatus: 'active' });
      expect(on.health).toEqual(seen.health);
      expect(on.health).toMatchObject({ consecutiveFailures: 0, failingSince: null });
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
          await send(
            ops.api.apiUrl,
            '/webhook',
            { token, webhookUrl: url },
            { instanceid, token: wrong, webhookUrl: '' },
          ),
        ),
      ).toMatchObject({
        webhookUrl: url,
        enabled: true,
      });
      expectSuccess(await send(ops.api.apiUrl, '/getWebhookStatus', { token }, { instanceid, token: wrong }));
      expectFailure(await send(ops.api.apiUrl, '/getWebhookStatus', { token: wrong }, { instanceid, token }), ['0006']);
      expectFailure(
        await send(ops.api.apiUrl, '/webhook', { token: wrong, webhookUrl: '' }, { instanceid, token, webhookUrl: '' }),
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
      const viaQuery = expectSuccess(
        await get(ops.api.apiUrl, '/webhook', { ...instance, webhookUrl: `${url}&via=get` }),
      );
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
      expectKeys(off, ['success', 'webhookUrl', 'enabled', 'events', ...OPTION_KEYS, 'health']);
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
          await get(ops.api.accountUrl, '/renewInstance', {
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
