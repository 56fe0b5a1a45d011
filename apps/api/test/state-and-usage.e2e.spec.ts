import {
  clearOfUtcMidnight,
  expectFailure,
  expectSuccess,
  get,
  postJson,
  request,
  utcToday as today,
} from '@gw/testing';
import { ApiOnStore, STORES } from './support/api-on-store';
import { INTERNAL_TOKEN, ISO_MS, selfService, type Account, type SelfService } from './support/self-service';

/** docs/api.md 13.2 and 13.3 end to end on both stores: the gateway reports connection states on
 * the ingest host, the owner reads them with getInstanceState and listInstances, and the account
 * holder reads the counts of getUsage (the notifier's counts are in apps/notifier/test). */

const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe.each(STORES)('connection states and usage on %s', (_store, onEsdb) => {
  let store: ApiOnStore;
  let c: SelfService;
  let who: Account;
  beforeAll(async () => {
    store = await ApiOnStore.start(onEsdb, { INTERNAL_TOKEN });
    c = selfService(store);
    who = await c.newAccount();
  }, 60_000);
  afterAll(() => store?.stop());

  const report = (instanceid: string, body: unknown, token = INTERNAL_TOKEN) =>
    request(`${store.api.internalUrl}/instances/${encodeURIComponent(instanceid)}/state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const stateOf = async (i: { instanceid: string; token: string }) =>
    expectSuccess(await postJson(store.api.apiUrl, '/getInstanceState', i));
  const usage = (params: Record<string, string> = {}, account = who) =>
    get(store.api.accountUrl, '/getUsage', { email: account.email, apikey: account.apikey, ...params });

  describe('connection states (13.2)', () => {
    it('null before any report; each report answers 202 and is what getInstanceState and listInstances show', async () => {
      const instance = await c.newInstance(who);
      expect(await stateOf(instance)).toEqual({ success: true, state: null, since: null });
      expect((await report(instance.instanceid, { state: 'qr', time: 1_767_225_600 })).status).toBe(202);
      expect(await stateOf(instance)).toEqual({ success: true, state: 'qr', since: '2026-01-01T00:00:00.000Z' });
      expect((await report(instance.instanceid, { state: 'authorized', time: 1_767_225_660 })).status).toBe(202);
      const now = await stateOf(instance);
      expect(now).toEqual({ success: true, state: 'authorized', since: '2026-01-01T00:01:00.000Z' });
      expect(now.since).toMatch(ISO_MS);
      const item = (await c.listed(who)).find((i) => i.instanceid === instance.instanceid);
      expect(item).toEqual(expect.objectContaining({ state: 'authorized', label: null }));
    });

    it('the same state again records nothing: since stays, and the log holds one event for it', async () => {
      const instance = await c.newInstance(who);
      await report(instance.instanceid, { state: 'sleep', time: 1_767_225_600 });
      expect((await report(instance.instanceid, { state: 'sleep', time: 1_767_300_000 })).status).toBe(202);
      expect((await stateOf(instance)).since).toBe('2026-01-01T00:00:00.000Z');
      const events = await store.streamEvents(`instance-${instance.instanceid}`);
      expect(events.filter((e) => e.type === 'InstanceStateReported')).toHaveLength(1);
    });

    it('bad input: 400 with 0001 or 0002, 401 with 0014, 404 with 0005, 405 for another method', async () => {
      const instance = await c.newInstance(who);
      const expectIngest = (answer: { status: number; json: any }, status: number, code: string) => {
        expect(answer.status).toBe(status);
        expect(answer.json).toEqual(expect.objectContaining({ success: false, msg: [code] }));
      };
      expectIngest(await report(instance.instanceid, { time: 1 }), 400, '0001');
      expectIngest(await report(instance.instanceid, { state: 'qr' }), 400, '0001');
      expectIngest(await report(instance.instanceid, { state: 'online', time: 1 }), 400, '0002');
      expectIngest(await report(instance.instanceid, { state: 'qr', time: 'soon' }), 400, '0002');
      expectIngest(await report(instance.instanceid, { state: 'qr', time: 1.5 }), 400, '0002');
      expectIngest(await report(instance.instanceid, '{"state":'), 400, '0009');
      expectIngest(await report(instance.instanceid, { state: 'qr', time: 1 }, 'wrong-token'), 401, '0014');
      expectIngest(await report('no-such-instance', { state: 'qr', time: 1 }), 404, '0005');
      const gone = await c.newInstance(who);
      expectSuccess(await c.deleteInstance(who, gone.instanceid));
      expectIngest(await report(gone.instanceid, { state: 'qr', time: 1 }), 404, '0005');
      const wrongMethod = await request(`${store.api.internalUrl}/instances/x/state`, { method: 'GET' });
      expect(wrongMethod.status).toBe(405);
    });

    it('getInstanceState refuses a wrong token with 0006 and a missing one with 0001', async () => {
      const instance = await c.newInstance(who);
      expectFailure(await postJson(store.api.apiUrl, '/getInstanceState', { ...instance, token: 'wrong' }), ['0006']);
      expectFailure(await postJson(store.api.apiUrl, '/getInstanceState', { instanceid: instance.instanceid }), [
        '0001',
      ]);
    });
  });

  describe('usage (13.3)', () => {
    it("counts each instance's messages and acks of today, with the account's totals", async () => {
      await clearOfUtcMidnight(30_000);
      const holder = await c.newAccount();
      const [a, b] = [await c.newInstance(holder), await c.newInstance(holder)];
      for (const id of ['u1', 'u2', 'u3']) expect((await c.ingest(a.instanceid, 'messages', id)).status).toBe(202);
      expect((await c.ingest(a.instanceid, 'acks', 'u1')).status).toBe(202);
      expect((await c.ingest(b.instanceid, 'messages', 'v1')).status).toBe(202);
      // The same message again is recorded once (section 6), so it is counted once.
      expect((await c.ingest(b.instanceid, 'messages', 'v1')).status).toBe(202);
      const answer = expectSuccess(await usage({}, holder));
      const day = today();
      expect(answer).toEqual({
        success: true,
        from: dayOffset(-29),
        to: day,
        usage: [
          { instanceid: a.instanceid, day, messages: 3, acks: 1, notificationsDelivered: 0, attemptsFailed: 0 },
          { instanceid: b.instanceid, day, messages: 1, acks: 0, notificationsDelivered: 0, attemptsFailed: 0 },
        ],
        totals: { messages: 4, acks: 1, notificationsDelivered: 0, attemptsFailed: 0 },
      });
      // Days without activity are left out; another account sees none of it.
      expect(expectSuccess(await usage({ from: dayOffset(-10), to: dayOffset(-1) }, holder)).usage).toEqual([]);
      expect(expectSuccess(await usage({ from: day, to: day }, who)).usage).not.toContainEqual(
        expect.objectContaining({ instanceid: a.instanceid }),
      );
      // `instanceid` narrows the answer (and its totals) to one instance of the account.
      const one = expectSuccess(await usage({ instanceid: b.instanceid }, holder));
      expect(one.usage.map((u: { instanceid: string }) => u.instanceid)).toEqual([b.instanceid]);
      expect(one.totals).toEqual({ messages: 1, acks: 0, notificationsDelivered: 0, attemptsFailed: 0 });
      expectFailure(await usage({ instanceid: b.instanceid }, who), ['0005']);
    }, 120_000);

    it('refuses bad dates and ranges with 0002, and a wrong key with 0003', async () => {
      for (const params of <Array<Record<string, string>>>[
        { from: '2026-13-01' },
        { from: '2026-02-30' },
        { to: '26-01-01' },
        { from: '2026-01-10', to: '2026-01-09' },
        { from: '2026-01-01', to: '2026-04-03' },
        { from: dayOffset(-100) },
        { from: dayOffset(2) },
      ])
        expectFailure(await usage(params), ['0002']);
      expectSuccess(await usage({ from: '2026-01-01', to: '2026-04-02' }));
      expectFailure(await usage({}, { ...who, apikey: 'wrong' }), ['0003']);
    });
  });
});
