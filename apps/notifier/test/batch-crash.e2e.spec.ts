import { WebhookReceiver, type ReceivedRequest } from '@gw/testing';
import { LOCAL_TARGETS, sleep, Stack, total, until } from './support/stack';

/** docs/api.md section 6, batching and "no recorded notification is lost by a crash": traffic that waits
 * for its instance's attempt in flight exists only in the log until its notification is made, so the
 * notifier's checkpoint must stay before it. */

const ids = (requests: ReceivedRequest[]) =>
  requests.flatMap((r) => (r.json.messages as Array<{ id: string }>).map((m) => m.id));

describe('a notifier killed while messages wait for the attempt in flight', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // Checkpoints every 50 ms, so that one would certainly be recorded past the waiting messages.
    stack = await Stack.start({ env: { ...LOCAL_TARGETS, NOTIFIER_CHECKPOINT_INTERVAL_MS: '50' } });
  });
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  });

  it('sends them after a restart, with nothing lost and nothing in two notifications', async () => {
    const instance = await stack.newInstance();
    // The first attempt never answers in time for the killed process; later ones answer at once.
    receiver.plan('/held', (_, nth) => ({ delayMs: nth === 1 ? 5000 : 5 }));
    await stack.webhook(instance, receiver.url('/held'));
    await stack.message(instance, { id: 'h-1' });
    await until('the first attempt', () => receiver.at('/held').length === 1, 5000, 5);
    for (const k of [2, 3, 4, 5]) await stack.message(instance, { id: `h-${k}` });
    await sleep(500); // ten checkpoint intervals while they wait
    expect(total(await stack.metrics(), 'notifier_notifications_created_total')).toBe(1);

    await stack.notifier!.stop('SIGKILL');
    await stack.startNotifier();
    await until('all five messages', () => new Set(ids(receiver.at('/held'))).size === 5, 15_000);
    await sleep(500);

    const got = receiver.at('/held');
    // The attempt in flight at the kill comes again (same webhook-id and body); the waiting four
    // were never made into a notification before the kill, so the restarted notifier makes them.
    expect(got[1].webhookId).toBe(got[0].webhookId);
    expect(got[1].rawBody).toBe(got[0].rawBody);
    const distinct = [got[0], ...got.slice(2)];
    expect(new Set(distinct.map((r) => r.webhookId)).size).toBe(distinct.length);
    expect(ids(distinct)).toEqual(['h-1', 'h-2', 'h-3', 'h-4', 'h-5']);
    expect(distinct.map((r) => r.json.sequence)).toEqual(distinct.map((_, i) => i + 1));
    expect(receiver.maxConcurrency('/held')).toBe(1);
  });
});
