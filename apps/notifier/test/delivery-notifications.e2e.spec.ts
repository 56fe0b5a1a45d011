import { WebhookReceiver } from '@gw/testing';
import { Webhook } from 'standardwebhooks';
import { headersOf, range, subscribed } from './support/delivery-fixtures';
import { LOCAL_TARGETS, sleep, Stack, until } from './support/stack';

/** docs/api.md section 6 end to end, what is sent: bodies, signatures, order and batches. The built API
 * and notifier as processes, a real receiver on a loopback port. */

describe('notifications, with NOTIFICATION_BATCH_MAX=10', () => {
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
      messages: [
        {
          id: 'm-1',
          chatId: 'c-1@c.us',
          from: '',
          fromMe: false,
          senderName: '',
          type: 'chat',
          body: '',
          time: 1_700_000_001,
        },
      ],
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

  it('gives an optional field sent as JSON null, and an empty type, its default', async () => {
    const { instance, path } = await subscribed(stack, receiver);
    const nulls = { from: null, fromMe: null, senderName: null, body: null };
    await stack.message(instance, { id: 'n-1', chatId: 'c@c.us', time: 1_700_000_003, ...nulls, type: null });
    await until('the first', () => receiver.at(path).length >= 1);
    await stack.message(instance, { id: 'n-2', chatId: 'c@c.us', time: 1_700_000_004, type: '' });
    await until('the second', () => receiver.at(path).length >= 2);
    const defaults = { chatId: 'c@c.us', from: '', fromMe: false, senderName: '', type: 'chat', body: '' };
    expect(receiver.at(path).map((r) => r.json.messages)).toEqual([
      [{ id: 'n-1', ...defaults, time: 1_700_000_003 }],
      [{ id: 'n-2', ...defaults, time: 1_700_000_004 }],
    ]);
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
    expect(got.flatMap((r) => r.json.messages.map((m: { id: string }) => m.id))).toEqual(
      range(30).map((i) => `seq-${i}`),
    );
    expect(got[1].json.messages[0]).toEqual({
      id: 'seq-2',
      chatId: 'chat-1@c.us',
      from: '',
      fromMe: false,
      senderName: '',
      type: 'chat',
      body: '#2',
      time: 1_700_000_000,
    });
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
    expect(
      got.map((body) =>
        body.messages
          ? { messages: body.messages.map((m: { id: string }) => m.id) }
          : { ack: body.ack.map((a: { status: string }) => a.status) },
      ),
    ).toEqual([{ messages: ['k-1'] }, { ack: ['sent', 'delivered'] }, { messages: ['k-2', 'k-3'] }, { ack: ['read'] }]);
  });
});
