import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { dataKey, sealMessageWith } from '@gw/application';
import type { Message, SealedMessage } from '@gw/domain-inbox';
import type { NotifiableItem, NotificationBody } from '@gw/domain-notifications';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { createLogger } from '@gw/logging';
import { FakeClock } from '@gw/testing';
import { NotifierMetrics } from '../metrics/metrics';
import { envelopeBytes, NotificationBatcher, webhookIdFor } from './notification-batcher';
import { NotificationWriter } from './notification-writer';
import { NotifierModel } from './notifier-model';

/** The batcher on the real embedded store and the real writer and model; the delivery loop's part (an
 * attempt that starts and ends) is played by the test. */

const I = 'i1';
const message = (id: string): SealedMessage => ({
  id,
  fromMe: false,
  type: 'chat',
  sealed: `pd2.sealed-${id}`,
  time: 1767225600,
});
const m = (id: string): NotifiableItem => ({ sourceEventId: `ev-${id}`, message: message(id) });
const a = (id: string): NotifiableItem => ({
  sourceEventId: `ev-${id}`,
  ack: { id, sealed: 'pd2.sealed-chat', status: 'read', time: 1767225601 },
});

let dir: string;
let store: SqliteEventStore;
let model: NotifierModel;
let writer: NotificationWriter;
const controller = new AbortController();
const clock = new FakeClock();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gw-batcher-'));
  store = new SqliteEventStore({ file: join(dir, 'events.sqlite') });
  model = new NotifierModel(1, 0);
  writer = new NotificationWriter(store, model, createLogger('error'), controller.signal);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function batcherWith(batchMax: number, batchBytes = 262_144) {
  const batcher = new NotificationBatcher(writer, new NotifierMetrics(), clock, { batchMax, batchBytes });
  return { batcher };
}

/** As the delivery loop judges it (no attempt is in flight here): a notification made and not yet
 * attempted is on its way. */
const onItsWay = (id: string) => model.hasFreshNotification(id);
const add = (batcher: NotificationBatcher, item: NotifiableItem, position: bigint) =>
  batcher.add(I, item, position, onItsWay(I));

/** What the instance's open notifications carry, in sequence order. */
const carried = () =>
  Object.values(model.notificationsOf(I).state.open)
    .sort((x, y) => x.sequence - y.sequence)
    .map((n) => {
      const body = n.body as NotificationBody & { messages?: SealedMessage[]; ack?: Array<{ id: string }> };
      return (body.messages ?? body.ack ?? []).map((item) => item.id);
    });

/** The attempt of the instance's fresh notification ends (delivered), as the processor records it. */
async function attemptEnds(batcher: NotificationBatcher): Promise<void> {
  const fresh = Object.values(model.notificationsOf(I).state.open).find(
    (n) => n.status === 'pending' && n.attempts === 0,
  )!;
  await writer.run(I, {
    type: 'RecordAttempt',
    data: {
      instanceId: I,
      webhookId: fresh.webhookId,
      at: new Date(clock.now()).toISOString(),
      status: 200,
      error: '',
      durationMs: 1,
      retryAfterSeconds: null,
      retryDelaysSeconds: [1],
      jitter: 1,
    },
  });
  // What the delivery loop's next turn does, awaited here.
  await batcher.flush(onItsWay);
}

