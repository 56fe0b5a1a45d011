import { ApiProcess, createAccount, expectSuccess, get, NotifierProcess, postJson, request, tempDataDir } from '@gw/testing';
import { Webhook } from 'standardwebhooks';
import { ChaosReceiver, type Behaviour, type Received } from './support/chaos-receiver';
import { generousRateLimits, seedFor, seededRandom, sleep, until } from './support/env';
import { findSecrets } from './support/secret-scan';

/**
 * CONTRACT section 6 under chaos: a receiver that mixes 200s, 5xx, redirects, timeouts, resets and
 * slow answers, while the notifier is killed with SIGKILL three times during 5,000 notifications
 * over 50 instances. Every notification must reach the receiver with a 2xx at least once, and after
 * removing duplicates by webhook-id, no instance's sequence has a gap.
 */

const INSTANCES = 50;
const PER_INSTANCE = 100;
const TOTAL = INSTANCES * PER_INSTANCE;
const DELIVERY_TIMEOUT_MS = 1000;
/** Chaos fails one notification at most this often; with 9 attempts in all it is never dead-lettered. */
const MAX_FAILURES = 3;
const KILL_AT = [0.15, 0.4, 0.65].map((share) => Math.round(TOTAL * share)); // distinct deliveries
const INTERNAL_TOKEN = 'reliability-internal-token-0123456789';
const common = { INTERNAL_TOKEN, ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', SHUTDOWN_GRACE_MS: '500' };
const notifierEnv = { ...common, RETRY_SCHEDULE: '0.2,0.2,0.5,1,1,1,1,1', DELIVERY_TIMEOUT_MS: String(DELIVERY_TIMEOUT_MS) };

/** The sum of the notifier_pending_notifications series in a /metrics text (-1 when absent). */
function pending(metrics: string): number {
  const values = [...metrics.matchAll(/^notifier_pending_notifications(?:\{[^}]*\})? (\S+)$/gm)].map((m) => Number(m[1]));
  return values.length ? values.reduce((a, b) => a + b, 0) : -1;
}

/** What was recorded for an instance, in order: its k-th event becomes its notification k. */
type Recorded = { kind: 'message' | 'ack'; id: string; status?: string };

