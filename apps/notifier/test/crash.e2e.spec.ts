import { DAY_MS, request, shiftedClock, WebhookReceiver, type ReceivedRequest } from '@gw/testing';
import { LOCAL_TARGETS, sleep, Stack, total, until, type Instance } from './support/stack';

/** docs/api.md section 6, "Delivery is at least once: no recorded notification is lost by a crash or
 * restart": the notifier is killed with SIGKILL in the middle of a stream and started again. */

const INSTANCES = 10;
const PER_INSTANCE = 100;
const TOTAL = INSTANCES * PER_INSTANCE;
/** The notifier is killed once this many messages have arrived (in however many notifications). */
const KILL_AFTER = 300;
const CONCURRENCY = 64;

/** Each notification once, at its first arrival: a repeat has the webhook-id of one sent before. */
const firstArrivals = (requests: ReceivedRequest[]) => {
  const seen = new Set<string>();
  return requests.filter((r) => !seen.has(r.webhookId) && seen.add(r.webhookId));
};
/** The message ids notifications carry (several each when batched), in arrival order. */
const messageIds = (requests: ReceivedRequest[]) =>
  requests.flatMap((r) => (r.json.messages as Array<{ id: string }>).map((m) => m.id));

describe('a notifier killed with SIGKILL during a stream of 1,000 messages', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  const subscribed: Array<{ instance: Instance; path: string }> = [];
  let killedAt = 0;
  let restartedAt = 0;

  /** Records messages `from`..`to` (1-based, inclusive) of every instance: instances in parallel,
   * each instance's in order. */
  const record = (from: number, to: number) =>
    Promise.all(
      subscribed.map(async ({ instance }, i) => {
        for (let k = from; k <= to; k++) await stack.message(instance, { id: `i${i}-m${k}`, body: `message ${k}` });
      }),
    );

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await Stack.start({
      env: { ...LOCAL_TARGETS, NOTIFIER_CONCURRENCY: String(CONCURRENCY) },
      notifier: false,
    });
    for (let i = 0; i < INSTANCES; i++) {
      const instance = await stack.newInstance();
      const path = `/instance/${i}`;
      receiver.plan(path, () => ({ delayMs: 5 })); // keeps requests in flight when the kill comes
      await stack.webhook(instance, receiver.url(path));
      subscribed.push({ instance, path });
    }
  });
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  });

  it('the receiver gets all 1,000 after a restart, each in one notification: duplicates only of requests in flight, every instance in sequence and record order', async () => {
    // Half is recorded before the notifier runs, half while it runs (and while it is down).
    await record(1, PER_INSTANCE / 2);
    let killing: Promise<unknown> | undefined;
    receiver.onRequest = () => {
      if (killing || messageIds(receiver.requests).length < KILL_AFTER) return;
      killedAt = Date.now();
      killing = stack.notifier!.stop('SIGKILL');
    };
    await stack.startNotifier();
    await record(PER_INSTANCE / 2 + 1, PER_INSTANCE);
    await until('the kill', () => killing !== undefined, 30_000);
    await killing;
    receiver.onRequest = undefined;
    const beforeRestart = receiver.requests.length;
    expect(messageIds(receiver.requests).length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(messageIds(firstArrivals(receiver.requests)).length).toBeLessThan(TOTAL);

    await sleep(200);
    expect(receiver.requests.length).toBe(beforeRestart); // nothing is sent by a dead process
    restartedAt = Date.now();
    await stack.startNotifier();
    await until('1,000 messages', () => messageIds(firstArrivals(receiver.requests)).length >= TOTAL, 60_000, 50);
    await sleep(1000);

    const requests = receiver.requests;
    const notified = messageIds(firstArrivals(requests));
    // Every message in exactly one notification, however they were batched around the kill.
    expect(notified).toHaveLength(TOTAL);
    expect(new Set(notified).size).toBe(TOTAL);
    const duplicates = requests.length - firstArrivals(requests).length;
    // Only requests in flight at the kill come again: at most one per instance.
    expect(duplicates).toBeLessThanOrEqual(Math.min(CONCURRENCY, INSTANCES));

    const firstSeen = new Map<string, ReceivedRequest>();
    for (const r of requests) {
      const first = firstSeen.get(r.webhookId);
      if (!first) {
        firstSeen.set(r.webhookId, r);
        continue;
      }
      // A repeat is the same notification, first sent before the kill and again after the restart.
      expect(r.rawBody).toBe(first.rawBody);
      expect(r.path).toBe(first.path);
      expect(first.arrivedAt).toBeLessThanOrEqual(killedAt + 100);
      expect(r.arrivedAt).toBeGreaterThanOrEqual(restartedAt);
    }

    for (const [i, { instance, path }] of subscribed.entries()) {
      const inOrder = firstArrivals(receiver.at(path));
      expect(inOrder.map((r) => r.json.sequence)).toEqual(Array.from({ length: inOrder.length }, (_, k) => k + 1));
      expect(messageIds(inOrder)).toEqual(Array.from({ length: PER_INSTANCE }, (_, k) => `i${i}-m${k + 1}`));
      expect(inOrder.every((r) => r.json.instanceId === instance.instanceid)).toBe(true);
      // At most one request per instance was in flight, so at most one repeat per instance.
      expect(receiver.at(path).length - inOrder.length).toBeLessThanOrEqual(1);
      expect(receiver.maxConcurrency(path)).toBe(1);
    }
  });

  it('a new notifier process started on the same store after everything was delivered sends nothing again', async () => {
    await until(
      'nothing pending',
      async () => total(await stack.metrics(), 'notifier_pending_notifications') === 0 && stack.metrics(),
    );
    const sent = receiver.requests.length;
    // Killed again, without a chance to record a final checkpoint; the next process starts afresh.
    await stack.notifier!.stop('SIGKILL');
    await stack.startNotifier();
    expect((await request(`${stack.notifier!.statusUrl}/healthz`)).status).toBe(200);
    await sleep(2000);
    expect(receiver.requests.length).toBe(sent);
    const metrics = await stack.metrics();
    expect(total(metrics, 'notifier_notifications_created_total')).toBe(0);
    expect(total(metrics, 'notifier_pending_notifications')).toBe(0);
    expect(total(metrics, 'notifier_requests_in_flight')).toBe(0);
  });
});

