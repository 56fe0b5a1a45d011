import { WebhookReceiver } from '@gw/testing';
import { sleep, Stack, total, until, type Instance } from './support/stack';
import { startOnStore, STORES, type RunningOnStore } from './support/on-store';

/**
 * A notifier's start costs its live state, not the history: it loads the latest snapshot of its state
 * from the store and replays only what came after. The notifier keeps nothing outside the store, so a
 * new process is a notifier on a fresh disk; it must resume exactly where the snapshot left off.
 */

const SNAPSHOT_EVERY = 10;

describe.each(STORES)('a notifier started from a snapshot, on %s', (_store, onEsdb) => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let running: RunningOnStore | undefined;
  beforeAll(async () => {
    // One retry, 2.4 to 3.6 s after a failure: still pending when the notifier is killed.
    running = await startOnStore(onEsdb, { RETRY_SCHEDULE: '3', NOTIFIER_SNAPSHOT_EVERY: String(SNAPSHOT_EVERY), NOTIFIER_CHECKPOINT_INTERVAL_MS: '100' });
    ({ stack, receiver } = running);
  }, 60_000);
  afterAll(() => running?.stop());

  const snapshots = async () => total(await stack.metrics(), 'notifier_snapshots_total');

  it('replays only what came after it, and resumes sequences, retries and switched-off delivery exactly', async () => {
    // a: delivered traffic; b: a retry pending; c: delivery switched off; d: traffic after all that.
    const subscribe = async (path: string): Promise<Instance> => {
      const instance = await stack.newInstance();
      await stack.webhook(instance, receiver.url(path));
      return instance;
    };
    const a = await subscribe('/a');
    receiver.plan('/b', [{ status: 500 }]);
    const b = await subscribe('/b');
    const c = await subscribe('/c');
    for (const k of [1, 2, 3]) await stack.message(a, { id: `a-${k}` });
    await stack.message(b, { id: 'b-1' });
    await stack.message(c, { id: 'c-1' });
    await until('b failed once', async () => (await stack.logs(b)).length === 1, 10_000, 50);
    await until('a and c delivered', () => receiver.at('/a').flatMap((r) => r.json.messages).length === 3 && receiver.at('/c').length === 1, 10_000);
    await stack.webhook(c, '');

    const before = await snapshots();
    const d = await subscribe('/d');
    for (let k = 1; k <= 2 * SNAPSHOT_EVERY; k++) await stack.message(d, { id: `d-${k}` });
    await until('a snapshot after all of that', async () => (await snapshots()) > before, 10_000, 50);
    await until('d delivered', () => receiver.at('/d').flatMap((r) => r.json.messages).length === 2 * SNAPSHOT_EVERY, 10_000);
    // Quiet for ten checkpoint intervals: a notifier that went quiet snapshots what it followed last.
    await sleep(1000);
    const sent = receiver.requests.length;
    const aSequences = receiver.at('/a').map((r) => r.json.sequence as number);

    await stack.notifier!.stop('SIGKILL');
    await stack.startNotifier();
    // The log holds at least 4 InstanceCreated, 5 webhook changes and 25 MessageReceived (34 events,
    // before any notification); the start replays only what followed the last snapshot, fewer
    // than SNAPSHOT_EVERY events (or a quiet notifier would have taken another one).
    expect(total(await stack.metrics(), 'notifier_start_replayed_events')).toBeLessThan(SNAPSHOT_EVERY);

    // b's retry is still due and goes with the same webhook-id; nothing delivered before goes again.
    await until("b's retry", () => receiver.at('/b').length === 2, 10_000, 50);
    expect(receiver.at('/b')[1].webhookId).toBe(receiver.at('/b')[0].webhookId);
    expect(receiver.at('/b')[1].rawBody).toBe(receiver.at('/b')[0].rawBody);
    // a's numbering goes on from where it was; c stays off.
    await stack.message(a, { id: 'a-4' });
    await stack.message(c, { id: 'c-2' });
    await until('a-4', () => receiver.at('/a').length === aSequences.length + 1, 10_000, 50);
    expect(receiver.at('/a').at(-1)!.json).toMatchObject({ sequence: Math.max(...aSequences) + 1, messages: [{ id: 'a-4' }] });
    await sleep(500);
    expect(receiver.at('/c')).toHaveLength(1);
    expect(receiver.requests.length).toBe(sent + 2);
  });
});
