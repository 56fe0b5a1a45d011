import { DAY_MS, expectFailure, expectSuccess, get, shiftedClock } from '@gw/testing';
import { ApiOnStore, STORES } from './support/api-on-store';
import { INTERNAL_TOKEN, type Account } from './support/self-service';

/** docs/api.md 13.1 and 13.4 end to end on both stores: listInstances pages and filters, labels on
 * newInstance and setInstanceLabel, as a client sees them over HTTP. */

let seq = 0;

describe.each(STORES)('listInstances pages and labels on %s', (_store, onEsdb) => {
  let store: ApiOnStore;
  beforeAll(async () => {
    store = await ApiOnStore.start(onEsdb, { INTERNAL_TOKEN });
  }, 60_000);
  afterAll(() => store?.stop());

  const account = (path: string, params: Record<string, string>) => get(store.api.accountUrl, path, params);
  const newAccount = (): Promise<Account> => store.createAccount(`pages-${process.pid}-${++seq}@example.com`);
  const create = async (who: Account, extra: Record<string, string> = {}, packageid = 'trial') =>
    expectSuccess(await account('/newInstance', { email: who.email, token: who.apikey, packageid, ...extra }))
      .instanceid as string;
  const list = (who: Account, params: Record<string, string> = {}) =>
    account('/listInstances', { email: who.email, apikey: who.apikey, ...params });
  const listed = async (who: Account, params: Record<string, string> = {}) => expectSuccess(await list(who, params));
  const setLabel = (who: Account, instanceid: string, label: string) =>
    account('/setInstanceLabel', { email: who.email, apikey: who.apikey, instanceid, label });

  describe('pages', () => {
    let who: Account;
    let ids: string[];
    beforeAll(async () => {
      who = await newAccount();
      ids = [];
      for (let i = 0; i < 5; i++) ids.push(await create(who));
    });

    it('without limit, every instance oldest first, and next is null', async () => {
      const answer = await listed(who);
      expect(answer.instances.map((i: { instanceid: string }) => i.instanceid)).toEqual(ids);
      expect(answer).toHaveProperty('next', null);
    });

    it('walking pages with limit and after gives every instance once, in order; next is null on the last', async () => {
      const seen: string[] = [];
      const nexts: Array<string | null> = [];
      let after: string | undefined;
      for (;;) {
        const page = await listed(who, { limit: '2', ...(after ? { after } : {}) });
        seen.push(...page.instances.map((i: { instanceid: string }) => i.instanceid));
        nexts.push(page.next);
        if (page.next === null) break;
        expect(page.next).toBe(page.instances[page.instances.length - 1].instanceid);
        after = page.next;
      }
      expect(seen).toEqual(ids);
      expect(nexts).toEqual([ids[1], ids[3], null]);
      // A page that ends exactly at the last instance says so.
      expect((await listed(who, { limit: '5' })).next).toBeNull();
      expect((await listed(who, { limit: '1000', after: ids[4] })).instances).toEqual([]);
      // An empty after is no cursor: the first page.
      expect(
        (await listed(who, { limit: '2', after: '' })).instances.map((i: { instanceid: string }) => i.instanceid),
      ).toEqual(ids.slice(0, 2));
    });

    it("refuses an after that is not one of the account's instances with 0005, and a bad limit with 0002", async () => {
      const other = await newAccount();
      const theirs = await create(other);
      expectFailure(await list(who, { after: theirs }), ['0005']);
      expectFailure(await list(who, { after: 'no-such-instance' }), ['0005']);
      for (const limit of ['0', '1001', '1.5', 'ten', '-1', '']) expectFailure(await list(who, { limit }), ['0002']);
      expectFailure(await list(who, { status: 'gone' }), ['0002']);
      // Stage 1 before stage 2: a malformed limit with a wrong key is still 0002.
      expectFailure(await account('/listInstances', { email: who.email, apikey: 'wrong', limit: 'x' }), ['0002']);
    });
  });

  describe('labels', () => {
    it('newInstance takes a label; every item carries label and state, null when unset', async () => {
      const who = await newAccount();
      const plain = await create(who);
      const shop = await create(who, { label: 'Shop Berlin ü' });
      const items = (await listed(who)).instances;
      expect(items).toEqual([
        expect.objectContaining({ instanceid: plain, label: null, state: null }),
        expect.objectContaining({ instanceid: shop, label: 'Shop Berlin ü', state: null }),
      ]);
    });

    it('setInstanceLabel sets, changes and (empty) removes it; the label filter matches exactly', async () => {
      const who = await newAccount();
      const [a, b, c] = [await create(who), await create(who), await create(who)];
      expect(expectSuccess(await setLabel(who, a, 'eu'))).toEqual({ success: true, instanceid: a, label: 'eu' });
      expectSuccess(await setLabel(who, c, 'eu'));
      expectSuccess(await setLabel(who, b, 'EU'));
      const ids = async (params: Record<string, string>) =>
        (await listed(who, params)).instances.map((i: { instanceid: string }) => i.instanceid);
      expect(await ids({ label: 'eu' })).toEqual([a, c]);
      expect(await ids({ label: 'EU' })).toEqual([b]);
      const first = await listed(who, { label: 'eu', limit: '1' });
      expect(first.next).toBe(a);
      expect(await ids({ label: 'eu', limit: '1', after: a })).toEqual([c]);
      expect(expectSuccess(await setLabel(who, a, ''))).toEqual({ success: true, instanceid: a, label: null });
      expect(await ids({ label: 'eu' })).toEqual([c]);
      expect((await listed(who)).instances[0]).toEqual(expect.objectContaining({ instanceid: a, label: null }));
    });

    it('refuses bad labels and unknown instances with the contract codes', async () => {
      const who = await newAccount();
      const mine = await create(who);
      expectFailure(await setLabel(who, mine, 'tab\there'), ['0002']);
      expectFailure(await setLabel(who, mine, 'x'.repeat(65)), ['0002']);
      expectFailure(await account('/setInstanceLabel', { email: who.email, apikey: who.apikey, label: 'x' }), ['0001']);
      expectFailure(await account('/setInstanceLabel', { email: who.email, apikey: who.apikey, instanceid: mine }), [
        '0001',
      ]);
      expectFailure(await setLabel({ ...who, apikey: 'wrong' }, mine, 'x'), ['0003']);
      const other = await newAccount();
      expectFailure(await setLabel(who, await create(other), 'x'), ['0005']);
      expectFailure(
        await account('/newInstance', { email: who.email, token: who.apikey, packageid: 'trial', label: 'a\u0007' }),
        ['0002'],
      );
      expectFailure(await list(who, { label: 'bad\nlabel' }), ['0002']);
      expect(expectSuccess(await setLabel(who, mine, 'x'.repeat(64))).label).toHaveLength(64);
    });
  });

  it('filters by status at the time of the call, before paging', async () => {
    const who = await newAccount();
    const trial = [await create(who), await create(who)];
    // Trial instances last three days: four days later, to the API, they have expired.
    const clock = shiftedClock(4 * DAY_MS);
    try {
      await store.restart({ INTERNAL_TOKEN, ...clock.env });
      const fresh = await create(who, {}, 'monthly');
      const ids = async (params: Record<string, string>) =>
        (await listed(who, params)).instances.map((i: { instanceid: string; status: string }) => [
          i.instanceid,
          i.status,
        ]);
      expect(await ids({ status: 'expired' })).toEqual(trial.map((id) => [id, 'expired']));
      expect(await ids({ status: 'active' })).toEqual([[fresh, 'active']]);
      const page = await listed(who, { status: 'expired', limit: '1' });
      expect(page.next).toBe(trial[0]);
    } finally {
      await store.restart({ INTERNAL_TOKEN });
      clock.remove();
    }
  });
});
