import { request, runOps, WebhookReceiver, type Plan, type ReceivedRequest } from '@gw/testing';
import { Webhook } from 'standardwebhooks';
import { INTERNAL_TOKEN, LOCAL_TARGETS, sleep, Stack, total, until, type Instance } from './support/stack';

/** CONTRACT section 6 (and 4.4, 4.5, 4.8) end to end: the built API and notifier as processes, a
 * real receiver on a loopback port. Retry delays are compressed with RETRY_SCHEDULE. */

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const headersOf = (r: ReceivedRequest) => r.headers as Record<string, string>;

let paths = 0;

/** A new instance whose webhook points at its own path on the receiver. */
async function subscribed(stack: Stack, receiver: WebhookReceiver, plan?: Plan) {
  const instance = await stack.newInstance();
  const path = `/hook/${++paths}`;
  if (plan) receiver.plan(path, plan);
  const url = receiver.url(path);
  const registered = await stack.webhook(instance, url);
  return { instance, path, url, secret: registered.signingSecret as string };
}

/** Waits until getWebhookLogs lists at least `n` attempts; returns them (newest first). */
const loggedAttempts = (stack: Stack, instance: Instance, n: number, timeoutMs = 10_000) =>
  until(`${n} logged attempts`, async () => {
    const attempts = await stack.logs(instance);
    return attempts.length >= n && attempts;
  }, timeoutMs, 100);

