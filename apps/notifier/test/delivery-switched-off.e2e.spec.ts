import { WebhookReceiver } from '@gw/testing';
import { freshPath, ISO_MS, loggedAttempts, subscribed } from './support/delivery-fixtures';
import { LOCAL_TARGETS, sleep, Stack, until } from './support/stack';

/** docs/api.md section 6 (and 4.4) end to end: delivery switched off by the receiver (410) or by
 * clearing the webhook, and what is (not) sent meanwhile. Retry delays are compressed with
 * RETRY_SCHEDULE. */

describe('switching delivery off, with RETRY_SCHEDULE=2,2,2', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await Stack.start({ env: { ...LOCAL_TARGETS, RETRY_SCHEDULE: '2,2,2' } });
  });
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  });

  it('410 Gone switches delivery off with a disabledReason; later messages are not sent until the URL is registered again', async () => {
    const { instance, path, url } = await subscribed(stack, receiver, [{ status: 410 }]);
    await stack.message(instance, { id: 'gone-1' });
    await until('the attempt', () => receiver.at(path).length >= 1);
    const off = await until('delivery to be off', async () => {
      const status = await stack.status(instance);
      return status.enabled === false && status;
    });
    expect(off).toMatchObject({ webhookUrl: url, enabled: false, instanceStatus: 'active' });
    expect(off.disabledReason).toMatch(/\S/);
    const [gone] = await loggedAttempts(stack, instance, 1);
    expect(gone).toMatchObject({ status: 410, sequence: 1, nextAttemptAt: null });

    await stack.message(instance, { id: 'gone-2' });
    await sleep(2500);
    expect(receiver.at(path)).toHaveLength(1);

    expect(await stack.webhook(instance, url)).toMatchObject({ webhookUrl: url, enabled: true });
    const on = await stack.status(instance);
    expect(on.enabled).toBe(true);
    expect(on.disabledReason).toBeUndefined();
    await stack.message(instance, { id: 'gone-3' });
    await until('the message after re-registering', () => receiver.at(path).length >= 2);
    await sleep(500);
    const later = receiver.at(path).slice(1);
    expect(later.map((r) => [r.json.sequence, r.json.messages[0].id])).toEqual([[2, 'gone-3']]);
  });

  it('sends nothing for messages recorded while no URL was registered or after it was cleared', async () => {
    const instance = await stack.newInstance();
    const path = freshPath();
    const url = receiver.url(path);
    await stack.message(instance, { id: 'off-never-registered' });
    await stack.webhook(instance, url);
    expect(await stack.webhook(instance, '')).toMatchObject({ webhookUrl: '', enabled: false });
    await stack.message(instance, { id: 'off-cleared' });
    await stack.webhook(instance, url);
    await stack.message(instance, { id: 'on-1' });
    await until('the message recorded while on', () => receiver.at(path).length >= 1);
    await sleep(1000);
    expect(receiver.at(path).map((r) => [r.json.sequence, r.json.messages[0].id])).toEqual([[1, 'on-1']]);
  });

  it('clearing the webhook cancels a pending retry: the failing receiver gets no more attempts, not even after re-registering', async () => {
    const { instance, path, url } = await subscribed(stack, receiver, () => ({ status: 500 }));
    await stack.message(instance, { id: 'cancel-1' });
    const [failed] = await loggedAttempts(stack, instance, 1);
    expect(failed).toMatchObject({ status: 500 });
    expect(failed.nextAttemptAt).toMatch(ISO_MS);
    await stack.webhook(instance, '');
    // The retry was due 1.6..2.4 s after the failure; wait well past it.
    await sleep(Math.max(0, Date.parse(failed.nextAttemptAt) + 1500 - Date.now()));
    expect(receiver.at(path)).toHaveLength(1);

    receiver.plan(path, []);
    await stack.webhook(instance, url);
    await sleep(2500);
    expect(receiver.at(path)).toHaveLength(1);
    expect(await stack.logs(instance)).toHaveLength(1);
  });
});
