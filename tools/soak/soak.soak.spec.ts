import { ApiProcess, createAccount, NotifierProcess, request, tempDataDir, type AppProcess } from '@gw/testing';
import { FlakyReceiver } from './support/flaky-receiver';
import { REQUEST_TIMEOUT_MS, sleep, SoakLoad } from './support/load';
import { cpuSeconds, growth, Inspector, mib, rssBytes, type Sample } from './support/memory';
import { renderFigures } from './support/report';

/**
 * The soak of issue 8: for SOAK_MINUTES (default 1) a mixed load at a fixed rate (reads, writes,
 * ingest, and deliveries to a receiver that fails a third of the time) runs against the built API
 * and notifier as real processes on the embedded store. It fails when heap after GC or RSS keeps
 * growing (last minute against first), when an acknowledged write or an accepted message or ack's
 * notification is missing at the end, on any 5xx, and on any unhandled rejection, uncaught
 * exception or error-level log line in either process.
 */

const MINUTES = Number(process.env['SOAK_MINUTES'] ?? '1');
/** Requests a second, over all operations; SOAK_RATE changes it. */
const RATE = Number(process.env['SOAK_RATE'] ?? '200');
const CONCURRENCY = 32;
/** Load that runs before memory is measured: JIT, caches and pools settle first. */
const WARM_UP_MS = 15_000;
const SAMPLE_EVERY_MS = 5_000;
/** After the load, how long retries may take to deliver what is still pending. */
const DRAIN_MS = 120_000;
const ACCOUNTS = 8;
const INGEST_INSTANCES = 16;
const CHURN_INSTANCES_PER_ACCOUNT = 4;
/** 5 retries, and the receiver fails one notification at most 4 times: nothing is dead-lettered. */
const RETRY_SCHEDULE = '1,1,2,2,3';
const MAX_FAILURES = 4;
const INTERNAL_TOKEN = 'soak-internal-token-0123456789abcdef';
const common = { INTERNAL_TOKEN, ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' };
/** What a process must never print: Node's reports of an unhandled rejection or uncaught exception,
 * its leak warning, a fatal V8 error, and the apps' own error-level log lines (unexpected errors). */
const FATAL = /unhandledRejection|UnhandledPromiseRejection|uncaughtException|triggerUncaughtException|MaxListenersExceededWarning|FATAL ERROR|"level":"error"/;

/** The sum of the notifier_pending_notifications series in a /metrics text (-1 when absent). */
function pending(metrics: string): number {
  const values = [...metrics.matchAll(/^notifier_pending_notifications(?:\{[^}]*\})? (\S+)$/gm)].map((m) => Number(m[1]));
  return values.length ? values.reduce((a, b) => a + b, 0) : -1;
}

interface Watched {
  name: string;
  app: AppProcess;
  inspector?: Inspector;
  samples: Sample[];
}

/** Running and not on its way out: with a debugger attached, a process that would exit (an uncaught
 * exception, say) stays up, serving nothing, until the debugger disconnects. */
const alive = (w: Watched) => w.app.running && !w.app.output.slice(-4096).includes('Waiting for the debugger to disconnect');