describe('the notification batcher', () => {
  it('sends the first item of an idle instance alone, and the rest of the burst together after its attempt', async () => {
    const { batcher } = batcherWith(100);
    ['1', '2', '3', '4', '5'].forEach((id, i) => add(batcher, m(id), BigInt(i + 1)));
    expect(await batcher.flush(onItsWay)).toBe(true);
    expect(carried()).toEqual([['1']]);
    // The rest waits behind it, and so does the checkpoint.
    expect(batcher.earliestWaiting()).toBe(2n);
    expect(await batcher.flush(onItsWay)).toBe(false);
    expect(carried()).toEqual([['1']]);
    await attemptEnds(batcher);
    expect(carried()).toEqual([['2', '3', '4', '5']]);
    expect(batcher.earliestWaiting()).toBeUndefined();
    expect(Object.values(model.notificationsOf(I).state.open).map((n) => n.webhookId)).toEqual([webhookIdFor('ev-2')]);
  });

  it('puts at most NOTIFICATION_BATCH_MAX items of one kind in a notification, in record order', async () => {
    const { batcher } = batcherWith(2);
    [m('1'), m('2'), m('3'), m('4'), a('5'), a('6')].forEach((item, i) => add(batcher, item, BigInt(i + 1)));
    expect(await batcher.flush(onItsWay)).toBe(true);
    const seen = [carried()];
    for (let k = 0; k < 4; k++) {
      await attemptEnds(batcher);
      seen.push(carried());
    }
    expect(seen).toEqual([[['1']], [['2', '3']], [['4']], [['5', '6']], []]);
  });

  it('puts at most NOTIFICATION_BATCH_BYTES of body in a notification, as its receiver gets it', async () => {
    const { batcher } = batcherWith(100, 262_144);
    const key = dataKey(`${I}.20260304.0a1b2c3d`, randomBytes(32));
    const clear = new Map<string, Message>();
    for (let n = 1; n <= 10; n++) {
      const plain: Message = {
        id: String(n),
        chatId: 'c@c.us',
        from: 'f@c.us',
        fromMe: false,
        senderName: 'Ana',
        type: 'chat',
        body: 'x'.repeat(60_000),
        time: 1,
      };
      clear.set(plain.id, plain);
      add(batcher, { sourceEventId: `ev-${n}`, message: sealMessageWith(key, plain) }, BigInt(n));
    }
    expect(await batcher.flush(onItsWay)).toBe(true);
    const seen = [carried()];
    for (let k = 0; k < 3; k++) {
      await attemptEnds(batcher);
      seen.push(carried());
    }
    // 60 KB each: four fit in 256 KiB with the envelope, five do not.
    expect(seen).toEqual([[['1']], [['2', '3', '4', '5']], [['6', '7', '8', '9']], [['10']]]);
    const body = (ids: string[]) =>
      Buffer.byteLength(JSON.stringify({ instanceId: I, sequence: 3, messages: ids.map((id) => clear.get(id)) }));
    expect(body(['2', '3', '4', '5'])).toBeLessThanOrEqual(262_144);
    expect(body(['2', '3', '4', '5', '6'])).toBeGreaterThan(262_144);
  });

  it('sends an item larger than NOTIFICATION_BATCH_BYTES alone', async () => {
    const { batcher } = batcherWith(100, 1024);
    const key = dataKey(`${I}.20260304.0a1b2c3d`, randomBytes(32));
    const big = (id: string): NotifiableItem => ({
      sourceEventId: `ev-${id}`,
      message: sealMessageWith(key, {
        id,
        chatId: 'c',
        from: 'f',
        fromMe: false,
        senderName: 's',
        type: 'chat',
        body: 'y'.repeat(2000),
        time: 1,
      }),
    });
    [m('1'), big('2'), big('3'), m('4')].forEach((item, i) => add(batcher, item, BigInt(i + 1)));
    expect(await batcher.flush(onItsWay)).toBe(true);
    const seen = [carried()];
    for (let k = 0; k < 3; k++) {
      await attemptEnds(batcher);
      seen.push(carried());
    }
    expect(seen).toEqual([[['1']], [['2']], [['3']], [['4']]]);
  });

  it('makes everything waiting at once when asked for one instance (before its delivery goes off)', async () => {
    const { batcher } = batcherWith(2);
    add(batcher, m('1'), 1n);
    expect(await batcher.flush(onItsWay)).toBe(true);
    [m('2'), m('3'), a('4'), m('5')].forEach((item, i) => add(batcher, item, BigInt(i + 2)));
    await batcher.flushInstance(I);
    expect(carried()).toEqual([['1'], ['2', '3'], ['4'], ['5']]);
    expect(batcher.earliestWaiting()).toBeUndefined();
  });

  it('holds the checkpoint before traffic whose notification is being written', async () => {
    const { batcher } = batcherWith(100);
    add(batcher, m('1'), 7n);
    const flushing = batcher.flush(onItsWay);
    expect(batcher.earliestWaiting()).toBe(7n);
    await flushing;
    expect(batcher.earliestWaiting()).toBeUndefined();
  });
});

describe('envelopeBytes', () => {
  it('is the bytes of the largest envelope around no items, for any instance id', () => {
    const label = 'x'.repeat(4 * 64);
    for (const instanceId of ['ed6dfa36e5ad987df5ef5667', '', 'é"\\\u0001😀']) {
      const envelope = { instanceId, sequence: Number.MAX_SAFE_INTEGER, label, messages: [] };
      expect(envelopeBytes(instanceId)).toBe(Buffer.byteLength(JSON.stringify(envelope)));
    }
  });
});
