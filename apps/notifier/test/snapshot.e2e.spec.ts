import { sleep, total, until, type Instance } from './support/stack';
import { stackOnStore, STORES } from './support/on-store';

/**
 * A notifier's start costs its live state, not the history: it loads the latest snapshot of its state
 * from the store and replays only what came after. The notifier keeps nothing outside the store, so a
 * new process is a notifier on a fresh disk; it must resume exactly where the snapshot left off.
 */

const SNAPSHOT_EVERY = 10;

describe.each(STORES)('a notifier started from a snapshot, on %s', (_store, onEsdb) => {
  // One retry, 8 to 12 s after a failure: still pending when the notifier is killed, even on a
  // machine slow enough that the steps before the kill take several seconds.
  const on = stackOnStore(onEsdb, {
    RETRY_SCHEDULE: '10',
    NOTIFIER_SNAPSHOT_EVERY: String(SNAPSHOT_EVERY),
    NOTIFIER_CHECKPOINT_INTERVAL_MS: '100',
  });

  const snapshots = async () => total(await on.stack.metrics(), 'notifier_snapshots_total');

  it('replays only what came after it, and resumes sequences, retries and switched-off delivery exactly', async () => {
    // a: delivered traffic; b: a retry pending; c: delivery switched off; d: traffic after all that.
    const subscribe = async (path: string): Promise<Instance> => {
      const instance = await on.stack.newInstance();
      await on.stack.webhook(instance, on.receiver.url(path));
      return instance;
    };
    const a = await subscribe('/a');
    on.receiver.plan('/b', [{ status: 500 }]);
    const b = await subscribe('/b');
    const c = await subscribe('/c');
    for (const k of [1, 2, 3]) await on.stack.message(a, { id: `a-${k}` });
    await on.stack.message(b, { id: 'b-1' });
    await on.stack.message(c, { id: 'c-1' });
    await until('b failed once', async () => (await on.stack.logs(b)).length === 1, 10_000, 50);
    await until(
      'a and c delivered',
      () => on.receiver.at('/a').flatMap((r) => r.json.messages).length === 3 && on.receiver.at('/c').length === 1,
      10_000,
    );
    await on.stack.webhook(c, '');

    const before = await snapshots();
    const d = await subscribe('/d');
    for (let k = 1; k <= 2 * SNAPSHOT_EVERY; k++) await on.stack.message(d, { id: `d-${k}` });
    await until('a snapshot after all of that', async () => (await snapshots()) > before, 10_000, 50);
    await until(
      'd delivered',
      () => on.receiver.at('/d').flatMap((r) => r.json.messages).length === 2 * SNAPSHOT_EVERY,
      10_000,
    );
    // A notifier that went quiet snapshots what it followed last (at a checkpoint, every 100 ms): wait
    // until no snapshot has come for ten checkpoint intervals (a loaded machine writes them slowly).
    for (let seen = await snapshots(), quietSince = Date.now(); Date.now() - quietSince < 1000;) {
      await sleep(100);
      const now = await snapshots();
      if (now !== seen) [seen, quietSince] = [now, Date.now()];
    }
    const sent = on.receiver.requests.length;
    const aSequences = on.receiver.at('/a').map((r) => r.json.sequence as number);

    await on.stack.notifier!.stop('SIGKILL');
    await on.stack.startNotifier();
    // The log holds at least 4 InstanceCreated, 5 webhook changes and 25 MessageReceived (34 events,
    // before any notification); the start replays only what followed the last snapshot, fewer
    // than SNAPSHOT_EVERY events (or a quiet notifier would have taken another one).
    expect(total(await on.stack.metrics(), 'notifier_start_replayed_events')).toBeLessThan(SNAPSHOT_EVERY);

    // b's retry is still due and goes with the same webhook-id; nothing delivered before goes again.
    expect(on.receiver.at('/b')).toHaveLength(1);
    await until("b's retry", () => on.receiver.at('/b').length === 2, 20_000, 50);
    expect(on.receiver.at('/b')[1].webhookId).toBe(on.receiver.at('/b')[0].webhookId);
    expect(on.receiver.at('/b')[1].rawBody).toBe(on.receiver.at('/b')[0].rawBody);
    // a's numbering goes on from where it was; c stays off.
    await on.stack.message(a, { id: 'a-4' });
    await on.stack.message(c, { id: 'c-2' });
    await until('a-4', () => on.receiver.at('/a').length === aSequences.length + 1, 10_000, 50);
    expect(on.receiver.at('/a').at(-1)!.json).toMatchObject({
      sequence: Math.max(...aSequences) + 1,
      messages: [{ id: 'a-4' }],
    });
    await sleep(500);
    expect(on.receiver.at('/c')).toHaveLength(1);
    expect(on.receiver.requests.length).toBe(sent + 2);
  });
});
