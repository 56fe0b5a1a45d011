import { expectFailure, expectSuccess, postJson, request, runOpsAsync } from '@gw/testing';
import { Webhook } from 'standardwebhooks';
import { headersOf, ISO_MS, loggedAttempts, subscribed } from './support/delivery-fixtures';
import { INTERNAL_TOKEN, sleep, until, type Instance } from './support/stack';
import { stacksOnStores } from './support/on-store';

/**
 * What the account holder's self-service does to delivery, end to end with both processes, on both
 * stores: deleteInstance (docs/api.md 8.1) cancels what is pending, stops a scheduled retry and lets
 * nothing new be notified; resetInstanceToken (8.2) leaves delivery exactly as it was.
 */

/** One retry, 2.4 to 3.6 s after a failed first attempt: long enough to delete the instance first. */
const RETRY_SCHEDULE = '3';

// The tests wait for retries that must not come, each on its own instances: side by side.
const STACKS = stacksOnStores({ RETRY_SCHEDULE });

describe.each(STACKS)('deleting an instance and resetting its token, for delivery, on %s', (_store, on) => {
  /** A stream's recorded events, as the operator CLI lists them (the log is the record). */
  const streamEvents = async (stream: string): Promise<Array<{ type: string; data: Record<string, any> }>> => {
    const result = await runOpsAsync(on.stack.dataDir, ['events', 'list', '--stream', stream], on.stack.apiEnv);
    if (result.status !== 0) throw new Error(`events list failed: ${result.stderr}`);
    const text = result.stdout.trim();
    return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line));
  };
  const ingest = (instance: Instance, kind: 'messages' | 'acks', body: Record<string, unknown>) =>
    request(`${on.stack.api.internalUrl}/instances/${instance.instanceid}/${kind}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${INTERNAL_TOKEN}` },
      body: JSON.stringify(body),
    });

  it.concurrent(
    'a deletion cancels the pending notification: its scheduled retry never comes, and nothing new is notified',
    async () => {
      const { instance, path } = await subscribed(on.stack, on.receiver, [{ status: 500 }]);
      const neighbour = await subscribed(on.stack, on.receiver);
      await on.stack.message(instance, { id: 'pending-1' });
      const [failed] = await loggedAttempts(on.stack, instance, 1);
      expect(failed).toMatchObject({ status: 500, sequence: 1 });
      expect(failed.nextAttemptAt).toMatch(ISO_MS);

      expectSuccess(await on.stack.deleteInstance(instance));
      // Past the moment the retry was due, and then some: the receiver (which would now answer 200)
      // saw the first attempt only.
      await sleep(Math.max(0, Date.parse(failed.nextAttemptAt) - Date.now()) + 2000);
      expect(on.receiver.at(path)).toHaveLength(1);

      // Nothing new reaches the log for it (404, 0005), so nothing new is notified.
      expectFailure(
        await ingest(instance, 'messages', { id: 'after-1', chatId: 'c@c.us', time: 1_700_000_000 }),
        ['0005'],
        404,
      );
      expectFailure(
        await ingest(instance, 'acks', { id: 'pending-1', chatId: 'c@c.us', status: 'read', time: 1_700_000_001 }),
        ['0005'],
        404,
      );
      // Its delivery log is closed with its token (0006).
      expectFailure(await postJson(on.stack.api.apiUrl, '/getWebhookLogs', instance), ['0006']);

      // The log keeps what happened: created, failed once, cancelled for the deletion; nothing after.
      const events = await until('the cancellation in the log', async () => {
        const found = await streamEvents(`notifications-${instance.instanceid}`);
        return found.some((e) => e.type === 'NotificationCancelled') && found;
      });
      expect(events.map((e) => e.type)).toEqual([
        'NotificationCreated',
        'DeliveryAttemptFailed',
        'NotificationCancelled',
      ]);
      expect(events[2].data).toMatchObject({ sequence: 1, reason: 'the instance was deleted' });

      // Another instance of the same account goes on being notified.
      await on.stack.message(neighbour.instance, { id: 'neighbour-1' });
      await until('the neighbour’s notification', () => on.receiver.at(neighbour.path).length === 1);
      await sleep(500);
      expect(on.receiver.at(path)).toHaveLength(1);
    },
  );

  it.concurrent('a deletion while a notification is being attempted: its retry is not made either', async () => {
    // The first attempt is held by the receiver for a second and then fails, after the deletion.
    const { instance, path } = await subscribed(on.stack, on.receiver, [{ status: 500, delayMs: 1000 }]);
    await on.stack.message(instance, { id: 'in-flight-1' });
    await until('the attempt in flight', () => on.receiver.at(path).length === 1);
    expectSuccess(await on.stack.deleteInstance(instance));
    await sleep(1000 + 3600 + 1500);
    expect(on.receiver.at(path)).toHaveLength(1);
    const events = await streamEvents(`notifications-${instance.instanceid}`);
    expect(events.filter((e) => e.type === 'NotificationDelivered')).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: 'NotificationCancelled',
      data: { reason: 'the instance was deleted' },
    });
  });

  it.concurrent(
    'resetting the token changes nothing of delivery: same URL, same signing secret, the sequence goes on',
    async () => {
      const { instance, path, url, secret } = await subscribed(on.stack, on.receiver);
      await on.stack.message(instance, { id: 'reset-1' });
      await until('the first notification', () => on.receiver.at(path).length === 1);

      const renewed = await on.stack.resetInstanceToken(instance);
      await on.stack.message(instance, { id: 'reset-2' });
      await until('the second notification', () => on.receiver.at(path).length === 2);

      const webhook = new Webhook(secret);
      const [first, second] = on.receiver.at(path);
      for (const r of [first, second]) expect(webhook.verify(r.rawBody, headersOf(r))).toEqual(r.json);
      expect(second.json).toMatchObject({
        instanceId: instance.instanceid,
        sequence: 2,
        messages: [{ id: 'reset-2' }],
      });
      expect(await on.stack.status(renewed)).toMatchObject({ webhookUrl: url, enabled: true, signingSecret: secret });
      const logs = await loggedAttempts(on.stack, renewed, 2);
      expect(logs.map((a) => [a.sequence, a.status])).toEqual([
        [2, 200],
        [1, 200],
      ]);
      expectFailure(await on.stack.setWebhook(instance, ''), ['0006']);
    },
  );
});