describe(`soak: ${MINUTES} min of mixed load against the API and the notifier`, () => {
  const receiver = new FlakyReceiver(MAX_FAILURES);
  const api = new ApiProcess(tempDataDir(), common);
  const notifier = new NotifierProcess(api.dataDir, { ...common, RETRY_SCHEDULE });
  const watched: Watched[] = [
    { name: 'api', app: api, samples: [] },
    { name: 'notifier', app: notifier, samples: [] },
  ];
  let load: SoakLoad;

  beforeAll(async () => {
    await receiver.start();
    for (const w of watched) {
      w.app.nodeArgs = ['--inspect=127.0.0.1:0'];
      await w.app.start();
      w.inspector = await Inspector.connect(w.app.output);
    }
    const accounts = Array.from({ length: ACCOUNTS }, (_, i) => createAccount(api.dataDir, `soak${i}@example.com`));
    const target = { accountUrl: api.accountUrl, apiUrl: api.apiUrl, internalUrl: api.internalUrl, internalToken: INTERNAL_TOKEN, receiver };
    load = new SoakLoad(target, accounts);
    for (let i = 0; i < INGEST_INSTANCES; i++) {
      const t = await load.create(accounts[i % ACCOUNTS], true);
      if (t) await load.webhook(t, receiver.url(t.instanceid));
    }
    for (const account of accounts) for (let i = 0; i < CHURN_INSTANCES_PER_ACCOUNT; i++) await load.create(account, false);
    expect(load.problems).toEqual([]);
  });

  afterAll(async () => {
    for (const w of watched) w.inspector?.close();
    await notifier.stop();
    await api.stop();
    await receiver.stop();
    api.removeData();
  });

  /** Heap after a full GC and RSS of each process every SAMPLE_EVERY_MS from `from` to `end`. */
  async function sampleMemory(from: number, end: number, problems: string[]): Promise<void> {
    for (let at = from; at <= end; at += SAMPLE_EVERY_MS) {
      await sleep(at - Date.now());
      for (const w of watched) {
        if (!alive(w)) continue; // reported at the end
        try {
          const heap = await w.inspector!.heapAfterGc();
          const pid = w.app.pid!;
          w.samples.push({ at: Date.now() - from, heap, rss: rssBytes(pid), cpu: cpuSeconds(pid) });
        } catch (error) {
          return void problems.push(`${w.name}: memory sample failed: ${(error as Error).message}`);
        }
      }
    }
  }

  it('keeps heap after GC and RSS flat, loses no acknowledged write or notification, and never answers 5xx', async () => {
    const problems: string[] = [];
    const started = Date.now();
    const measureFrom = started + WARM_UP_MS;
    const end = measureFrom + MINUTES * 60_000;
    await Promise.all([load.run(RATE, CONCURRENCY, end), sampleMemory(measureFrom, end, problems)]);
    const loadSeconds = (Date.now() - started) / 1000;
    const deliveredDuringLoad = receiver.delivered;

    // Every message and ack accepted with 202 reaches the receiver with a 2xx, batched or not.
    const missing = () => [...load.expected].filter((key) => !receiver.deliveredItems.has(key));
    const drainUntil = Date.now() + DRAIN_MS;
    while (missing().length && Date.now() < drainUntil && watched.every(alive)) await sleep(250);
    const notDelivered = missing();
    if (notDelivered.length) problems.push(`${notDelivered.length} accepted items never delivered within ${DRAIN_MS} ms of the end, e.g. ${notDelivered.slice(0, 5).join(', ')}`);
    let backlog = -1;
    const metrics = () => request(`${notifier.statusUrl}/metrics`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    while (alive(watched[1]) && Date.now() < drainUntil + 10_000 && (backlog = pending((await metrics()).text)) !== 0) await sleep(250);
    if (backlog !== 0) problems.push(`the notifier reports ${backlog} pending notifications at the end (-1: none reported)`);

    // Every acknowledged create, renew and webhook change is what the read side shows.
    if (alive(watched[0])) await load.verifyAcknowledged();

    const measuredMs = MINUTES * 60_000;
    process.stdout.write(
      `\n${renderFigures({
        minutes: MINUTES,
        rate: RATE,
        loadSeconds,
        stats: load.stats,
        shed: load.shed,
        expectedItems: load.expected.size,
        deliveredItems: load.expected.size - notDelivered.length,
        notifications: { delivered: receiver.delivered, deliveredDuringLoad, requests: receiver.requests, failedOnPurpose: receiver.failedOnPurpose },
        memory: watched,
        measuredMs,
      })}\n\n`,
    );

    problems.push(...load.problems, ...receiver.problems);
    if (load.problemCount > load.problems.length) problems.push(`… and ${load.problemCount - load.problems.length} more problems of the load`);
    for (const w of watched) {
      if (!alive(w)) problems.push(`${w.name} is not running at the end`);
      for (const error of w.inspector?.uncaught ?? []) problems.push(`${w.name}: uncaught ${error.slice(0, 600)}`);
      const fatal = w.app.output.split('\n').filter((line) => FATAL.test(line));
      if (fatal.length) problems.push(`${w.name} printed ${fatal.length} lines such as: ${fatal.slice(0, 3).join(' | ').slice(0, 600)}`);
      if (w.samples.length < 6) problems.push(`${w.name}: only ${w.samples.length} memory samples`);
      for (const g of growth(w.samples, measuredMs)) if (g.growing) problems.push(`${w.name}: ${g.metric} keeps growing: median ${mib(g.first)} MiB first, ${mib(g.last)} MiB last`);
    }
    expect(problems).toEqual([]);
    // The load did what it is for: notifications went through retries, and writes were acknowledged.
    expect(load.expected.size).toBeGreaterThan(0);
    expect(receiver.failedOnPurpose).toBeGreaterThan(0);
    expect(load.stats.webhook.ok + load.stats.renewInstance.ok + load.stats.newInstance.ok).toBeGreaterThan(0);
  });
});
