import { expectFailure, expectSuccess } from '@gw/testing';
import { Webhook } from 'standardwebhooks';
import { freshPath, headersOf, subscribed } from './support/delivery-fixtures';
import { allNotifications, messageIds, notificationsPage, redeliver } from './support/notification-pages';
import { sleep, until, type Instance } from './support/stack';
import { stacksOnStores } from './support/on-store';

/**
 * redeliver (docs/api.md 8.8) end to end with both processes and a real receiver, on both stores:
 * delivered, dead-lettered and cancelled notifications come again with the same webhook-id, sequence
 * and body, signed, to the URL registered now; pending ones are left alone; its refusals.
 */

/** Two quick retries, so that a failing receiver dead-letters a notification within ~3 s. */
const RETRY_SCHEDULE = '1,1';

// Each test on its own instance: side by side.
const STACKS = stacksOnStores({ RETRY_SCHEDULE });

describe.each(STACKS)('redeliver on %s', (_store, on) => {
  const settled = (instance: Instance, states: string[]) =>
    until(
      `states ${states.join(',')}`,
      async () => {
        const all = await allNotifications(on.stack, instance);
        return JSON.stringify(all.map((n) => n.state)) === JSON.stringify(states) && all;
      },
      15_000,
    );

  it.concurrent(
    'queues delivered, dead-lettered and cancelled ones again: same webhook-id, sequence and body, signed, to the URL registered now',
    async () => {
      const { instance, path } = await subscribed(on.stack, on.receiver);
      for (let i = 1; i <= 3; i++) {
        await on.stack.message(instance, { id: `again-${i}` });
        await settled(instance, Array(i).fill('delivered'));
      }
      // The fourth is dead-lettered by a failing on.receiver.
      on.receiver.plan(path, () => ({ status: 500 }));
      await on.stack.message(instance, { id: 'again-4' });
      const before = await settled(instance, ['delivered', 'delivered', 'delivered', 'deadLettered']);

      // A new URL: the redelivered ones go there, signed with the instance's secret.
      const moved = freshPath();
      const { signingSecret } = await on.stack.webhook(instance, on.receiver.url(moved));
      const answer = expectSuccess(await redeliver(on.stack, instance, { from: 2 }));
      expect(answer).toEqual({ success: true, queued: 3 });
      await until('three redelivered', () => on.receiver.at(moved).filter((r) => r.delivered).length === 3);
      const again = on.receiver.at(moved);
      expect(again.map((r) => r.webhookId)).toEqual(before.slice(1).map((n) => n.webhookId));
      const verifier = new Webhook(signingSecret);
      for (const [i, r] of again.entries()) {
        expect(verifier.verify(r.rawBody, headersOf(r))).toEqual(before[i + 1].body);
        expect(JSON.parse(r.rawBody)).toMatchObject({ sequence: i + 2, instanceId: instance.instanceid });
      }
      const after = await settled(instance, ['delivered', 'delivered', 'delivered', 'delivered']);
      expect(after.map(({ state: _s, ...rest }) => rest)).toEqual(before.map(({ state: _s, ...rest }) => rest));
      expect((await notificationsPage(on.stack, instance)).lastSequence).toBe(4);

      // A range within one notification, and a range with nothing in it, or backwards: nothing queued.
      expect(expectSuccess(await redeliver(on.stack, instance, { from: 1, to: '1' }))).toEqual({
        success: true,
        queued: 1,
      });
      await until('the first again', () => on.receiver.at(moved).length === 4);
      expect(on.receiver.at(moved)[3].webhookId).toBe(before[0].webhookId);
      expect(expectSuccess(await redeliver(on.stack, instance, { from: 5, to: 1004 }))).toEqual({
        success: true,
        queued: 0,
      });
      expect(expectSuccess(await redeliver(on.stack, instance, { from: 3, to: 2 }))).toEqual({
        success: true,
        queued: 0,
      });
      await sleep(1000);
      expect(on.receiver.at(moved)).toHaveLength(4);
    },
    60_000,
  );

  it.concurrent(
    'leaves a pending notification as it is, and brings back a cancelled one',
    async () => {
      // The on.receiver holds the first attempt for 4 s: meanwhile it is pending.
      const { instance, path } = await subscribed(on.stack, on.receiver);
      on.receiver.plan(path, [{ status: 503, delayMs: 4000 }]);
      await on.stack.message(instance, { id: 'held-1' });
      await until('held', () => on.receiver.at(path).length === 1);
      expect(expectSuccess(await redeliver(on.stack, instance, { from: 1 }))).toEqual({ success: true, queued: 0 });

      // Switched off, the pending one is cancelled; back on, a redeliver sends it again.
      await on.stack.webhook(instance, '');
      await settled(instance, ['cancelled']);
      const back = freshPath();
      await on.stack.webhook(instance, on.receiver.url(back));
      expect(expectSuccess(await redeliver(on.stack, instance, { from: 1 }))).toEqual({ success: true, queued: 1 });
      await until('the cancelled one delivered', () => on.receiver.at(back).some((r) => r.delivered));
      expect(messageIds(await settled(instance, ['delivered']))).toEqual(['held-1']);
      expect(on.receiver.at(back)[0].webhookId).toBe(on.receiver.at(path)[0].webhookId);
    },
    60_000,
  );

  it.concurrent(
    'refuses: 0015 when delivery is off, 0002 for a range over 1000 or a bad from/to, 0006 for a wrong token',
    async () => {
      const instance = await on.stack.newInstance();
      expectFailure(await redeliver(on.stack, instance, { from: 1 }), ['0015']);
      const { instance: live } = await subscribed(on.stack, on.receiver);
      expectFailure(await redeliver(on.stack, live, { from: 1, to: 1001 }), ['0002']);
      expect(expectSuccess(await redeliver(on.stack, live, { from: 1, to: 1000 }))).toEqual({
        success: true,
        queued: 0,
      });
      for (const bad of [
        {},
        { from: 0 },
        { from: -1 },
        { from: 'x' },
        { from: 1.5 },
        { from: 1, to: 0 },
        { from: 1, to: 'y' },
      ]) {
        expectFailure(await redeliver(on.stack, live, bad), [bad.from === undefined ? '0001' : '0002']);
      }
      expectFailure(await redeliver(on.stack, { ...live, token: `${live.token}x` }, { from: 1 }), ['0006']);
    },
  );
});
