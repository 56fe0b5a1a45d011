import { ApiProcess, createAccount, expectSuccess, freePorts, get, tempDataDir } from '@gw/testing';
import { envelopeProblem } from './support/envelope';
import { generousRateLimits, seedFor, seededRandom, sleep } from './support/env';
import { creds, LoadClient } from './support/load-client';
import { planExplained, webhookExplained } from './support/load-model';
import { findSecrets } from './support/secret-scan';

/**
 * 2,000 mixed operations at concurrency 32 against the API on the embedded store, which is killed
 * with SIGKILL and restarted (on the same ports and data) twice meanwhile. Clients retry nothing: a
 * request that gets no answer in a kill window is recorded as such. Afterwards, everything that was
 * acknowledged must be there (docs/api.md 4.7), nothing answered 5xx, every refusal is an envelope.
 */

const OPERATIONS = 2000;
const CONCURRENCY = 32;
const KILL_AFTER = [650, 1350]; // operations answered before each kill

describe('API under load, killed with SIGKILL twice', () => {
  const random = seededRandom(seedFor('load-crash', 20_240_611));
  let api: ApiProcess;
  let own: { email: string; apikey: string };
  let other: { email: string; apikey: string; instanceid: string };
  // The operations and their checks: support/load-client.ts.
  let client: LoadClient;
  let down = false;

  beforeAll(async () => {
    const [account, instance, internal] = await freePorts(3);
    const env = {
      ...generousRateLimits(),
      ACCOUNT_PORT: String(account),
      API_PORT: String(instance),
      INTERNAL_PORT: String(internal),
    };
    api = await ApiProcess.start({ dataDir: tempDataDir(), env });
    own = createAccount(api.dataDir, 'load@example.com');
    const b = createAccount(api.dataDir, 'other@example.com');
    const created = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email: b.email, token: b.apikey, packageid: 'trial' }),
    );
    other = { ...b, instanceid: created.instanceid };
    client = new LoadClient(api, random, own, other);
  });
  afterAll(async () => {
    await api?.stop();
    api?.removeData();
  });

  it('reflects every acknowledged operation, answers no 5xx, and refuses only with envelopes', async () => {
    const { tracked, windows, problems, stats, answers } = client;
    let issued = 0;
    let answered = 0;
    let killing: Promise<void> | undefined;
    const kill = async () => {
      windows.push({ start: Date.now() });
      down = true;
      expect(await api.stop('SIGKILL')).toBeNull();
      await sleep(250); // requests in this gap find the port closed
      await api.start();
      down = false;
      windows[windows.length - 1].end = Date.now() + 1500;
    };
    const worker = async () => {
      while (issued < OPERATIONS) {
        while (down) await sleep(20);
        issued += 1;
        const idle = tracked.filter((t) => !t.busy);
        const kind =
          idle.length === 0
            ? random.next() < 0.8
              ? 'create'
              : 'list'
            : random.weighted({ create: 10, list: 6, renew: 14, webhook: 30, status: 13, logs: 7, bad: 20 });
        if (kind === 'create') await client.create();
        else if (kind === 'list') await client.list();
        else {
          const t = random.pick(idle);
          t.busy = true;
          try {
            await client[kind](t);
          } finally {
            t.busy = false;
          }
        }
        answered += 1;
        if (!killing && windows.length < KILL_AFTER.length && answered >= KILL_AFTER[windows.length]) {
          killing = kill().finally(() => (killing = undefined));
        }
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    while (killing) await killing;
    process.stdout.write(
      `[load-crash] ${issued} operations in ${Date.now() - started} ms, ${tracked.length} instances: ${JSON.stringify(stats)}\n`,
    );
    expect(windows.length).toBe(2);
    expect(issued).toBe(OPERATIONS);

    // Every acknowledged creation, renewal and webhook change is there, on both read paths.
    const final = expectSuccess(await get(api.accountUrl, '/listInstances', own));
    const byId = new Map<string, any>(final.instances.map((i: any) => [i.instanceid, i]));
    for (const t of tracked) {
      const listed = byId.get(t.instanceid);
      if (!listed) {
        problems.push(`acknowledged instance ${t.instanceid} is not listed`);
        continue;
      }
      if (listed.createdAt !== t.createdAt || !planExplained(t, listed.packageid, listed.expiresAt)) {
        problems.push(
          `${t.instanceid} is listed with ${listed.packageid} until ${listed.expiresAt}; acknowledged ${t.packageid} until ${t.expiresAt} (unknown renewals: ${t.renewsAfter})`,
        );
      }
      if (!webhookExplained(t, listed.webhookUrl) || listed.webhookEnabled !== (listed.webhookUrl !== '')) {
        problems.push(
          `${t.instanceid} is listed with webhook ${JSON.stringify(listed.webhookUrl)} (${listed.webhookEnabled}); acknowledged ${JSON.stringify(t.webhookUrl)}`,
        );
      }
      const status = expectSuccess(await get(api.apiUrl, '/getWebhookStatus', creds(t)));
      client.checkStatus(t, status, 'after the run');
      if (status.webhookUrl !== listed.webhookUrl)
        problems.push(`${t.instanceid}: listInstances and getWebhookStatus disagree`);
    }
    // Instances nobody was told about can only come from creations whose answer was lost.
    expect(final.instances.length - tracked.length).toBeLessThanOrEqual(stats.unknownCreates);
    expect(final.instances.map((i: any) => i.createdAt)).toEqual(
      [...final.instances.map((i: any) => i.createdAt)].sort(),
    );

    // A further SIGKILL and restart changes nothing that can be read.
    await api.stop('SIGKILL');
    await api.start();
    expect(expectSuccess(await get(api.accountUrl, '/listInstances', own))).toEqual(final);

    const malformed = answers
      .map(({ host, what, answer }) => [what, envelopeProblem(host, answer)])
      .filter(([, p]) => p);
    expect(malformed.slice(0, 10)).toEqual([]);
    expect(problems.slice(0, 20)).toEqual([]);
    expect(api.output).not.toMatch(/unexpected error|transport failure/);
    expect(stats.acknowledged).toBeGreaterThan(OPERATIONS * 0.6);
  });

  it('leaves no API key, instance token or signing secret in clear in its output or its data dir', () => {
    const { tracked } = client;
    const secrets = [
      ...[own.apikey, other.apikey].map((value) => ({ kind: 'API key', value })),
      ...tracked.map((t) => ({ kind: 'instance token', value: t.token })),
      ...tracked.filter((t) => t.signingSecret).map((t) => ({ kind: 'signing secret', value: t.signingSecret! })),
    ];
    expect(secrets.length).toBeGreaterThan(100);
    expect(
      findSecrets(secrets, {
        dirs: [api.dataDir],
        texts: { 'API output': api.output },
        skipFiles: ['secrets.key', 'internal-token'],
      }),
    ).toEqual([]);
  });
});
