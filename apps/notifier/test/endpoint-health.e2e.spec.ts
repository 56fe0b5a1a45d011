import { expectSuccess } from '@gw/testing';
import { freshPath, ISO_MS, subscribed } from './support/delivery-fixtures';
import { notificationsPage, redeliver } from './support/notification-pages';
import { until } from './support/stack';
import { stacksOnStores } from './support/on-store';

/**
 * docs/api.md section 12 end to end: an endpoint's health in getWebhookStatus, and delivery switched
 * off after WEBHOOK_DISABLE_AFTER_HOURS of failures with no success in between (here 3.6 s, with
 * retries a second apart), as a 410 switches it off but saying "failing"; what was pending stays
 * readable and can be sent again once a URL is registered again.
 */
const DISABLE_AFTER_HOURS = '0.001';
const FAILING = { status: 500 };

// Each test waits on retries of its own instance: side by side.
const STACKS = stacksOnStores({
  WEBHOOK_DISABLE_AFTER_HOURS: DISABLE_AFTER_HOURS,
  RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1',
});

describe.each(STACKS)('endpoint health on %s', (_store, on) => {
  it.concurrent('is shown before any attempt, and a success after failures clears the failures', async () => {
    const { instance, path } = await subscribed(on.stack, on.receiver, [FAILING]);
    expect((await on.stack.status(instance)).health).toEqual({
      consecutiveFailures: 0,
      failingSince: null,
      lastSuccessAt: null,
    });
    await on.stack.message(instance, { id: 'h-1' });
    const failing = await until('a failure counted', async () => {
      const { health } = await on.stack.status(instance);
      return health.consecutiveFailures >= 1 && health;
    });
    expect(failing).toEqual({
      consecutiveFailures: 1,
      failingSince: expect.stringMatching(ISO_MS),
      lastSuccessAt: null,
    });
    await until('delivered on the retry', () => on.receiver.at(path).some((r) => r.delivered));
    const healthy = await until('the success counted', async () => {
      const { health } = await on.stack.status(instance);
      return health.lastSuccessAt !== null && health;
    });
    expect(healthy).toEqual({
      consecutiveFailures: 0,
      failingSince: null,
      lastSuccessAt: expect.stringMatching(ISO_MS),
    });
    expect(Date.parse(healthy.lastSuccessAt)).toBeGreaterThan(Date.parse(failing.failingSince));
    expect((await on.stack.status(instance)).enabled).toBe(true);
  });

  it.concurrent(
    'switches delivery off with disabledReason "failing" after WEBHOOK_DISABLE_AFTER_HOURS; redeliver sends it again to a new URL',
    async () => {
      const { instance, path } = await subscribed(on.stack, on.receiver, () => FAILING);
      await on.stack.message(instance, { id: 'never-answered' });
      const off = await until(
        'delivery switched off for failing',
        async () => {
          const status = await on.stack.status(instance);
          return status.enabled === false && status;
        },
        30_000,
      );
      expect(off).toMatchObject({ disabledReason: 'failing', instanceStatus: 'active' });
      expect(off.health.consecutiveFailures).toBeGreaterThanOrEqual(2);
      // Not before WEBHOOK_DISABLE_AFTER_HOURS from the first failure.
      const attempts = on.receiver.at(path);
      expect(attempts.at(-1)!.arrivedAt - attempts[0].arrivedAt).toBeGreaterThanOrEqual(3600 - 100);
      const sent = attempts.length;

      // Nothing more goes out, and what was pending is still there to read.
      await on.stack.message(instance, { id: 'while-off' });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(on.receiver.at(path)).toHaveLength(sent);
      const { notifications } = await notificationsPage(on.stack, instance);
      expect(notifications.map((n) => n.sequence)).toEqual([1]);
      expect(notifications[0].body.messages[0].id).toBe('never-answered');

      // A new URL switches delivery back on; redeliver sends the notification there.
      const moved = freshPath();
      const again = await on.stack.webhook(instance, on.receiver.url(moved));
      expect(again.enabled).toBe(true);
      const status = await on.stack.status(instance);
      expect(status.enabled).toBe(true);
      expect(status.disabledReason).toBeUndefined();
      expect(expectSuccess(await redeliver(on.stack, instance, { from: 1 })).queued).toBe(1);
      const r = await until('redelivered', () => on.receiver.at(moved).find((x) => x.delivered));
      expect(r.json.sequence).toBe(1);
    },
  );
});