describe('notifier killed with SIGKILL three times while a chaotic receiver answers 5,000 notifications', () => {
  const random = seededRandom(seedFor('notifier-chaos', 5_000_003));
  const failures = new Map<string, number>();
  const chaos = (webhookId: string): Behaviour => {
    if ((failures.get(webhookId) ?? 0) >= MAX_FAILURES) return { kind: 'ok', delayMs: random.next() < 0.2 ? 50 + random.int(300) : 0 };
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
  const instances: Array<{ instanceid: string; token: string; path: string; secret: string; recorded: Recorded[] }> = [];
  let apikey = '';
  let ingestRetries = 0;

  beforeAll(async () => {
    await receiver.start();
    api = await ApiProcess.start({ dataDir: tempDataDir(), env: { ...common, ...generousRateLimits() } });
    const account = createAccount(api.dataDir, 'chaos@example.com');
    apikey = account.apikey;
    for (let i = 0; i < INSTANCES; i++) {
      const created = expectSuccess(await get(api.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'monthly' }));
      const path = `/chaos/${i}`;
      const registered = expectSuccess(await postJson(api.apiUrl, '/webhook', { instanceid: created.instanceid, token: created.token, webhookUrl: receiver.url(path) }));
      instances.push({ instanceid: created.instanceid, token: created.token, path, secret: registered.signingSecret, recorded: [] });
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
      if ((answer && answer.status !== 503) || attempt >= 20) throw new Error(`ingest answered ${answer?.status}: ${answer?.text}`);
      ingestRetries += 1;
      await sleep(100);
    }
  }

  const distinctDelivered = () => new Set(receiver.received.filter((r) => r.delivered).map((r) => r.webhookId)).size;

  async function startNotifier(): Promise<void> {
    if (notifier) notifierOutput.push(notifier.output);
    notifier = new NotifierProcess(api.dataDir, notifierEnv);
    await notifier.start();
  }

  it('delivers every notification at least once, without a gap in any instance sequence', async () => {
    await startNotifier();
    const started = Date.now();
    let kills = 0;
    const killer = (async () => {
      for (const at of KILL_AT) {
        await until(`${at} deliveries`, () => distinctDelivered() >= at, 240_000, 20);
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
            await ingest(instance.instanceid, 'acks', { id: previous.id, chatId: `chat-${i}@c.us`, status, time: 1_700_000_000 + k });
            instance.recorded.push({ kind: 'ack', id: previous.id, status });
          } else {
            const id = `i${i}-m${k}`;
            await ingest(instance.instanceid, 'messages', { id, chatId: `chat-${i}@c.us`, body: `message ${k} ✓ \u0000 "quoted"`, time: 1_700_000_000 + k });
            instance.recorded.push({ kind: 'message', id });
          }
        }
      }),
    );
    const ingested = Date.now();
    await killer;
    await until('5,000 distinct deliveries', () => distinctDelivered() >= TOTAL, 240_000, 100);
    const delivered = Date.now();
    // Nothing stays pending: repeats of deliveries the notifier could not record run their course.
    await until('no pending notification', async () => pending((await request(`${notifier.statusUrl}/metrics`)).text) === 0, 60_000, 250);
    process.stdout.write(
      `[notifier-chaos] ingested in ${ingested - started} ms, delivered in ${delivered - started} ms, ${receiver.received.length} requests, ` +
        `${receiver.received.filter((r) => r.behaviour.kind !== 'ok').length} failed on purpose, ${ingestRetries} ingest retries\n`,
    );
    expect(kills).toBe(3);

    const problems: string[] = [];
    const byId = new Map<string, Received[]>();
    for (const r of receiver.received) byId.set(r.webhookId, [...(byId.get(r.webhookId) ?? []), r]);
    for (const [webhookId, attempts] of byId) {
      if (new Set(attempts.map((a) => a.rawBody)).size !== 1) problems.push(`webhook-id ${webhookId} was sent with different bodies`);
      if (!attempts.some((a) => a.delivered)) problems.push(`webhook-id ${webhookId} (sequence ${attempts[0].json?.sequence}) never got a 2xx`);
    }
    for (const instance of instances) {
      const webhook = new Webhook(instance.secret);
      const requests = receiver.received.filter((r) => r.path === instance.path);
      const bySequence = new Map<number, Set<string>>();
      for (const r of requests) {
        const sequence = r.json?.sequence as number;
        bySequence.set(sequence, (bySequence.get(sequence) ?? new Set()).add(r.webhookId));
        try {
          webhook.verify(r.rawBody, r.headers as Record<string, string>);
        } catch {
          problems.push(`${instance.path}: a request with a bad signature (sequence ${sequence})`);
        }
        const event = instance.recorded[sequence - 1];
        const payload: { id: string; status?: string } | undefined = event?.kind === 'message' ? r.json?.messages?.[0] : r.json?.ack?.[0];
        if (!event || r.json?.instanceId !== instance.instanceid || payload?.id !== event.id || payload.status !== event.status) {
          problems.push(`${instance.path}: sequence ${sequence} carries ${r.rawBody.slice(0, 120)}, recorded ${JSON.stringify(event)}`);
        }
      }
      const delivered = new Set(requests.filter((r) => r.delivered).map((r) => r.json?.sequence));
      const gaps = Array.from({ length: PER_INSTANCE }, (_, k) => k + 1).filter((s) => !delivered.has(s));
      if (gaps.length) problems.push(`${instance.path}: sequences never delivered: ${gaps.slice(0, 10).join(', ')}`);
      if (bySequence.size !== PER_INSTANCE) problems.push(`${instance.path}: ${bySequence.size} sequences for ${PER_INSTANCE} events`);
      for (const [sequence, ids] of bySequence) if (ids.size > 1) problems.push(`${instance.path}: sequence ${sequence} was created ${ids.size} times`);
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(byId.size).toBe(TOTAL);
    // Each kind of chaos happened, and getWebhookLogs tells the failures apart.
    const kinds = new Set(receiver.received.map((r) => (r.behaviour.kind === 'status' ? String(r.behaviour.status) : r.behaviour.kind)));
    expect([...kinds].sort()).toEqual(['302', '500', '503', 'ok', 'reset', 'timeout']);
    const logged = await Promise.all(
      instances.slice(0, 10).map(async (i) => expectSuccess(await postJson(api.apiUrl, '/getWebhookLogs', { instanceid: i.instanceid, token: i.token, limit: 100 })).attempts),
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
    expect(findSecrets(secrets, { dirs: [api.dataDir], texts, skipFiles: ['secrets.key', 'internal-token'] })).toEqual([]);
    expect(findSecrets([{ kind: 'internal token', value: INTERNAL_TOKEN }], { texts })).toEqual([]);
  });
});
