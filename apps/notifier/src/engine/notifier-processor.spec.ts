import { randomBytes } from 'node:crypto';
import { PersonalData, recordMessage, SecretBox } from '@gw/application';
import type { NotificationEvent } from '@gw/domain-notifications';
import { MemoryEventStore } from '@gw/event-store/memory';
import { createLogger } from '@gw/logging';
import { FakeClock } from '@gw/testing';
import type { AttemptResult, Delivery } from '@gw/webhook-delivery';
import { NotifierMetrics } from '../metrics/metrics';
import { FairScheduler } from './fair-scheduler';
import { NoticeSchedule } from './notice-schedule';
import { NotificationBatcher } from './notification-batcher';
import { NotificationSender, type WebhookPost } from './notification-sender';
import { NotificationWriter } from './notification-writer';
import { NotifierModel } from './notifier-model';
import { NotifierProcessor } from './notifier-processor';

/**
 * The processor in process, on the in-memory store, with a fake clock: the log's events are fed to it
 * as the LogFollower would, and the receiver is a stand-in that records each POST and answers with a
 * chosen status (real HTTP is the e2e tests' part). Everything else is the real thing: the workflow,
 * the batcher, the writer, the scheduler, sealed secrets and personal data.
 */

const I = 'i1';
const URL = 'https://receiver.example/hook';
const HOUR = 3_600_000;

class Receiver implements WebhookPost {
  readonly posts: Array<Delivery & { at: string }> = [];
  status = 204;
  constructor(private readonly clock: FakeClock) {}
  async send(delivery: Delivery): Promise<AttemptResult> {
    this.posts.push({ ...delivery, at: this.clock.iso() });
    return { status: this.status, error: this.status ? '' : 'timeout', durationMs: 1, retryAfterSeconds: null };
  }
  bodies(): Array<Record<string, unknown>> {
    return this.posts.map((p) => JSON.parse(p.body) as Record<string, unknown>);
  }
}

let clock: FakeClock;
let store: MemoryEventStore;
let box: SecretBox;
let personal: PersonalData;
let model: NotifierModel;
let receiver: Receiver;
let processor: NotifierProcessor;
let followed: bigint;
const controller = new AbortController();

beforeEach(() => {
  clock = new FakeClock('2026-03-04T10:00:00.000Z');
  store = new MemoryEventStore();
  box = new SecretBox(randomBytes(32));
  personal = PersonalData.on(store, box);
  model = new NotifierModel(1, 0);
  receiver = new Receiver(clock);
  followed = 0n;
  const logger = createLogger('error');
  const metrics = new NotifierMetrics();
  const writer = new NotificationWriter(store, model, logger, controller.signal);
  processor = new NotifierProcessor(
    {
      store,
      model,
      writer,
      batcher: new NotificationBatcher(writer, metrics, clock, { batchMax: 100, batchBytes: 262_144 }),
      scheduler: new FairScheduler({ total: 4, perAccount: 4, perEndpoint: 4 }),
      sender: new NotificationSender(receiver, box, personal, store, logger, () => false),
      notices: new NoticeSchedule(model, [24]),
      metrics,
      logger,
      clock,
    },
    // random 0.5: a jitter of exactly 1, so that a retry is due exactly its delay later.
    {
      retryScheduleSeconds: [5, 300],
      conflictRetries: 3,
      expiryNoticeHours: [24],
      disableAfterHours: 0,
      noticeCheckMs: 1000,
      random: () => 0.5,
    },
  );
});
afterEach(() => processor.stop(0));

/** Hands the processor what the log holds beyond what it was given, as the LogFollower does. */
async function follow(): Promise<number> {
  const events = await store.readAll({ after: followed });
  for (const event of events) {
    await processor.apply(event);
    followed = event.position;
  }
  return events.length;
}

/** Lets the processor run until it has nothing more to do at the clock's time. */
async function settle(): Promise<void> {
  processor.wake();
  for (let quiet = 0; quiet < 5;) {
    await new Promise((resolve) => setImmediate(resolve));
    const moved = await follow();
    quiet = moved === 0 && processor.requestsInFlight === 0 ? quiet + 1 : 0;
  }
}

async function start(): Promise<void> {
  processor.beginReplay(0n);
  await follow();
  await processor.caughtUp();
  processor.start();
  await settle();
}

async function instanceWithWebhook(
  expiresInMs = 30 * 24 * HOUR,
  events = ['messages', 'ownMessages', 'acks'],
): Promise<void> {
  const at = clock.iso();
  await store.append(
    `instance-${I}`,
    [
      {
        id: 'e1',
        type: 'InstanceCreated',
        data: {
          instanceId: I,
          accountId: 'acct-ann',
          packageId: 'monthly',
          tokenHash: 'th',
          createdAt: at,
          expiresAt: new Date(clock.now() + expiresInMs).toISOString(),
        },
      },
      {
        id: 'e2',
        type: 'SigningSecretIssued',
        data: { instanceId: I, encryptedSecret: box.seal('whsec_test'), issuedAt: at },
      },
      { id: 'e3', type: 'WebhookSet', data: { instanceId: I, url: URL, setAt: at, events } },
    ],
    'no_stream',
  );
}

