import { DAY_MS, expectFailure, shiftedClock } from '@gw/testing';
import { freshPath, subscribed } from './support/delivery-fixtures';
import { sleep } from './support/stack';
import { stackOnStore, STORES } from './support/on-store';
import { loggedTest, tested, testWebhook } from './support/test-webhook';

/**
 * docs/api.md 8.6 and section 6: a given webhookUrl is checked as registration checks it (0008, at the
 * same stages), the address actually connected to must be public (the notifier's own connect-time
 * check, shared), and an expired instance is refused (0007). The URLs are registered while the API
 * allows local targets; it is then restarted on the same store without ALLOW_HTTP_WEBHOOKS and
 * ALLOW_PRIVATE_WEBHOOK_TARGETS (or with its clock ahead).
 */

const STRICT = { ALLOW_HTTP_WEBHOOKS: 'false', ALLOW_PRIVATE_WEBHOOK_TARGETS: 'false' };

describe.each(STORES)('testWebhook targets on %s', (_store, onEsdb) => {
  const on = stackOnStore(onEsdb);

  it('refuses http and non-public targets with 0008 at the stages of registration, and never connects to one', async () => {
    const { instance, path } = await subscribed(on.stack, on.receiver);
    await on.stack.restartApi(STRICT);
    try {
      const wrong = { ...instance, token: 'gwt_wrong' };
      // Stage 1, the form: an http URL is refused before the token is looked at.
      expectFailure(await testWebhook(on.stack, wrong, 'http://example.com/h'), ['0008']);
      expectFailure(await testWebhook(on.stack, instance, on.receiver.url(path)), ['0008']);
      // Stage 3, where the host points: after authentication.
      const privateTargets = [
        on.receiver.url(path, '127.0.0.1', 'https'),
        on.receiver.url(path, 'localhost', 'https'),
        'https://10.1.2.3/h',
        'https://[::1]/h',
      ];
      for (const url of privateTargets) {
        expectFailure(await testWebhook(on.stack, wrong, url), ['0006']);
        expectFailure(await testWebhook(on.stack, instance, url), ['0008']);
      }
      await sleep(200);
      expect(on.receiver.at(path)).toHaveLength(0);
      // Nothing was registered nor logged.
      expect(await on.stack.logs(instance)).toEqual([]);
    } finally {
      await on.stack.restartApi();
    }
  });

  it('refuses at connect time a registered target that is not public, logging "address not allowed"', async () => {
    // Registered while allowed, as if its name had resolved to a public address then.
    const { instance, path } = await subscribed(on.stack, on.receiver);
    const byName = freshPath();
    const other = await on.stack.newInstance();
    await on.stack.webhook(other, on.receiver.url(byName, 'localhost', 'https'));
    await on.stack.restartApi({ ALLOW_PRIVATE_WEBHOOK_TARGETS: 'false' });
    try {
      const connectionsBefore = on.receiver.connections;
      for (const [who, p] of [
        [instance, path],
        [other, byName],
      ] as const) {
        const answer = await tested(on.stack, who);
        expect(answer).toMatchObject({ success: true, delivered: false, status: 0 });
        expect(answer.error).toMatch(/^address not allowed/);
        const [logged] = await on.stack.logs(who);
        expect(logged).toMatchObject({ sequence: null, test: true, status: 0, error: answer.error });
        expect(logged.webhookId).toMatch(/^test_/);
        expect(on.receiver.at(p)).toHaveLength(0);
      }
      await sleep(200);
      expect(on.receiver.connections).toBe(connectionsBefore);
    } finally {
      await on.stack.restartApi();
    }
    // Control: the same targets are reached when private targets are allowed.
    expect((await tested(on.stack, instance)).delivered).toBe(true);
    expect(await loggedTest(on.stack, instance, on.receiver.at(path)[0].webhookId)).toMatchObject({
      test: true,
      status: 200,
    });
  });

  it('refuses an expired instance with 0007, with or without a webhookUrl, and sends nothing', async () => {
    const { instance, path } = await subscribed(on.stack, on.receiver);
    const clock = shiftedClock(4 * DAY_MS);
    await on.stack.restartApi(clock.env);
    try {
      expectFailure(await testWebhook(on.stack, instance), ['0007']);
      expectFailure(await testWebhook(on.stack, instance, on.receiver.url(freshPath())), ['0007']);
      expect(on.receiver.at(path)).toHaveLength(0);
    } finally {
      await on.stack.restartApi();
      clock.remove();
    }
  });
});
