import {
  ApiProcess,
  createAccount,
  expectSuccess,
  get,
  NotifierProcess,
  postJson,
  request,
  tempDataDir,
  type Behaviour,
} from '@gw/testing';
import { ChaosReceiver } from './support/chaos-receiver';
import { generousRateLimits, seedFor, seededRandom, sleep, until } from './support/env';
import { checkNotifications, type RecordedItem } from './support/notification-check';
import { findSecrets } from './support/secret-scan';

/**
 * docs/api.md section 6 under chaos: a receiver that mixes 200s, 5xx, redirects, timeouts, resets and
 * slow answers, while the notifier is killed with SIGKILL three times during 5,000 messages and acks
 * over 50 instances. Notifications batch what an instance records while its previous one is in
 * flight, so there are fewer notifications than items. Every item must travel in exactly one
 * notification that reaches the receiver with a 2xx at least once; an instance's notifications,
 * taken once each by webhook-id in sequence order (1..n, no gap), carry exactly what it recorded,
 * in record order (support/notification-check.ts).
 */

const INSTANCES = 50;
const PER_INSTANCE = 100;
const TOTAL = INSTANCES * PER_INSTANCE;
const DELIVERY_TIMEOUT_MS = 1000;
/** Far below the default of 100: an attempt in flight here sees a handful of items of its instance
 * recorded meanwhile (about 4 at most in trial runs with a bound of 10), so a bound of 3 is reached
 * often, and batches are cut at it. */
const BATCH_MAX = 3;
/** Chaos fails one notification at most this often; with 9 attempts in all it is never dead-lettered. */
const MAX_FAILURES = 3;
const KILL_AT = [0.15, 0.4, 0.65].map((share) => Math.round(TOTAL * share)); // items delivered
const INTERNAL_TOKEN = 'reliability-internal-token-0123456789';
const common = {
  INTERNAL_TOKEN,
  ALLOW_HTTP_WEBHOOKS: 'true',
  ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
  SHUTDOWN_GRACE_MS: '500',
};
const notifierEnv = {
  ...common,
  RETRY_SCHEDULE: '0.2,0.2,0.5,1,1,1,1,1',
  DELIVERY_TIMEOUT_MS: String(DELIVERY_TIMEOUT_MS),
  NOTIFICATION_BATCH_MAX: String(BATCH_MAX),
};

/** The sum of the notifier_pending_notifications series in a /metrics text (-1 when absent). */
function pending(metrics: string): number {
  const values = [...metrics.matchAll(/^notifier_pending_notifications(?:\{[^}]*\})? (\S+)$/gm)].map((m) =>
    Number(m[1]),
  );
  return values.length ? values.reduce((a, b) => a + b, 0) : -1;
}