const message = (id: string, body = 'hi') => ({
  id,
  chatId: 'c@c.us',
  from: '123@c.us',
  fromMe: false,
  senderName: 'Ann',
  type: 'chat',
  body,
  time: 1772618400,
});
const record = (id: string, body?: string) => recordMessage(store, personal, I, message(id, body), clock.iso());
const stream = async (name: string) => (await store.readStream(name)).map((e) => e.type);

describe('the notifier processor', () => {
  it('delivers a message recorded while delivery is on: opened, signed with the instance secret, recorded as delivered', async () => {
    await instanceWithWebhook();
    await start();
    await record('m1', 'hello');
    await settle();
    expect(receiver.posts).toHaveLength(1);
    expect(receiver.posts[0]).toMatchObject({ url: URL, signingSecrets: ['whsec_test'] });
    expect(receiver.bodies()[0]).toMatchObject({
      instanceId: I,
      sequence: 1,
      messages: [{ id: 'm1', body: 'hello', senderName: 'Ann' }],
    });
    const events = (await store.readStream(`notifications-${I}`)) as unknown as NotificationEvent[];
    expect(events.map((e) => e.type)).toEqual(['NotificationCreated', 'NotificationDelivered']);
    // The attempt's time is the processor's clock, not the machine's.
    expect(events[1].data).toMatchObject({ at: clock.iso() });
  });

  it('retries a failed attempt when its clock reaches the retry time, and not before', async () => {
    await instanceWithWebhook();
    await start();
    receiver.status = 500;
    await record('m1');
    await settle();
    expect(receiver.posts).toHaveLength(1);
    clock.advance(4_999);
    await settle();
    expect(receiver.posts).toHaveLength(1);
    receiver.status = 200;
    clock.advance(1);
    await settle();
    expect(receiver.posts.map((p) => p.at)).toEqual(['2026-03-04T10:00:00.000Z', '2026-03-04T10:00:05.000Z']);
    expect(await stream(`notifications-${I}`)).toEqual([
      'NotificationCreated',
      'DeliveryAttemptFailed',
      'NotificationDelivered',
    ]);
  });

  it('batches what is recorded while a notification is on its way, and sends the instance one at a time', async () => {
    await instanceWithWebhook();
    await start();
    await record('m1');
    await record('m2');
    await record('m3');
    await settle();
    expect(receiver.bodies().map((b) => (b.messages as Array<{ id: string }>).map((m) => m.id))).toEqual([
      ['m1'],
      ['m2', 'm3'],
    ]);
    expect(receiver.bodies().map((b) => b.sequence)).toEqual([1, 2]);
  });

  it('switches delivery off on the instance when the receiver answers 410, and cancels what is pending', async () => {
    await instanceWithWebhook();
    await start();
    receiver.status = 410;
    await record('m1');
    await record('m2');
    await settle();
    expect(receiver.posts).toHaveLength(1);
    expect(await stream(`instance-${I}`)).toEqual([
      'InstanceCreated',
      'SigningSecretIssued',
      'WebhookSet',
      'WebhookDisabledByReceiver',
    ]);
    // m1's own 410 cancels it; m2, waiting behind it, is made into its notification when delivery goes
    // off and cancelled with the rest, never sent.
    const notifications = [
      'NotificationCreated',
      'DeliveryAttemptFailed',
      'NotificationCancelled',
      'NotificationCreated',
      'NotificationCancelled',
    ];
    expect(await stream(`notifications-${I}`)).toEqual(notifications);
    await record('m3');
    await settle();
    expect(receiver.posts).toHaveLength(1);
  });

  it('makes the expiry notice when the clock reaches EXPIRY_NOTICE_HOURS before expiry, once', async () => {
    await instanceWithWebhook(25 * HOUR, ['messages', 'instance']);
    await start();
    expect(receiver.posts).toHaveLength(0);
    clock.advance(HOUR - 1000);
    await settle();
    expect(receiver.posts).toHaveLength(0);
    clock.advance(1000);
    await settle();
    expect(receiver.bodies()).toEqual([
      { instanceId: I, sequence: 1, instance: { event: 'expiring', expiresAt: '2026-03-05T11:00:00.000Z' } },
    ]);
    clock.advance(10 * 1000);
    await settle();
    expect(receiver.posts).toHaveLength(1);
  });

  it('notifies nothing during the replay, and what the replay found once caught up', async () => {
    await instanceWithWebhook();
    await record('m1');
    processor.beginReplay(0n);
    await follow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await stream(`notifications-${I}`)).toEqual([]);
    await processor.caughtUp();
    processor.start();
    await settle();
    expect(receiver.bodies().map((b) => b.messages)).toEqual([[expect.objectContaining({ id: 'm1' })]]);
  });
});