describe('delivery switched off while no notifier is running', () => {
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

  it('a retry pending when the webhook was cleared is cancelled, even though the URL was registered again before the notifier restarted', async () => {
    const instance = await stack.newInstance();
    const url = receiver.url('/cleared-while-down');
    receiver.plan('/cleared-while-down', [{ status: 500 }]);
    await stack.webhook(instance, url);
    await stack.message(instance, { id: 'down-1' });
    await until('the failed attempt in the logs', async () => (await stack.logs(instance)).length >= 1, 10_000, 50);
    await stack.notifier!.stop();
    await stack.webhook(instance, '');
    await stack.webhook(instance, url);
    await stack.startNotifier();
    await sleep(3500); // the retry was due 1.6..2.4 s after the failure
    expect(receiver.at('/cleared-while-down')).toHaveLength(1);

    await stack.message(instance, { id: 'down-2' });
    await until('a later message', () => receiver.at('/cleared-while-down').length >= 2);
    expect(receiver.at('/cleared-while-down')[1].json).toMatchObject({ sequence: 2, messages: [{ id: 'down-2' }] });
  });

  it('a message recorded while delivery was on is not sent if delivery was switched off and on again before any notifier saw it', async () => {
    const instance = await stack.newInstance();
    const url = receiver.url('/recorded-while-down');
    await stack.webhook(instance, url);
    await stack.notifier!.stop();
    await stack.message(instance, { id: 'unseen-1' });
    await stack.webhook(instance, '');
    await stack.webhook(instance, url);
    await stack.message(instance, { id: 'unseen-2' });
    await stack.startNotifier();
    await until('the message recorded after re-registering', () => receiver.at('/recorded-while-down').length >= 1);
    await sleep(1000);
    expect(receiver.at('/recorded-while-down').map((r) => r.json.messages[0].id)).toEqual(['unseen-2']);
  });
});

