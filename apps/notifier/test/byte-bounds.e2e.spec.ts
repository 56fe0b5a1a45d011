import { readFileSync, writeFileSync } from 'node:fs';
import { loadConfig } from '@gw/config';
import { notificationsStreamName } from '@gw/domain-notifications';
import { openEventStore } from '@gw/event-store/open';
import { expectSuccess } from '@gw/testing';
import { subscribed } from './support/delivery-fixtures';
import { getNotifications, redeliver, type ListedNotification } from './support/notification-pages';
import { until } from './support/stack';
import { stackOnStore, STORES } from './support/on-store';

/**
 * Section 11 of docs/api.md, "answers are bounded in bytes" and "the log grows with what happened",
 * end to end on both stores with messages of 60 KB: every POSTed body stays within
 * NOTIFICATION_BATCH_BYTES, a getNotifications page within 1 MiB and the API's memory within 64 MiB
 * of its idle size while three of them are answered at once, and redeliver adds a reference per
 * notification to the log, not a copy of its body.
 */

/** Enough that the old unbounded page (100 notifications of about 240 KB, three at once) took the
 * API far past its bound; fewer on the EventStoreDB double, which keeps the log in this process. */
const messagesOn = (onEsdb: boolean) => (onEsdb ? 160 : 400);
const BATCH_BYTES = 262_144;
const PAGE_BYTES = 1024 * 1024;
const MiB = 1024 * 1024;
const bigBody = (n: number) => `${n} ✓ `.padEnd(60_000, 'x');

/** A process's resident memory now, and the most it had since the last `resetPeak`. */
const memoryOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
};
/** Linux: writing 5 to clear_refs resets the peak resident size (VmHWM) to the current one. */
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

describe.each(STORES)('bounds in bytes on %s', (_store, onEsdb) => {
  const on = stackOnStore(onEsdb, { RETRY_SCHEDULE: '1,1', NOTIFICATION_BATCH_BYTES: String(BATCH_BYTES) });

  it('bodies, pages, the API while paging and redeliver stay within their bounds with 60 KB messages', async () => {
    const MESSAGES = messagesOn(onEsdb);
    // Each attempt takes 50 ms, so that what is recorded meanwhile waits and is batched.
    const { instance, path } = await subscribed(on.stack, on.receiver, () => ({ delayMs: 50 }));
    for (let n = 1; n <= MESSAGES; n++) await on.stack.message(instance, { id: `big-${n}`, body: bigBody(n) });
    const carried = (raw: string) => (JSON.parse(raw) as { messages: unknown[] }).messages.length;
    await until(
      'every message delivered',
      () =>
        on.receiver
          .at(path)
          .filter((r) => r.delivered)
          .reduce((sum, r) => sum + carried(r.rawBody), 0) >= MESSAGES,
      120_000,
      100,
    );

    // Bodies: batched, yet none over NOTIFICATION_BATCH_BYTES.
    const posted = on.receiver.at(path).map((r) => r.rawBody);
    expect(Math.max(...posted.map((raw) => Buffer.byteLength(raw)))).toBeLessThanOrEqual(BATCH_BYTES);
    expect(Math.max(...posted.map(carried))).toBe(4);

    // Pages: as many whole notifications as fit in 1 MiB, and paging by `after` reads them all.
    const pages: ListedNotification[][] = [];
    const pageBytes: number[] = [];
    for (let after = 0; ;) {
      const answer = await getNotifications(on.stack, instance, { after, limit: 100 });
      expect(Buffer.byteLength(answer.text)).toBeLessThanOrEqual(PAGE_BYTES);
      const page = expectSuccess(answer).notifications as ListedNotification[];
      if (page.length === 0) break;
      pages.push(page);
      pageBytes.push(Buffer.byteLength(answer.text));
      after = page[page.length - 1].sequence;
    }
    const listed = pages.flat();
    expect(listed.map((n) => n.sequence)).toEqual(listed.map((_, i) => i + 1));
    expect(listed.flatMap((n) => n.body['messages'].map((m: { id: string }) => m.id))).toEqual(
      Array.from({ length: MESSAGES }, (_, i) => `big-${i + 1}`),
    );
    // A page stops before the notification that would take it past 1 MiB, and not earlier.
    expect(pages.length).toBeGreaterThan(MESSAGES / 40);
    for (let i = 0; i + 1 < pages.length; i++)
      expect(pageBytes[i] + 1 + Buffer.byteLength(JSON.stringify(pages[i + 1][0]))).toBeGreaterThan(PAGE_BYTES);

    // The API while three pages of 100 are asked for at once, twice over.
    const pid = on.stack.api.pid!;
    const idle = memoryOf(pid).rss;
    resetPeak(pid);
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(
        [0, 1, 2].map(() => getNotifications(on.stack, instance, { after: 0, limit: 100 })),
      );
      for (const answer of answers) expect(expectSuccess(answer).notifications).toEqual(pages[0]);
    }
    expect(memoryOf(pid).peak - idle).toBeLessThan(64 * MiB);

    // The log: a reference per notification redelivered, never a copy of its body.
    const last = listed[listed.length - 1].sequence;
    expect(expectSuccess(await redeliver(on.stack, instance, { from: 1 }))).toEqual({ success: true, queued: last });
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: on.stack.dataDir, ...on.stack.apiEnv });
    const store = openEventStore(config.store.eventStore);
    try {
      const events = await store.readStream(notificationsStreamName(instance.instanceid));
      const redelivered = events.filter((e) => e.type === 'NotificationRedelivered');
      expect(redelivered).toHaveLength(last);
      const largest = Math.max(
        ...redelivered.map(
          (e) => Buffer.byteLength(JSON.stringify(e.data)) + Buffer.byteLength(JSON.stringify(e.metadata)),
        ),
      );
      expect(largest).toBeLessThan(1024);
    } finally {
      await store.close();
    }
    // And they go out again, each with the body it was created with.
    await until(
      'every message delivered again',
      () => on.receiver.at(path).filter((r) => r.delivered).length >= 2 * last,
      60_000,
      100,
    );
    const again = on.receiver
      .at(path)
      .filter((r) => r.delivered)
      .slice(-last)
      .map((r) => JSON.parse(r.rawBody) as { sequence: number });
    expect(again.map((b) => b.sequence).sort((a, b) => a - b)).toEqual(listed.map((n) => n.sequence));
    for (const body of again) expect(body).toEqual(listed[body.sequence - 1].body);
  }, 240_000);
});
