import { expectFailure, expectSuccess, get, postJson } from '@gw/testing';
import { freshPath, subscribed } from './support/delivery-fixtures';
import { sleep, until } from './support/stack';
import { stackOnStore, STORES } from './support/on-store';
import { expectTestNotification, loggedTest, tested, testWebhook } from './support/test-webhook';

/**
 * docs/api.md 8.6 end to end: testWebhook sends one signed test notification now, to the registered
 * URL or to one given, and answers how the receiver took it; the attempt is in getWebhookLogs without
 * a sequence. Real API and notifier processes, a real receiver, the Standard Webhooks library.
 */

const DELIVERY_TIMEOUT_MS = 1000;

describe.each(STORES)('testWebhook on %s', (_store, onEsdb) => {
  const on = stackOnStore(onEsdb, { DELIVERY_TIMEOUT_MS: String(DELIVERY_TIMEOUT_MS) });

  it('sends one signed test to the registered URL, logged with sequence null and test true, outside the sequence', async () => {
    const { instance, path, secret } = await subscribed(on.stack, on.receiver);
    const answer = await tested(on.stack, instance);
    expect(answer).toMatchObject({ success: true, delivered: true, status: 200, error: '' });
    // The answer came once the attempt was over: the on.receiver has it already, once.
    expect(on.receiver.at(path)).toHaveLength(1);
    const [r] = on.receiver.at(path);
    expectTestNotification(r, instance.instanceid, secret);

    const logged = await loggedTest(on.stack, instance, r.webhookId);
    expect(logged).toEqual({
      at: r.json.at,
      sequence: null,
      webhookId: r.webhookId,
      status: 200,
      error: '',
      durationMs: answer.durationMs,
      nextAttemptAt: null,
      test: true,
    });
    // The first real notification is still number 1, and logged as no test.
    await on.stack.message(instance, { id: 'after-test' });
    const real = await until('the real notification', () => on.receiver.at(path).find((x) => x.json?.messages));
    expect(real.json.sequence).toBe(1);
    const attempts = await until('its log line', async () => {
      const all = await on.stack.logs(instance);
      return all.length === 2 && all;
    });
    expect(attempts[0]).toMatchObject({ sequence: 1, test: false, webhookId: real.webhookId });
    expect(attempts[1]).toMatchObject({ sequence: null, test: true, webhookId: r.webhookId });
    // getNotifications (8.7) lists the notifications of the sequence only.
    const listed = expectSuccess(await postJson(on.stack.api.apiUrl, '/getNotifications', instance));
    expect(listed.lastSequence).toBe(1);
    expect(listed.notifications.map((n: { webhookId: string }) => n.webhookId)).toEqual([real.webhookId]);
  });

  it('sends to a given webhookUrl without registering it, signed with the secret in force', async () => {
    const { instance, url, path: registeredPath, secret } = await subscribed(on.stack, on.receiver);
    const before = await on.stack.status(instance);
    const other = freshPath();
    const answer = await tested(on.stack, instance, on.receiver.url(other));
    expect(answer).toMatchObject({ delivered: true, status: 200 });
    expect(on.receiver.at(other)).toHaveLength(1);
    expectTestNotification(on.receiver.at(other)[0], instance.instanceid, secret);
    expect(on.receiver.at(registeredPath)).toHaveLength(0);
    expect(await on.stack.status(instance)).toEqual(before);
    expect(before.webhookUrl).toBe(url);
    // Also by GET with query parameters, as every instance-host operation.
    const viaGet = await get(on.stack.api.apiUrl, '/testWebhook', { ...instance, webhookUrl: on.receiver.url(other) });
    expect(expectSuccess(viaGet)).toMatchObject({ success: true, delivered: true, status: 200 });
    expect(on.receiver.at(other)).toHaveLength(2);
  });

  it('gives an instance that never registered a URL its first secret, which signs the test and which registration keeps', async () => {
    const instance = await on.stack.newInstance();
    const path = freshPath();
    expect((await tested(on.stack, instance, on.receiver.url(path))).delivered).toBe(true);
    const status = await on.stack.status(instance);
    expect(status).toMatchObject({ webhookUrl: '', enabled: false });
    expect(status.signingSecret).toMatch(/^whsec_/);
    expectTestNotification(on.receiver.at(path)[0], instance.instanceid, status.signingSecret);
    expect((await on.stack.webhook(instance, on.receiver.url(path))).signingSecret).toBe(status.signingSecret);
  });

  it('answers success with delivered false and the status when the on.receiver fails, and does not retry', async () => {
    const { instance, path } = await subscribed(on.stack, on.receiver, () => ({ status: 500 }));
    const answer = await tested(on.stack, instance);
    expect(answer).toMatchObject({ success: true, delivered: false, status: 500, error: '' });
    await sleep(1500);
    expect(on.receiver.at(path)).toHaveLength(1);
    expect(await loggedTest(on.stack, instance, on.receiver.at(path)[0].webhookId)).toMatchObject({
      status: 500,
      sequence: null,
      test: true,
      nextAttemptAt: null,
    });
    // A failed test changes nothing about delivery.
    expect((await on.stack.status(instance)).enabled).toBe(true);
  });

  it('answers within about DELIVERY_TIMEOUT_MS when the on.receiver never answers, delivered false with the reason', async () => {
    const { instance, path } = await subscribed(on.stack, on.receiver, () => ({ kind: 'timeout', delayMs: 30_000 }));
    const started = Date.now();
    const answer = await tested(on.stack, instance);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(DELIVERY_TIMEOUT_MS);
    expect(took).toBeLessThan(DELIVERY_TIMEOUT_MS + 1500);
    expect(answer).toMatchObject({ delivered: false, status: 0 });
    expect(answer.error).toMatch(/^timeout/);
    expect(await loggedTest(on.stack, instance, on.receiver.at(path)[0].webhookId)).toMatchObject({
      status: 0,
      error: answer.error,
      test: true,
    });
  });

  it('answers 0015 without a URL when none is registered and after the on.receiver switched delivery off with 410', async () => {
    const fresh = await on.stack.newInstance();
    expectFailure(await testWebhook(on.stack, fresh), ['0015']);

    const { instance, path } = await subscribed(on.stack, on.receiver, () => ({ status: 410 }));
    await on.stack.message(instance, { id: 'gone' });
    await until('delivery switched off by 410', async () => (await on.stack.status(instance)).enabled === false);
    const seen = on.receiver.at(path).length;
    expectFailure(await testWebhook(on.stack, instance), ['0015']);
    expect(on.receiver.at(path)).toHaveLength(seen);
    // A given URL is still tested: that is how a on.receiver checks it is back before registering again.
    const back = freshPath();
    expect((await tested(on.stack, instance, on.receiver.url(back))).delivered).toBe(true);
    expect((await on.stack.status(instance)).enabled).toBe(false);
  });

  it('refuses a wrong token (0006) and a malformed webhookUrl (0008) before sending anything', async () => {
    const { instance, path } = await subscribed(on.stack, on.receiver);
    expectFailure(await testWebhook(on.stack, { ...instance, token: 'gwt_wrong' }), ['0006']);
    expectFailure(await testWebhook(on.stack, instance, 'not a url'), ['0008']);
    expectFailure(await testWebhook(on.stack, instance, 'ftp://example.com/h'), ['0008']);
    expect(on.receiver.at(path)).toHaveLength(0);
  });
});
