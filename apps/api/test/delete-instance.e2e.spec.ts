import { expectFailure, expectSuccess, get } from '@gw/testing';
import { ApiOnStore, STORES } from './support/api-on-store';
import {
  INTERNAL_TOKEN,
  ISO_MS,
  selfService,
  type Account,
  type Instance,
  type SelfService,
} from './support/self-service';

/** docs/api.md 8.1 deleteInstance end to end, on both stores: the three stages of checks, the
 * answer, and what a deletion ends from the answer on (the notifier's side is in
 * apps/notifier/test/self-service-delivery.e2e.spec.ts). */

describe.each(STORES)('deleteInstance on %s', (_store, onEsdb) => {
  let store: ApiOnStore;
  let c: SelfService;
  beforeAll(async () => {
    store = await ApiOnStore.start(onEsdb, { INTERNAL_TOKEN });
    c = selfService(store);
  }, 60_000);
  afterAll(() => store?.stop());

  describe('checks, stage by stage', () => {
    let who: Account;
    let instance: Instance;
    beforeAll(async () => {
      who = await c.newAccount();
      instance = await c.newInstance(who);
    });
    const send = (params: Record<string, string>) => get(store.api.accountUrl, '/deleteInstance', params);

    it('stage 1: every missing parameter is 0001 and a malformed one 0002, each named, before the key is looked at', async () => {
      const missing = await send({});
      expectFailure(missing, ['0001']);
      expect(missing.json.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'apikey',
        'email',
        'instanceid',
      ]);
      expectFailure(await send({ email: 'not-an-address', apikey: 'wrong', instanceid: instance.instanceid }), [
        '0002',
      ]);
      expectFailure(await send({ email: who.email, apikey: who.apikey, instanceid: 'x'.repeat(129) }), ['0002']);
      const repeated = await get(
        store.api.accountUrl,
        `/deleteInstance?email=${who.email}&apikey=${who.apikey}&instanceid=a&instanceid=b`,
      );
      expectFailure(repeated, ['0002']);
      expectFailure(await send({ email: who.email, apikey: who.apikey, instanceid: '' }), ['0001']);
    });

    it('stage 2: a wrong key or an unknown address is 0003, whatever the instance', async () => {
      expectFailure(await send({ email: who.email, apikey: `${who.apikey}x`, instanceid: instance.instanceid }), [
        '0003',
      ]);
      expectFailure(await send({ email: 'nobody@example.com', apikey: who.apikey, instanceid: 'no-such-instance' }), [
        '0003',
      ]);
      expectSuccess(await c.status(instance));
    });

    it("stage 3: a missing instance and another account's are 0005 alike, and the other account's instance is untouched", async () => {
      const other = await c.newAccount();
      const theirs = await c.newInstance(other);
      expectFailure(await c.deleteInstance(who, 'no-such-instance'), ['0005']);
      const refused = await c.deleteInstance(who, theirs.instanceid);
      expectFailure(refused, ['0005']);
      expect(refused.json.details).toEqual([expect.objectContaining({ code: '0005', field: 'instanceid' })]);
      expectSuccess(await c.status(theirs));
      expect((await c.listed(other)).map((i) => i.instanceid)).toEqual([theirs.instanceid]);
    });
  });

  describe('a deleted instance', () => {
    let who: Account;
    let kept: Instance;
    let gone: Instance;
    let deletedAt: string;
    beforeAll(async () => {
      who = await c.newAccount();
      kept = await c.newInstance(who);
      gone = await c.newInstance(who);
      expectSuccess(await c.webhook(gone, 'https://8.8.8.8/gone'));
      expect((await c.ingest(gone.instanceid, 'messages', 'before-1')).status).toBe(202);
      expect((await c.ingest(gone.instanceid, 'acks', 'before-1')).status).toBe(202);
      expect(expectSuccess(await c.logs(gone)).attempts).toEqual([]);
      const before = Date.now();
      const answer = expectSuccess(await c.deleteInstance(who, gone.instanceid));
      expect(Object.keys(answer).sort()).toEqual(['deletedAt', 'instanceid', 'success']);
      expect(answer.instanceid).toBe(gone.instanceid);
      expect(answer.deletedAt).toMatch(ISO_MS);
      expect(Date.parse(answer.deletedAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(answer.deletedAt)).toBeLessThanOrEqual(Date.now() + 1000);
      deletedAt = answer.deletedAt;
    });

    it('refuses its token from the very next request on, on every instance-scoped operation (0006)', async () => {
      expectFailure(await c.status(gone), ['0006']);
      expectFailure(await get(store.api.apiUrl, '/getWebhookStatus', { ...gone }), ['0006']);
      expectFailure(await c.logs(gone), ['0006']);
      expectFailure(await c.webhook(gone, 'https://8.8.8.8/again'), ['0006']);
      expectFailure(await c.webhook(gone, ''), ['0006']);
      expectFailure(await c.webhookViaAccountHost(gone, 'https://8.8.8.8/again'), ['0006']);
      // Exactly as an unknown instance is refused: the answer does not tell a deleted one apart.
      const unknown = await c.status({ instanceid: 'f'.repeat(24), token: gone.token });
      expect((await c.status(gone)).json.details).toEqual(unknown.json.details);
    });

    it('the ingest host answers 404 with 0005 for its messages and acks, new or repeated', async () => {
      for (const [kind, id] of [
        ['messages', 'after-1'],
        ['acks', 'after-1'],
        ['messages', 'before-1'],
      ] as const) {
        expectFailure(await c.ingest(gone.instanceid, kind, id), ['0005'], 404);
      }
    });

    it('is no longer listed, while the account’s other instance is', async () => {
      const listed = await c.listed(who);
      expect(listed.map((i) => i.instanceid)).toEqual([kept.instanceid]);
      expect(JSON.stringify(listed)).not.toContain(gone.instanceid);
    });

    it('renewInstance, resetInstanceToken and deleteInstance on it answer 0005', async () => {
      expectFailure(await c.renew(who, gone.instanceid), ['0005']);
      expectFailure(await c.resetToken(who, gone.instanceid), ['0005']);
      expectFailure(await c.deleteInstance(who, gone.instanceid), ['0005']);
      expectFailure(await c.status(gone), ['0006']);
    });

    it('leaves the account’s other instance and its own history as they were: the log keeps every event', async () => {
      expectSuccess(await c.status(kept));
      expect((await c.ingest(kept.instanceid, 'messages', 'kept-1')).status).toBe(202);
      const events = await store.streamEvents(`instance-${gone.instanceid}`);
      expect(events.map((e) => e.type)).toEqual([
        'InstanceCreated',
        'SigningSecretIssued',
        'WebhookSet',
        'InstanceDeleted',
      ]);
      expect(events.at(-1)!.data).toEqual({ instanceId: gone.instanceid, deletedAt });
      const inbox = await store.streamEvents(`inbox-${gone.instanceid}`);
      expect(inbox.map((e) => e.type)).toEqual(['MessageReceived', 'AckReceived']);
    });
  });

  it('a deletion and a renewal racing on one instance: whichever lands first, the instance ends deleted', async () => {
    const who = await c.newAccount();
    const instance = await c.newInstance(who);
    const [renewed, deleted] = await Promise.all([
      c.renew(who, instance.instanceid),
      c.deleteInstance(who, instance.instanceid),
    ]);
    expectSuccess(deleted);
    // A renewal decided on the deleted state is refused; one decided before it succeeded.
    if (renewed.json.success === false) expectFailure(renewed, ['0005']);
    expect(await c.listed(who)).toEqual([]);
    expectFailure(await c.status(instance), ['0006']);
  });
});
