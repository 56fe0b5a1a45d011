import { subscribed } from './support/delivery-fixtures';
import { markOf, secondsAfterCreation, seen } from './support/notices';
import { stacksOnStores } from './support/on-store';
import { sleep, until } from './support/stack';

/**
 * docs/api.md 8.9 across a crash: a notifier killed with SIGKILL, while one mark passes unseen, and
 * started again loses no notice and sends none twice (the notifications state records which were
 * made; their identity does not depend on the process that makes them). On both stores; on
 * EventStoreDB the new notifier starts on a fresh disk.
 */

const MARKS = [secondsAfterCreation(3), secondsAfterCreation(7), secondsAfterCreation(11)];

// Snapshots every few events, so that a restart also resumes from one that holds notices. Each
// store's test kills and starts only its own stack's notifier: the two wait side by side.
const STACKS = stacksOnStores({
  RETRY_SCHEDULE: '1,1,1',
  EXPIRY_NOTICE_HOURS: MARKS.join(','),
  NOTIFIER_SNAPSHOT_EVERY: '3',
});

describe.each(STACKS)('instance notices across a notifier SIGKILL, on %s', (_store, on) => {
  it.concurrent(
    'sends each expiring notice exactly once when the notifier is killed after the first and a mark passes while it is down',
    async () => {
      const { instance, path } = await subscribed(on.stack, on.receiver, undefined, 'instance');
      const expiresAt = (await on.stack.listInstances()).find((i) => i.instanceid === instance.instanceid).expiresAt;

      await until('the first notice', () => seen(on.receiver.at(path)).length >= 1, 15_000);
      await on.stack.notifier!.stop('SIGKILL');
      // Down while the second mark passes.
      await sleep(Math.max(0, markOf(expiresAt, MARKS[1]) + 1000 - Date.now()));
      expect(seen(on.receiver.at(path))).toHaveLength(1);
      await on.stack.startNotifier();

      await until('three notices', () => seen(on.receiver.at(path)).length >= 3, 20_000);
      await sleep(2500);
      const got = seen(on.receiver.at(path));
      expect(got.map((s) => ({ sequence: s.sequence, notice: s.instance }))).toEqual(
        [1, 2, 3].map((sequence) => ({ sequence, notice: { event: 'expiring', expiresAt } })),
      );
      // The third came at its mark from the restarted notifier.
      expect(got[2].arrivedAt - markOf(expiresAt, MARKS[2])).toBeGreaterThanOrEqual(0);
      expect(got[2].arrivedAt - markOf(expiresAt, MARKS[2])).toBeLessThan(5000);
      expect(new Set(on.receiver.at(path).map((r) => r.webhookId)).size).toBe(3);
      // A second restart, with nothing due, sends nothing at all.
      const requests = on.receiver.at(path).length;
      await on.stack.startNotifier();
      await sleep(2500);
      expect(on.receiver.at(path)).toHaveLength(requests);
    },
    60_000,
  );
});
