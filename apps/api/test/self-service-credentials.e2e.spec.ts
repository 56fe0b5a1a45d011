import { ApiProcess, expectFailure, expectSuccess, get, runOpsAsync, shiftedClock, DAY_MS } from '@gw/testing';
import { ApiOnStore, STORES } from './support/api-on-store';
import {
  API_KEY,
  INSTANCE_TOKEN,
  INTERNAL_TOKEN,
  selfService,
  type Account,
  type Instance,
  type SelfService,
} from './support/self-service';

/** docs/api.md 8.2 resetInstanceToken and 8.3 resetApiKey (and the operator's `accounts reset-key`)
 * end to end, on both stores: the old credential is refused by the very next request, the new one
 * works, and nothing else changes. */

describe.each(STORES)('credential resets on %s', (_store, onEsdb) => {
  let store: ApiOnStore;
  let c: SelfService;
  beforeAll(async () => {
    store = await ApiOnStore.start(onEsdb, { INTERNAL_TOKEN });
    c = selfService(store);
  }, 60_000);
  afterAll(() => store?.stop());

  /** Everything getWebhookStatus and listInstances show of an instance. */
  const everythingShown = async (who: Account, i: Instance) => ({
    status: expectSuccess(await c.status(i)),
    listed: (await c.listed(who)).find((row) => row.instanceid === i.instanceid),
  });

  describe('resetInstanceToken', () => {
    it('checks the form (0001, 0002), then the account (0003), then the instance (0005: missing, another account’s)', async () => {
      const who = await c.newAccount();
      const mine = await c.newInstance(who);
      const theirs = await c.newInstance(await c.newAccount());
      const send = (params: Record<string, string>) => get(store.api.accountUrl, '/resetInstanceToken', params);
      const missing = await send({ email: 'not-an-address' });
      expectFailure(missing, ['0002', '0001']);
      expect(missing.json.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'apikey',
        'email',
        'instanceid',
      ]);
      expectFailure(await send({ email: who.email, apikey: 'wrong', instanceid: mine.instanceid }), ['0003']);
      expectFailure(await c.resetToken(who, 'no-such-instance'), ['0005']);
      expectFailure(await c.resetToken(who, theirs.instanceid), ['0005']);
      // None of those changed a token.
      expectSuccess(await c.status(mine));
      expectSuccess(await c.status(theirs));
    });

    it('answers a new token once; the old one is refused (0006) by the very next request, the new one works, and nothing else changes', async () => {
      const who = await c.newAccount();
      const instance = await c.newInstance(who);
      expectSuccess(await c.webhook(instance, 'https://8.8.8.8/reset'));
      expect((await c.ingest(instance.instanceid, 'messages', 'm-1')).status).toBe(202);
      const before = await everythingShown(who, instance);

      const answer = expectSuccess(await c.resetToken(who, instance.instanceid));
      expect(Object.keys(answer).sort()).toEqual(['instanceid', 'success', 'token']);
      expect(answer.instanceid).toBe(instance.instanceid);
      expect(answer.token).toMatch(INSTANCE_TOKEN);
      expect(answer.token).not.toBe(instance.token);
      const renewed = { instanceid: instance.instanceid, token: answer.token as string };

      expectFailure(await c.status(instance), ['0006']);
      expectFailure(await c.logs(instance), ['0006']);
      expectFailure(await c.webhook(instance, 'https://8.8.8.8/stolen'), ['0006']);
      expectFailure(await c.webhookViaAccountHost(instance, ''), ['0006']);
      expect(await everythingShown(who, renewed)).toEqual(before);
      expectSuccess(await c.logs(renewed));
      expect((await c.ingest(instance.instanceid, 'messages', 'm-2')).status).toBe(202);

      // Only the new token's hash is recorded; the token itself is shown nowhere else.
      const events = await store.rawStream(`instance-${instance.instanceid}`);
      expect(events.at(-1)).toMatchObject({
        type: 'InstanceTokenReset',
        data: { instanceId: instance.instanceid, tokenHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
      });
      // The operator's view of the log hides even the hash (docs/api.md 9).
      const listed = await store.streamEvents(`instance-${instance.instanceid}`);
      expect(listed.at(-1)).toMatchObject({
        type: 'InstanceTokenReset',
        data: { instanceId: instance.instanceid, tokenHash: '[hidden]' },
      });
      expect(JSON.stringify(events, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
        answer.token,
      );
      expect((await c.list(who)).text).not.toContain(answer.token);

      // A second reset retires the first new token too; the webhook still changes with the latest.
      const again = expectSuccess(await c.resetToken(who, instance.instanceid));
      expectFailure(await c.status(renewed), ['0006']);
      expect(
        expectSuccess(await c.webhook({ ...renewed, token: again.token }, 'https://8.8.8.8/after')).webhookUrl,
      ).toBe('https://8.8.8.8/after');
    });
  });

  describe('resetApiKey', () => {
    it('checks the form (0001, 0002), then the account (0003: a wrong key, an unknown address)', async () => {
      const who = await c.newAccount();
      expectFailure(await get(store.api.accountUrl, '/resetApiKey', {}), ['0001']);
      expectFailure(await get(store.api.accountUrl, '/resetApiKey', { email: 'nobody', apikey: who.apikey }), ['0002']);
      expectFailure(await c.resetKey({ email: who.email, apikey: `${who.apikey}x` }), ['0003']);
      expectFailure(await c.resetKey({ email: 'nobody@example.com', apikey: who.apikey }), ['0003']);
      expectSuccess(await c.list(who));
    });

    it('answers a new key once; the old one is refused (0003) by the very next request, the new one works with everything as it was', async () => {
      const who = await c.newAccount();
      const instance = await c.newInstance(who);
      const listedBefore = await c.listed(who);
      const shouted = { email: who.email.toUpperCase(), apikey: who.apikey };

      const answer = expectSuccess(await c.resetKey(shouted));
      expect(Object.keys(answer).sort()).toEqual(['apikey', 'email', 'success']);
      expect(answer.email).toBe(who.email);
      expect(answer.apikey).toMatch(API_KEY);
      expect(answer.apikey).not.toBe(who.apikey);
      const renewed = { email: who.email, apikey: answer.apikey as string };

      expectFailure(await c.list(who), ['0003']);
      expectFailure(
        await get(store.api.accountUrl, '/newInstance', { email: who.email, token: who.apikey, packageid: 'trial' }),
        ['0003'],
      );
      expectFailure(await c.renew(who, instance.instanceid), ['0003']);
      expectFailure(await c.resetToken(who, instance.instanceid), ['0003']);
      expectFailure(await c.deleteInstance(who, instance.instanceid), ['0003']);
      expectFailure(await c.resetKey(who), ['0003']);
      expect(await c.listed(renewed)).toEqual(listedBefore);
      expectSuccess(await c.status(instance)); // instance tokens are not account keys
      expectSuccess(await c.renew(renewed, instance.instanceid));

      const events = await store.streamEvents(store.accountStream(who.email));
      expect(events.map((e) => e.type)).toEqual(['AccountRegistered', 'ApiKeyReset']);
      expect(JSON.stringify(events)).not.toContain(answer.apikey);
    });

    it('of two resets racing with the same key, exactly one succeeds and its key is the one that works', async () => {
      const who = await c.newAccount();
      const answers = await Promise.all([c.resetKey(who), c.resetKey(who)]);
      const won = answers.filter((a) => a.json.success === true);
      expect(won).toHaveLength(1);
      expectFailure(
        answers.find((a) => a !== won[0])!,
        ['0003'],
      );
      expectSuccess(await c.list({ email: who.email, apikey: won[0].json.apikey }));
    });

    it('the operator’s `accounts reset-key` prints a new key that the running API takes at once, and refuses the old', async () => {
      const who = await c.newAccount();
      const instance = await c.newInstance(who);
      const result = await runOpsAsync(
        store.api.dataDir,
        ['accounts', 'reset-key', '--email', ` ${who.email.toUpperCase()} `],
        store.storeEnv,
      );
      expect(result.status).toBe(0);
      const printed = JSON.parse(result.stdout);
      expect(Object.keys(printed).sort()).toEqual(['apikey', 'email']);
      expect(printed.email).toBe(who.email);
      expect(printed.apikey).toMatch(API_KEY);
      expectFailure(await c.list(who), ['0003']);
      expect((await c.listed(printed)).map((i) => i.instanceid)).toEqual([instance.instanceid]);
    });

    it('`accounts reset-key` for an unknown or malformed address exits 1 with a message on stderr and prints nothing', async () => {
      const unknown = await runOpsAsync(
        store.api.dataDir,
        ['accounts', 'reset-key', '--email', 'nobody@example.com'],
        store.storeEnv,
      );
      expect(unknown).toMatchObject({ status: 1, stdout: '' });
      expect(unknown.stderr).toBe('error: no account for nobody@example.com\n');
      for (const args of [['--email', 'not-an-address'], []]) {
        const refused = await runOpsAsync(store.api.dataDir, ['accounts', 'reset-key', ...args], store.storeEnv);
        expect(refused).toMatchObject({ status: 1, stdout: '' });
        expect(refused.stderr).toContain('--email must be an e-mail address');
      }
    });
  });

  describe('resetInstanceToken on an expired instance', () => {
    // Package durations are whole days: the API is restarted on the same store with its clock four
    // days ahead, so that the three-day instance made before has genuinely expired (as
    // libs/testing's startWithExpiredInstance does on the embedded store).
    let later: ApiProcess;
    let removeClock: () => void;
    let who: Account;
    let instance: Instance;
    beforeAll(async () => {
      who = await c.newAccount();
      instance = await c.newInstance(who);
      expectSuccess(await c.webhook(instance, 'https://8.8.8.8/expiring'));
      await store.api.stop();
      const clock = shiftedClock(4 * DAY_MS);
      removeClock = clock.remove;
      later = await ApiProcess.start({
        dataDir: store.api.dataDir,
        env: { ...store.storeEnv, INTERNAL_TOKEN, ...clock.env },
      });
    }, 60_000);
    afterAll(async () => {
      await later?.stop();
      removeClock?.();
    });

    it('works: the old token is refused, the new one reads the expired instance, which stays as it was', async () => {
      const status = (i: Instance) => get(later.apiUrl, '/getWebhookStatus', { ...i });
      const before = expectSuccess(await status(instance));
      expect(before).toMatchObject({
        instanceStatus: 'expired',
        enabled: false,
        webhookUrl: 'https://8.8.8.8/expiring',
      });
      const answer = expectSuccess(
        await get(later.accountUrl, '/resetInstanceToken', {
          email: who.email,
          apikey: who.apikey,
          instanceid: instance.instanceid,
        }),
      );
      expect(answer.token).toMatch(INSTANCE_TOKEN);
      expectFailure(await status(instance), ['0006']);
      expect(expectSuccess(await status({ instanceid: instance.instanceid, token: answer.token }))).toEqual(before);
      // Still expired: changes wait for a renewal (0007), now with the new token.
      const change = await get(later.accountUrl, '/webhook', {
        instanceid: instance.instanceid,
        token: answer.token,
        webhookUrl: 'https://8.8.8.8/new',
      });
      expectFailure(change, ['0007']);
    });
  });
});