describe('notifier killed with SIGKILL three times while a chaotic receiver answers the notifications of 5,000 messages and acks', () => {
  const random = seededRandom(seedFor('notifier-chaos', 5_000_003));
  const failures = new Map<string, number>();
  const chaos = (webhookId: string): Behaviour => {
    if ((failures.get(webhookId) ?? 0) >= MAX_FAILURES)
      return { kind: 'ok', delayMs: random.next() < 0.2 ? 50 + random.int(300) : 0 };
    const roll = random.weighted({ ok: 50, slow: 12, status500: 12, status503: 3, redirect: 3, timeout: 8, reset: 12 });
    if (roll === 'ok') return { kind: 'ok', delayMs: 0 };
    if (roll === 'slow') return { kind: 'ok', delayMs: 100 + random.int(500) };
    failures.set(webhookId, (failures.get(webhookId) ?? 0) + 1);
    if (roll === 'status500') return { kind: 'status', status: 500 };
    if (roll === 'status503') return { kind: 'status', status: 503, headers: { 'retry-after': '1' } };
    if (roll === 'redirect') return { kind: 'status', status: 302, headers: { location: '/elsewhere' } };
    if (roll === 'timeout') return { kind: 'timeout', delayMs: DELIVERY_TIMEOUT_MS + 300 };
    return { kind: 'reset' };
  };
  const receiver = new ChaosReceiver((id) => chaos(id));
  let api: ApiProcess;
  let notifier: NotifierProcess;
  const notifierOutput: string[] = [];
  /** `recorded`: what the instance recorded, in record order (each ingest awaits the one before). */
  const instances: Array<{
    instanceid: string;
    token: string;
    path: string;
    secret: string;
    recorded: RecordedItem[];
  }> = [];
  let apikey = '';
  let ingestRetries = 0;

  beforeAll(async () => {
    await receiver.start();
    api = await ApiProcess.start({ dataDir: tempDataDir(), env: { ...common, ...generousRateLimits() } });
    const account = createAccount(api.dataDir, 'chaos@example.com');
    apikey = account.apikey;
    for (let i = 0; i < INSTANCES; i++) {
      const created = expectSuccess(
        await get(api.accountUrl, '/newInstance', {
          email: account.email,
          token: account.apikey,
          packageid: 'monthly',
        }),
      );
      const path = `/chaos/${i}`;
      const registered = expectSuccess(
        await postJson(api.apiUrl, '/webhook', {
          instanceid: created.instanceid,
          token: created.token,
          webhookUrl: receiver.url(path),
        }),
      );
      instances.push({
        instanceid: created.instanceid,
        token: created.token,
        path,
        secret: registered.signingSecret,
        recorded: [],
      });
    }
  });
  afterAll(async () => {
    await notifier?.stop();
    await receiver.stop();
    await api?.stop();
    api?.removeData();
  });

  /** Records one event through the ingest host; retried (it is idempotent) on 503 or no answer. */
  async function ingest(instanceid: string, kind: 'messages' | 'acks', body: Record<string, unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const answer = await request(`${api.internalUrl}/instances/${instanceid}/${kind}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${INTERNAL_TOKEN}` },
        body: JSON.stringify(body),
      }).catch(() => undefined);
      if (answer?.status === 202) return;
      if ((answer && answer.status !== 503) || attempt >= 20)
        throw new Error(`ingest answered ${answer?.status}: ${answer?.text}`);
      ingestRetries += 1;
      await sleep(100);
    }
  }

  async function startNotifier(): Promise<void> {
    if (notifier) notifierOutput.push(notifier.output);
    notifier = new NotifierProcess(api.dataDir, notifierEnv);
    await notifier.start();
  }

  it('delivers every message and ack at least once, each in one notification, in record order, without a gap in any instance sequence', async () => {
    await startNotifier();
    const started = Date.now();
    let kills = 0;
    const killer = (async () => {
      for (const at of KILL_AT) {
        await until(`${at} items delivered`, () => receiver.deliveredItems >= at, 240_000, 20);
        expect(await notifier.stop('SIGKILL')).toBeNull();
        kills += 1;
        await sleep(200 + random.int(500)); // events keep arriving while no notifier runs
        await startNotifier();
      }
    })();
    await Promise.all(
      instances.map(async (instance, i) => {
        for (let k = 1; k <= PER_INSTANCE; k++) {
          const previous = instance.recorded.filter((e) => e.kind === 'message').at(-1);
          if (k % 5 === 0 && previous) {
            const status = random.pick(['sent', 'delivered', 'read']);
            await ingest(instance.instanceid, 'acks', {
              id: previous.id,
              chatId: `chat-${i}@c.us`,
              status,
              time: 1_700_000_000 + k,
            });
            instance.recorded.push({ kind: 'ack', id: previous.id, status });
          } else {
            const id = `i${i}-m${k}`;
            const body = `message ${k} ✓ \u0000 "quoted"`;
            await ingest(instance.instanceid, 'messages', {
              id,
              chatId: `chat-${i}@c.us`,
              body,
              time: 1_700_000_000 + k,
            });
            instance.recorded.push({ kind: 'message', id, body });
          }
        }
      }),
    );
    const ingested = Date.now();
    await killer;
    // Each delivered notification counted once with all its items: TOTAL once everything arrived (more
    // only if an item travelled twice, which the checks below report).
    await until(`${TOTAL} items delivered`, () => receiver.deliveredItems >= TOTAL, 240_000, 100);
    const delivered = Date.now();
    // Nothing stays pending: repeats of deliveries the notifier could not record run their course.
    await until(
      'no pending notification',
      async () => pending((await request(`${notifier.statusUrl}/metrics`)).text) === 0,
      60_000,
      250,
    );
    process.stdout.write(
      `[notifier-chaos] ingested in ${ingested - started} ms, delivered in ${delivered - started} ms, ${receiver.requests.length} requests, ` +
        `${receiver.requests.filter((r) => r.behaviour.kind !== 'ok').length} failed on purpose, ${ingestRetries} ingest retries\n`,
    );
    expect(kills).toBe(3);

    const { problems, figures } = checkNotifications(receiver.requests, instances, BATCH_MAX);
    process.stdout.write(
      `[notifier-chaos] ${figures.notifications} notifications carried ${figures.items} items; ${figures.batched} carried more than one, ` +
        `the largest ${figures.largest} (NOTIFICATION_BATCH_MAX ${BATCH_MAX})\n`,
    );
    expect(problems.slice(0, 20)).toEqual([]);
    expect(instances.map((i) => i.recorded.length)).toEqual(instances.map(() => PER_INSTANCE));
    expect(figures.items).toBe(TOTAL); // each item in exactly one notification (also checked per instance above)
    expect(receiver.deliveredItems).toBe(TOTAL);
    // Not vacuous: batching happened, up to the bound, so the checks above covered notifications of
    // several items and batches cut at NOTIFICATION_BATCH_MAX.
    expect(figures.batched).toBeGreaterThan(0);
    expect(figures.largest).toBe(BATCH_MAX);
    // Each kind of chaos happened, and getWebhookLogs tells the failures apart.
    const kinds = new Set(
      receiver.requests.map((r) => (r.behaviour.kind === 'status' ? String(r.behaviour.status) : r.behaviour.kind)),
    );
    expect([...kinds].sort()).toEqual(['302', '500', '503', 'ok', 'reset', 'timeout']);
    const logged = await Promise.all(
      instances
        .slice(0, 10)
        .map(
          async (i) =>
            expectSuccess(
              await postJson(api.apiUrl, '/getWebhookLogs', { instanceid: i.instanceid, token: i.token, limit: 100 }),
            ).attempts,
        ),
    );
    const statuses = new Set(logged.flat().map((a: any) => a.status));
    expect([...statuses]).toEqual(expect.arrayContaining([0, 200, 500]));
    expect(notifier.output).not.toMatch(/delivery attempt failed unexpectedly|stopped following the log/);
  });

  it('leaves no API key, instance token or signing secret in clear in the logs or the store', () => {
    notifierOutput.push(notifier.output);
    const secrets = [
      { kind: 'API key', value: apikey },
      ...instances.flatMap((i) => [
        { kind: 'instance token', value: i.token },
        { kind: 'signing secret', value: i.secret },
      ]),
    ];
    const texts = { 'API output': api.output, 'notifier output': notifierOutput.join('\n') };
    expect(findSecrets(secrets, { dirs: [api.dataDir], texts, skipFiles: ['secrets.key', 'internal-token'] })).toEqual(
      [],
    );
    expect(findSecrets([{ kind: 'internal token', value: INTERNAL_TOKEN }], { texts })).toEqual([]);
  });
});