describe('delivery with RETRY_SCHEDULE=1,1,1', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await Stack.start({ env: { ...LOCAL_TARGETS, RETRY_SCHEDULE: '1,1,1', NOTIFICATION_BATCH_MAX: '10' } });
  });
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  });

  it('a recorded message and then an ack reach the receiver once each, with the documented bodies and Standard Webhooks signatures', async () => {
    const { instance, path, secret } = await subscribed(stack, receiver);
    expect(secret).toMatch(/^whsec_/);
    const before = Math.floor(Date.now() / 1000);
    await stack.message(instance, { id: 'm-1', chatId: 'c-1@c.us', time: 1_700_000_001 });
    await until('the message', () => receiver.at(path).length >= 1);
    await stack.ack(instance, { id: 'm-1', chatId: 'c-1@c.us', status: 'delivered', time: 1_700_000_002 });
    await until('the ack', () => receiver.at(path).length >= 2);
    await sleep(1500); // longer than a retry delay: nothing comes twice
    const [message, ack] = receiver.at(path);
    expect(receiver.at(path)).toHaveLength(2);

    expect(message.method).toBe('POST');
    expect(message.json).toEqual({
      instanceId: instance.instanceid,
      sequence: 1,
      messages: [{ id: 'm-1', chatId: 'c-1@c.us', from: '', fromMe: false, senderName: '', type: 'chat', body: '', time: 1_700_000_001 }],
    });
    expect(ack.json).toEqual({
      instanceId: instance.instanceid,
      sequence: 2,
      ack: [{ id: 'm-1', chatId: 'c-1@c.us', status: 'delivered', time: 1_700_000_002 }],
    });

    const webhook = new Webhook(secret);
    for (const r of [message, ack]) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toMatch(/\S/);
      expect(r.webhookId).toMatch(/^\S+$/);
      const timestamp = Number(r.headers['webhook-timestamp']);
      expect(timestamp).toBeGreaterThanOrEqual(before - 1);
      expect(timestamp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(webhook.verify(r.rawBody, headersOf(r))).toEqual(r.json);
      expect(() => webhook.verify(r.rawBody.replace('c-1@c.us', 'c-2@c.us'), headersOf(r))).toThrow();
    }
    expect(message.webhookId).not.toBe(ack.webhookId);
  });

  it('sends one notification of an instance at a time; what is recorded meanwhile follows in batches of at most NOTIFICATION_BATCH_MAX, in record order', async () => {
    // The first answer is slow, so that the other 29 are all recorded while it is in flight.
    const { instance, path } = await subscribed(stack, receiver, (_, nth) => ({ delayMs: nth === 1 ? 3000 : 10 }));
    await stack.message(instance, { id: 'seq-1', body: '#1' });
    await until('the first notification', () => receiver.at(path).length === 1, 5000, 5);
    for (const i of range(30).slice(1)) await stack.message(instance, { id: `seq-${i}`, body: `#${i}` });
    expect(receiver.at(path)).toHaveLength(1);
    await until('30 messages', () => receiver.at(path).flatMap((r) => r.json.messages).length >= 30, 20_000);
    await sleep(300);
    const got = receiver.at(path);
    expect(got.map((r) => r.json.sequence)).toEqual([1, 2, 3, 4]);
    expect(got.map((r) => r.json.messages.length)).toEqual([1, 10, 10, 9]);
    expect(got.flatMap((r) => r.json.messages.map((m: { id: string }) => m.id))).toEqual(range(30).map((i) => `seq-${i}`));
    expect(got[1].json.messages[0]).toEqual({ id: 'seq-2', chatId: 'chat-1@c.us', from: '', fromMe: false, senderName: '', type: 'chat', body: '#2', time: 1_700_000_000 });
    expect(new Set(got.map((r) => r.webhookId)).size).toBe(4);
    expect(receiver.maxConcurrency(path)).toBe(1);
  });

  it('never puts messages and acks in one notification, and keeps record order across the kinds', async () => {
    const { instance, path } = await subscribed(stack, receiver, (_, nth) => ({ delayMs: nth === 1 ? 3000 : 10 }));
    await stack.message(instance, { id: 'k-1' });
    await until('the first notification', () => receiver.at(path).length === 1, 5000, 5);
    await stack.ack(instance, { id: 'k-1', chatId: 'chat-1@c.us', status: 'sent', time: 1_700_000_001 });
    await stack.ack(instance, { id: 'k-1', chatId: 'chat-1@c.us', status: 'delivered', time: 1_700_000_002 });
    await stack.message(instance, { id: 'k-2' });
    await stack.message(instance, { id: 'k-3' });
    await stack.ack(instance, { id: 'k-2', chatId: 'chat-1@c.us', status: 'read', time: 1_700_000_003 });
    await until('four notifications', () => receiver.at(path).length >= 4, 15_000);
    await sleep(300);
    const got = receiver.at(path).map((r) => r.json);
    expect(got.map((body) => body.sequence)).toEqual([1, 2, 3, 4]);
    expect(got.map((body) => (body.messages ? { messages: body.messages.map((m: { id: string }) => m.id) } : { ack: body.ack.map((a: { status: string }) => a.status) }))).toEqual([
      { messages: ['k-1'] },
      { ack: ['sent', 'delivered'] },
      { messages: ['k-2', 'k-3'] },
      { ack: ['read'] },
    ]);
  });

  it('retries a failed notification with the same webhook-id until it succeeds, and getWebhookLogs shows every attempt newest first', async () => {
    const { instance, path } = await subscribed(stack, receiver, [{ status: 500 }, { status: 500 }, { status: 200 }]);
    await stack.message(instance, { id: 'retry-1' });
    await until('three attempts', () => receiver.at(path).length >= 3, 10_000);
    const attempts = receiver.at(path);
    const webhookId = attempts[0].webhookId;
    expect(attempts.map((a) => a.webhookId)).toEqual([webhookId, webhookId, webhookId]);
    expect(new Set(attempts.map((a) => a.rawBody)).size).toBe(1);
    expect(attempts[1].arrivedAt - attempts[0].arrivedAt).toBeGreaterThanOrEqual(700);
    expect(attempts[2].arrivedAt - attempts[1].arrivedAt).toBeGreaterThanOrEqual(700);

    const logs = await loggedAttempts(stack, instance, 3);
    expect(logs.map((a) => a.status)).toEqual([200, 500, 500]);
    for (const entry of logs) {
      expect(entry).toMatchObject({ webhookId, sequence: 1, error: '' });
      expect(entry.at).toMatch(ISO_MS);
      expect(typeof entry.durationMs).toBe('number');
    }
    expect(logs[0].nextAttemptAt).toBeNull();
    for (const failed of logs.slice(1)) {
      expect(failed.nextAttemptAt).toMatch(ISO_MS);
      expect(Date.parse(failed.nextAttemptAt)).toBeGreaterThan(Date.parse(failed.at));
    }
    await sleep(1500);
    expect(receiver.at(path)).toHaveLength(3);
  });

  it('a connection reset and a redirect are failed attempts (redirects are not followed)', async () => {
    const { instance, path } = await subscribed(stack, receiver, [
      { kind: 'reset' },
      { status: 307, headers: { location: receiver.url('/elsewhere') } },
      { status: 204 },
    ]);
    await stack.message(instance, { id: 'odd-1' });
    const logs = await loggedAttempts(stack, instance, 3);
    expect(logs.map((a) => a.status)).toEqual([204, 307, 0]);
    expect(logs[2].error).toMatch(/^reset/);
    expect(logs[1].error).toBe('');
    expect(receiver.at(path)).toHaveLength(3);
    expect(receiver.at('/elsewhere')).toHaveLength(0);
  });

  it('dead-letters a notification whose receiver stays down, and an operator resend delivers it with the same webhook-id', async () => {
    const down = await WebhookReceiver.start();
    try {
      const instance = await stack.newInstance();
      await stack.webhook(instance, down.url('/down'));
      await down.stop(); // the port is closed: connections are refused
      await stack.message(instance, { id: 'dead-1' });

      const logs = await loggedAttempts(stack, instance, 4, 15_000);
      expect(logs.map((a) => a.status)).toEqual([0, 0, 0, 0]);
      for (const entry of logs) expect(entry.error).toMatch(/^refused/);
      expect(logs[0].nextAttemptAt).toBeNull();
      for (const failed of logs.slice(1)) expect(failed.nextAttemptAt).toMatch(ISO_MS);
      const webhookId = logs[0].webhookId;
      expect(logs.every((a) => a.webhookId === webhookId && a.sequence === 1)).toBe(true);

      await down.start(); // the same port again
      await sleep(2500); // beyond any scheduled retry: a dead-lettered notification is not attempted
      expect(await stack.logs(instance)).toHaveLength(4);
      expect(down.requests).toHaveLength(0);

      const resend = runOps(stack.dataDir, ['deliveries', 'resend', '--instance', instance.instanceid], { INTERNAL_TOKEN });
      expect(resend.status).toBe(0);
      expect(JSON.parse(resend.stdout)).toEqual({ instance: instance.instanceid, resent: 1 });
      const [delivered] = await until('the resent notification', () => down.requests.length >= 1 && down.requests);
      expect(delivered.webhookId).toBe(webhookId);
      expect(delivered.json).toMatchObject({ instanceId: instance.instanceid, sequence: 1, messages: [{ id: 'dead-1' }] });
      const after = await loggedAttempts(stack, instance, 5);
      expect(after[0]).toMatchObject({ status: 200, webhookId, sequence: 1, nextAttemptAt: null });
    } finally {
      await down.stop();
    }
  });

  it('a 503 with Retry-After: 3 moves the next attempt to 2x the ~1 s scheduled delay (never beyond 2x)', async () => {
    const { instance, path } = await subscribed(stack, receiver, [{ status: 503, headers: { 'retry-after': '3' } }, { status: 200 }]);
    await stack.message(instance, { id: 'ra-1' });
    const [first, second] = await until('two attempts', () => receiver.at(path).length >= 2 && receiver.at(path), 10_000);
    const gapSeconds = (second.arrivedAt - first.arrivedAt) / 1000;
    // Without Retry-After the retry comes after 0.8..1.2 s; honoured and capped at 2x it is 1.6..2.4 s.
    expect(gapSeconds).toBeGreaterThanOrEqual(1.5);
    expect(gapSeconds).toBeLessThan(3);
    const [, failed] = await loggedAttempts(stack, instance, 2);
    expect(failed.status).toBe(503);
    const scheduled = (Date.parse(failed.nextAttemptAt) - Date.parse(failed.at)) / 1000;
    expect(scheduled).toBeGreaterThanOrEqual(1.6);
    expect(scheduled).toBeLessThanOrEqual(2.4);
  });

  it('/healthz answers 200 and /metrics counts delivered, failed and dead-lettered notifications', async () => {
    const health = await request(`${stack.notifier!.statusUrl}/healthz`);
    expect(health.status).toBe(200);
    const before = await stack.metrics();
    const failing = await subscribed(stack, receiver, () => ({ status: 503 }));
    const working = await subscribed(stack, receiver);
    await stack.message(failing.instance, { id: 'metrics-1' });
    await stack.message(working.instance, { id: 'metrics-2' });
    await loggedAttempts(stack, failing.instance, 4, 15_000);
    await until('the delivery', () => receiver.at(working.path).length >= 1);
    const after = await until('the metrics to count the dead letter', async () => {
      const m = await stack.metrics();
      return total(m, 'notifier_notifications_dead_lettered_total') > total(before, 'notifier_notifications_dead_lettered_total') && m;
    });
    const delta = (name: string) => total(after, name) - total(before, name);
    expect(delta('notifier_notifications_delivered_total')).toBe(1);
    expect(delta('notifier_attempts_failed_total')).toBe(4);
    expect(delta('notifier_notifications_dead_lettered_total')).toBe(1);
    expect((after.get('notifier_attempts_failed_total{reason="503"}') ?? 0) - (before.get('notifier_attempts_failed_total{reason="503"}') ?? 0)).toBe(4);
    expect(after.get('notifier_ready')).toBe(1);
  });
});

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
    const path = `/hook/${++paths}`;
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