describe('an instance that expired and was renewed', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  const clock = shiftedClock(4 * DAY_MS); // past the three-day trial
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // One retry, about 30 s after the first attempt: still pending when the clock jumps.
    stack = await Stack.start({ env: { ...LOCAL_TARGETS, RETRY_SCHEDULE: '30' } });
  });
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
    clock.remove();
  });

  it('has its pending retry cancelled by the expiry, and new messages are delivered after the renewal', async () => {
    const instance = await stack.newInstance();
    receiver.plan('/renewed', [{ status: 500 }]);
    await stack.webhook(instance, receiver.url('/renewed'));
    await stack.message(instance, { id: 'before-expiry' });
    const [failed] = await until(
      'the failed attempt in the logs',
      async () => {
        const attempts = await stack.logs(instance);
        return attempts.length >= 1 && attempts;
      },
      10_000,
      50,
    );
    expect(failed.nextAttemptAt).not.toBeNull();

    await stack.notifier!.stop();
    await stack.restartApi(clock.env); // four days later: the trial has expired
    expect((await stack.status(instance)).instanceStatus).toBe('expired');
    await stack.renew(instance);
    expect(await stack.status(instance)).toMatchObject({ instanceStatus: 'active', enabled: true });
    await stack.startNotifier({ ...stack.notifierEnv, ...clock.env });
    await sleep(2000); // the retry is overdue to this notifier: it would go at once
    expect(receiver.at('/renewed')).toHaveLength(1);

    await stack.message(instance, { id: 'after-renewal' });
    await until('the message after renewal', () => receiver.at('/renewed').length >= 2);
    expect(receiver.at('/renewed')[1].json).toMatchObject({ sequence: 2, messages: [{ id: 'after-renewal' }] });
    // The receiver has the notification before the notifier has recorded the attempt's outcome and
    // the API has read it: wait for the record rather than race it (a loaded machine loses that race).
    const attempts = await until(
      'the second attempt in the logs',
      async () => {
        const logged = await stack.logs(instance);
        return logged.length >= 2 && logged;
      },
      10_000,
      50,
    );
    expect(attempts).toHaveLength(2);
  });

  it('has a retry that is not due yet cancelled when the running notifier sees the renewal of the expired instance', async () => {
    const later = shiftedClock(8 * DAY_MS);
    const longRetry = { RETRY_SCHEDULE: String(6 * 86_400) }; // due 4.8..7.2 days after the failure
    try {
      await stack.restartApi(clock.env);
      await stack.startNotifier({ ...stack.notifierEnv, ...clock.env, ...longRetry });
      const instance = await stack.newInstance(); // created at +4 days: expires at +7 days
      receiver.plan('/renewed-live', [{ status: 500 }]);
      await stack.webhook(instance, receiver.url('/renewed-live'));
      await stack.message(instance, { id: 'long-retry' });
      await until('the failed attempt in the logs', async () => (await stack.logs(instance)).length >= 1, 10_000, 50);

      await stack.notifier!.stop();
      await stack.restartApi(later.env); // +8 days: expired, and the retry is not due yet
      await stack.startNotifier({ ...stack.notifierEnv, ...later.env, ...longRetry });
      const before = await stack.metrics();
      expect(total(before, 'notifier_pending_notifications')).toBe(1);
      expect(total(before, 'notifier_notifications_cancelled_total')).toBe(0);
      await stack.renew(instance);
      const after = await until('the cancellation', async () => {
        const metrics = await stack.metrics();
        return total(metrics, 'notifier_notifications_cancelled_total') === 1 && metrics;
      });
      expect(total(after, 'notifier_pending_notifications')).toBe(0);
      expect(receiver.at('/renewed-live')).toHaveLength(1);
    } finally {
      later.remove();
    }
  });
});
