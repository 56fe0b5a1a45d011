import { subscribed } from './support/delivery-fixtures';
import { markOf, secondsAfterCreation, seen } from './support/notices';
import { stacksOnStores } from './support/on-store';
import { sleep, until, type Instance } from './support/stack';

/**
 * docs/api.md 8.9 end to end: instance notices (kind `instance`) reach the webhook once each, at
 * their marks, in the instance's sequence with its other notifications; a renewal is announced and
 * resets which marks are due; nothing is sent without the kind. The built API and notifier as
 * processes, a real receiver, on both stores. Decimal EXPIRY_NOTICE_HOURS put the marks of a 72 h
 * trial instance seconds after its creation.
 */

const AT_4S = secondsAfterCreation(4);
const AT_8S = secondsAfterCreation(8);
/** For a renewed trial instance (144 h to run) this mark comes 10 s after the creation; for one that
 * was not renewed it had passed before the creation. */
const RENEWED_AT_10S = Number((144 - 10 / 3600).toFixed(6));
const HOURS = [72.5, AT_4S, AT_8S, RENEWED_AT_10S];

// The tests only wait for marks on the notifier's clock, each on its own instance: side by side.
const STACKS = stacksOnStores({ RETRY_SCHEDULE: '1,1,1', EXPIRY_NOTICE_HOURS: HOURS.join(',') });

describe.each(STACKS)('instance notices, on %s', (_store, on) => {
  const subscribedTo = (events: string) => subscribed(on.stack, on.receiver, undefined, events);
  const expiryOf = async (instance: Instance): Promise<string> =>
    (await on.stack.listInstances()).find((i) => i.instanceid === instance.instanceid).expiresAt;

  it.concurrent(
    'sends an expiring notice once at each mark, within 5 s, numbered in sequence with the messages',
    async () => {
      const { instance, path } = await subscribedTo('messages,instance');
      const expiresAt = await expiryOf(instance);
      await on.stack.message(instance, { id: 'n-1' });
      await until('two notices', () => seen(on.receiver.at(path)).length >= 3, 20_000);
      await on.stack.message(instance, { id: 'n-2' });
      await until('the last message', () => seen(on.receiver.at(path)).length >= 4);
      await sleep(1500);
      const got = seen(on.receiver.at(path));
      expect(
        got.map(({ sequence, what, instance: notice }) => ({ sequence, what, ...(notice ? { notice } : {}) })),
      ).toEqual([
        { sequence: 1, what: 'messages n-1' },
        { sequence: 2, what: 'instance expiring', notice: { event: 'expiring', expiresAt } },
        { sequence: 3, what: 'instance expiring', notice: { event: 'expiring', expiresAt } },
        { sequence: 4, what: 'messages n-2' },
      ]);
      // Each at its own mark: not before it, and within 5 s of it.
      for (const [notice, hours] of [
        [got[1], AT_4S],
        [got[2], AT_8S],
      ] as const) {
        expect(notice.arrivedAt).toBeGreaterThanOrEqual(markOf(expiresAt, hours));
        expect(notice.arrivedAt - markOf(expiresAt, hours)).toBeLessThan(5000);
      }
      // The body is exactly the documented one.
      expect(on.receiver.at(path).find((r) => r.webhookId === got[1].webhookId)!.json).toEqual({
        instanceId: instance.instanceid,
        sequence: 2,
        instance: { event: 'expiring', expiresAt },
      });
    },
    40_000,
  );

  it.concurrent(
    'announces a renewal, which resets the marks: only those of the new expiry come',
    async () => {
      const { instance, path } = await subscribedTo('instance');
      const renewed = await on.stack.renew(instance);
      await until('the renewal and the new mark', () => seen(on.receiver.at(path)).length >= 2, 20_000);
      await sleep(1500);
      const got = seen(on.receiver.at(path));
      expect(got.map((s) => ({ sequence: s.sequence, notice: s.instance }))).toEqual([
        { sequence: 1, notice: { event: 'renewed', packageid: 'trial', expiresAt: renewed.expiresAt } },
        { sequence: 2, notice: { event: 'expiring', expiresAt: renewed.expiresAt } },
      ]);
      // The marks of the expiry it replaced (4 s and 8 s after the creation) were not sent; the new one came at its mark.
      expect(got[1].arrivedAt - markOf(renewed.expiresAt, RENEWED_AT_10S)).toBeGreaterThanOrEqual(0);
      expect(got[1].arrivedAt - markOf(renewed.expiresAt, RENEWED_AT_10S)).toBeLessThan(5000);
      expect(on.receiver.at(path)[0].json).toEqual({
        instanceId: instance.instanceid,
        sequence: 1,
        instance: { event: 'renewed', packageid: 'trial', expiresAt: renewed.expiresAt },
      });
    },
    40_000,
  );

  it.concurrent(
    'sends no notice when the instance kind is not chosen',
    async () => {
      const { instance, path } = await subscribedTo('messages,ownMessages,acks');
      const expiresAt = await expiryOf(instance);
      const renewed = await on.stack.renew(instance);
      // Past every mark of both expiries, with the notifier's second of tick and some to spare.
      const lastMark = Math.max(markOf(expiresAt, AT_8S), markOf(renewed.expiresAt, RENEWED_AT_10S));
      await sleep(lastMark + 3000 - Date.now());
      expect(on.receiver.at(path)).toEqual([]);
      // The instance's notifications still work, and start at sequence 1: no notice took a number.
      await on.stack.message(instance, { id: 'k-1' });
      await until('the message', () => on.receiver.at(path).length >= 1);
      expect(seen(on.receiver.at(path)).map(({ sequence, what }) => ({ sequence, what }))).toEqual([
        { sequence: 1, what: 'messages k-1' },
      ]);
    },
    40_000,
  );
});
