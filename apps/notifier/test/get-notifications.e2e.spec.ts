import { expectFailure, expectSuccess, shiftedClock, DAY_MS } from '@gw/testing';
import { ISO_MS, subscribed } from './support/delivery-fixtures';
import {
  allNotifications,
  getNotifications,
  messageIds,
  notificationsPage,
  postedBodies,
  redeliver,
} from './support/notification-pages';
import { sleep, until } from './support/stack';
import { stacksOnStores } from './support/on-store';

/**
 * getNotifications (docs/api.md 8.7) end to end with both processes and a real receiver, on both
 * stores: a receiver that was down recovers every message from it alone, in order, with the very
 * bodies a POST carries; paging; each state; the same answer from a restarted API, even once the
 * instance has expired.
 */

/** Two quick retries: a notification made while the receiver is down is dead-lettered within ~3 s. */
const RETRY_SCHEDULE = '1,1';
/** How long the receiver is down: the 30 s, far longer than the whole retry schedule. */
const DOWN_MS = 30_000;

// The first three tests wait side by side (each on its own instance); the last restarts the API,
// so it runs alone once they are done.
const STACKS = stacksOnStores({ RETRY_SCHEDULE });

describe.each(STACKS)('getNotifications on %s', (_store, on) => {
  const delivered = (instance: { instanceid: string; token: string }, n: number) =>
    until(`${n} delivered`, async () => {
      const { notifications } = await notificationsPage(on.stack, instance);
      return notifications.filter((x) => x.state === 'delivered').length === n && notifications;
    });

  it.concurrent(
    'a receiver that was down 30 s recovers every message through getNotifications alone, in order, bodies as POSTed',
    async () => {
      const upAt = Date.now() + DOWN_MS;
      const { instance, path } = await subscribed(on.stack, on.receiver, () =>
        Date.now() < upAt ? { status: 503 } : {},
      );
      const sent: string[] = [];
      // Traffic all through the outage: messages and an ack, at its start, middle and end.
      for (const wave of [0, 1, 2]) {
        for (let i = 1; i <= 3; i++) {
          const id = `down-${wave}-${i}`;
          await on.stack.message(instance, { id, body: `während ${wave}.${i} ✓` });
          sent.push(id);
        }
        await on.stack.ack(instance, {
          id: `down-${wave}-1`,
          chatId: 'chat-1@c.us',
          status: 'read',
          time: 1_700_000_100 + wave,
        });
        await sleep(Math.max(0, upAt - Date.now() - (2 - wave) * 10_000 - 5_000));
      }
      await sleep(Math.max(0, upAt - Date.now()));
      await until(
        'every notification dead-lettered',
        async () => {
          const all = await allNotifications(on.stack, instance);
          return messageIds(all).length === sent.length && all.every((n) => n.state === 'deadLettered');
        },
        15_000,
      );
      expect(on.receiver.at(path).every((r) => !r.delivered)).toBe(true);

      // The on.receiver catches up, 2 at a time, from getNotifications alone.
      const recovered = await allNotifications(on.stack, instance, 2);
      expect(messageIds(recovered)).toEqual(sent);
      expect(recovered.map((n) => n.sequence)).toEqual(recovered.map((_, i) => i + 1));
      expect(recovered.filter((n) => 'ack' in n.body).length).toBe(3);
      const posted = postedBodies(on.receiver.at(path));
      expect(posted.size).toBe(recovered.length);
      for (const n of recovered) {
        expect(n).toMatchObject({
          state: 'deadLettered',
          createdAt: expect.stringMatching(ISO_MS),
          webhookId: expect.stringMatching(/^msg_/),
        });
        expect(n.body).toEqual(posted.get(n.webhookId));
        expect(n.body).toMatchObject({ instanceId: instance.instanceid, sequence: n.sequence });
      }
    },
    90_000,
  );

  it.concurrent(
    'pages with after and limit, ascending, lastSequence the highest, and shows each state',
    async () => {
      const { instance, path } = await subscribed(on.stack, on.receiver);
      for (let i = 1; i <= 5; i++) {
        await on.stack.message(instance, { id: `page-${i}` });
        await delivered(instance, i);
      }
      expect(await notificationsPage(on.stack, instance, { limit: 2 })).toMatchObject({
        lastSequence: 5,
        notifications: [{ sequence: 1 }, { sequence: 2 }],
      });
      const second = await notificationsPage(on.stack, instance, { after: 2, limit: 2 });
      expect(second.notifications.map((n) => n.sequence)).toEqual([3, 4]);
      expect(
        (await notificationsPage(on.stack, instance, { after: '4' })).notifications.map((n) => n.sequence),
      ).toEqual([5]);
      expect(await notificationsPage(on.stack, instance, { after: 5 })).toEqual({
        success: true,
        lastSequence: 5,
        notifications: [],
      });
      expect(await notificationsPage(on.stack, instance, { after: 99 })).toMatchObject({
        lastSequence: 5,
        notifications: [],
      });
      const all = await allNotifications(on.stack, instance);
      expect(messageIds(all)).toEqual(['page-1', 'page-2', 'page-3', 'page-4', 'page-5']);
      const posted = postedBodies(on.receiver.at(path));
      for (const n of all) expect(n.body).toEqual(posted.get(n.webhookId));

      // A pending one (the on.receiver holds its first attempt), then cancelled when delivery is switched off.
      on.receiver.plan(path, () => ({ status: 500, delayMs: 4000 }));
      await on.stack.message(instance, { id: 'page-6' });
      await until('the attempt held', () => on.receiver.at(path).length === 6);
      expect(await notificationsPage(on.stack, instance, { after: 5 })).toMatchObject({
        lastSequence: 6,
        notifications: [{ sequence: 6, state: 'pending' }],
      });
      await on.stack.webhook(instance, '');
      await until(
        'cancelled',
        async () => (await notificationsPage(on.stack, instance, { after: 5 })).notifications[0]?.state === 'cancelled',
      );
      expect(messageIds((await notificationsPage(on.stack, instance, { after: 5 })).notifications)).toEqual(['page-6']);
    },
    60_000,
  );

  it.concurrent(
    'an instance without notifications has lastSequence 0; refusals: 0002 for after and limit, 0006 for a wrong token',
    async () => {
      const instance = await on.stack.newInstance();
      expect(await notificationsPage(on.stack, instance)).toEqual({
        success: true,
        lastSequence: 0,
        notifications: [],
      });
      for (const bad of [
        { after: -1 },
        { after: 1.5 },
        { after: 'x' },
        { limit: 0 },
        { limit: 101 },
        { limit: '2a' },
      ]) {
        expectFailure(await getNotifications(on.stack, instance, bad), ['0002']);
      }
      expectFailure(await getNotifications(on.stack, { ...instance, token: `${instance.token}x` }), ['0006']);
      expectFailure(await getNotifications(on.stack, { instanceid: 'no-such-instance', token: instance.token }), [
        '0006',
      ]);
    },
  );

  it('gives the same answer from a restarted API, and still once the instance has expired (redeliver then 0007)', async () => {
    const { instance } = await subscribed(on.stack, on.receiver);
    await on.stack.message(instance, { id: 'kept-1' });
    await on.stack.message(instance, { id: 'kept-2' });
    await until(
      'delivered',
      async () =>
        messageIds((await notificationsPage(on.stack, instance)).notifications.filter((n) => n.state === 'delivered'))
          .length === 2,
    );
    const before = await notificationsPage(on.stack, instance);
    const clock = shiftedClock(4 * DAY_MS);
    try {
      await on.stack.restartApi(clock.env);
      expect(await notificationsPage(on.stack, instance)).toEqual(before);
      expectFailure(await redeliver(on.stack, instance, { from: 1 }), ['0007']);
    } finally {
      await on.stack.restartApi();
      clock.remove();
    }
    expect(expectSuccess(await redeliver(on.stack, instance, { from: 1, to: 1 }))).toEqual({
      success: true,
      queued: 1,
    });
  }, 60_000);
});
