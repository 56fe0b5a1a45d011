import { expectSuccess, postJson, type Plan } from '@gw/testing';
import { subscribed } from './support/delivery-fixtures';
import { sleep, until, type Instance } from './support/stack';
import { stacksOnStores } from './support/on-store';

/**
 * docs/api.md 8.4 end to end: only traffic of the kinds chosen with `events` becomes a notification,
 * judged by the set in force when it was recorded. The built API and notifier as processes, a real
 * receiver, on both stores.
 */

type Traffic = 'incoming' | 'own' | 'ack';

/** What a receiver got, one entry per notification: its sequence and what it carried. */
const carried = (body: any) =>
  body.messages
    ? {
        sequence: body.sequence,
        messages: body.messages.map((m: { id: string; fromMe: boolean }) => `${m.id}${m.fromMe ? ' (own)' : ''}`),
      }
    : { sequence: body.sequence, ack: body.ack.map((a: { id: string; status: string }) => `${a.id} ${a.status}`) };

// The tests wait to see that nothing more comes, each on its own instance: side by side.
const STACKS = stacksOnStores({ RETRY_SCHEDULE: '1,1,1' });

describe.each(STACKS)('notification kinds, on %s', (_store, on) => {
  /** Registers `url` with `events` (or none) and returns the set the answer says is in force. */
  const choose = async (instance: Instance, url: string, events?: string): Promise<string[]> =>
    expectSuccess(
      await postJson(on.stack.api.apiUrl, '/webhook', {
        ...instance,
        webhookUrl: url,
        ...(events === undefined ? {} : { events }),
      }),
    ).events;

  const subscribedTo = (events: string, plan?: Plan) => subscribed(on.stack, on.receiver, plan, events);

  const record = async (instance: Instance, what: Traffic, id: string, status = 'delivered') => {
    if (what === 'ack') await on.stack.ack(instance, { id, chatId: 'chat-1@c.us', status, time: 1_700_000_100 });
    else await on.stack.message(instance, { id, fromMe: what === 'own' });
  };

  /** Waits for `n` notifications at `path`, then a while longer, so that one more would be seen. */
  const received = async (path: string, n: number) => {
    await until(`${n} notifications`, () => on.receiver.at(path).length >= n);
    await sleep(700);
    return on.receiver.at(path).map((r) => carried(r.json));
  };

  it.each<[string, Traffic[], Traffic, object]>([
    ['messages', ['own', 'ack'], 'incoming', { messages: ['k-3'] }],
    ['ownMessages', ['incoming', 'ack'], 'own', { messages: ['k-3 (own)'] }],
    ['acks', ['incoming', 'own'], 'ack', { ack: ['k-3 delivered'] }],
  ])(
    'with only %s chosen, the other kinds recorded first are not notified, and that kind is',
    async (events, others, chosen, expected) => {
      const { instance, path } = await subscribedTo(events);
      await record(instance, others[0], 'k-1');
      await record(instance, others[1], 'k-2');
      await record(instance, chosen, 'k-3');
      // Sequence 1: nothing recorded before it became a notification.
      expect(await received(path, 1)).toEqual([{ sequence: 1, ...expected }]);
    },
  );

  it.concurrent('with two kinds chosen, both are notified and the third is not', async () => {
    const { instance, path } = await subscribedTo('acks, ownMessages');
    await record(instance, 'incoming', 't-1');
    await record(instance, 'own', 't-2');
    await record(instance, 'incoming', 't-3');
    await record(instance, 'ack', 't-2');
    expect(await received(path, 2)).toEqual([
      { sequence: 1, messages: ['t-2 (own)'] },
      { sequence: 2, ack: ['t-2 delivered'] },
    ]);
  });

  it.concurrent('with only instance notices chosen, no message or ack is notified', async () => {
    const { instance, path } = await subscribedTo('instance');
    // Notices about the instance (8.9) may come; traffic must not.
    const traffic = () => on.receiver.at(path).filter((r) => !r.json.instance);
    for (const what of ['incoming', 'own', 'ack'] as const) await record(instance, what, `i-${what}`);
    await sleep(1500);
    expect(traffic()).toEqual([]);
    // The pipeline works: what is recorded once messages are chosen comes, and it is the first
    // notification that is not a notice, so the traffic before it never got a sequence.
    await choose(instance, on.receiver.url(path), 'messages');
    await record(instance, 'incoming', 'i-after');
    await until('i-after', () => traffic().length >= 1);
    await sleep(700);
    expect(traffic().map((r) => carried(r.json))).toEqual([
      { sequence: on.receiver.at(path).length, messages: ['i-after'] },
    ]);
  });

  it.concurrent('a change of the set applies to traffic recorded after it, and only to that', async () => {
    // The first notification is slow, so that what follows is recorded while it is in flight.
    const { instance, path } = await subscribedTo('messages,acks', (_, nth) => ({ delayMs: nth === 1 ? 2000 : 10 }));
    const url = on.receiver.url(path);
    await record(instance, 'incoming', 'c-1');
    await until('the first notification on its way', () => on.receiver.at(path).length === 1, 5000, 5);
    // Recorded under messages and acks, still waiting to be sent when the set changes.
    await record(instance, 'ack', 'c-1', 'sent');
    expect(await choose(instance, url, 'ownMessages')).toEqual(['ownMessages']);
    await record(instance, 'ack', 'c-1', 'read');
    await record(instance, 'incoming', 'c-2');
    await record(instance, 'own', 'c-3');
    expect(await received(path, 3)).toEqual([
      { sequence: 1, messages: ['c-1'] },
      { sequence: 2, ack: ['c-1 sent'] },
      { sequence: 3, messages: ['c-3 (own)'] },
    ]);

    // Choosing messages again notifies new incoming messages, never c-2 recorded while they were not chosen.
    expect(await choose(instance, url, 'messages')).toEqual(['messages']);
    await record(instance, 'own', 'c-4');
    await record(instance, 'incoming', 'c-5');
    expect((await received(path, 4)).slice(3)).toEqual([{ sequence: 4, messages: ['c-5'] }]);
  });

  it.concurrent('registering without events after a choice notifies every default kind again', async () => {
    const { instance, path } = await subscribedTo('acks');
    await record(instance, 'incoming', 'd-1');
    expect(await choose(instance, on.receiver.url(path))).toEqual(['messages', 'ownMessages', 'acks']);
    await record(instance, 'incoming', 'd-2');
    await record(instance, 'own', 'd-3');
    await record(instance, 'ack', 'd-3');
    // The two messages may travel together (section 6, Batching).
    const items = () => on.receiver.at(path).flatMap((r) => carried(r.json).messages ?? carried(r.json).ack);
    await until('three items', () => items().length >= 3);
    await sleep(700);
    expect(items()).toEqual(['d-2', 'd-3 (own)', 'd-3 delivered']);
    expect(carried(on.receiver.at(path)[0].json).sequence).toBe(1);
  });
});
