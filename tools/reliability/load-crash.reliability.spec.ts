import { ApiProcess, createAccount, expectSuccess, get, request, tempDataDir, type Answer } from '@gw/testing';
import { envelopeProblem, type Host } from './support/envelope';
import { freePorts, generousRateLimits, seedFor, seededRandom, sleep } from './support/env';
import {
  badRequests,
  DAY_MS,
  DURATION_DAYS,
  planExplained,
  renewalExplained,
  WEBHOOK_URLS,
  webhookExplained,
  type TrackedInstance,
} from './support/load-model';
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
const UNKNOWN_OUTCOME = ['0010', '0011', '0012'];
const PACKAGES = Object.keys(DURATION_DAYS);

describe('API under load, killed with SIGKILL twice', () => {
  const random = seededRandom(seedFor('load-crash', 20_240_611));
  let api: ApiProcess;
  let own: { email: string; apikey: string };
  let other: { email: string; apikey: string; instanceid: string };
  const tracked: TrackedInstance[] = [];
  const answers: Array<{ host: Host; what: string; answer: Answer }> = [];
  const problems: string[] = [];
  const stats = { noAnswer: 0, unknownOutcome: 0, unknownCreates: 0, acknowledged: 0, refused: 0 };
  const windows: Array<{ start: number; end?: number }> = [];
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
  });
  afterAll(async () => {
    await api?.stop();
    api?.removeData();
  });

  /** Sends one request; `undefined` when no answer came (allowed only inside a kill window). */
  async function send(
    host: Host,
    what: string,
    path: string,
    query: Record<string, string> = {},
    init: RequestInit = {},
  ): Promise<Answer | undefined> {
    const base = host === 'account' ? api.accountUrl : api.apiUrl;
    const qs = Object.keys(query).length ? `?${new URLSearchParams(query)}` : '';
    try {
      const answer = await request(`${base}${path}${qs}`, init);
      answers.push({ host, what, answer });
      return answer;
    } catch (error) {
      const now = Date.now();
      if (!windows.some((w) => now >= w.start && (w.end === undefined || now <= w.end))) {
        problems.push(`${what}: no answer outside a kill window (${(error as Error).cause ?? error})`);
      }
      stats.noAnswer += 1;
      return undefined;
    }
  }

  /** Sorts an answer: acknowledged, refused for sure, or of unknown outcome (counted here). */
  function outcome(what: string, answer: Answer | undefined): 'ok' | 'unknown' | 'refused' {
    if (answer === undefined) return 'unknown';
    if (answer.json?.success === true) {
      stats.acknowledged += 1;
      return 'ok';
    }
    const msg: string[] = answer.json?.msg ?? [];
    if (msg.some((code) => UNKNOWN_OUTCOME.includes(code))) {
      stats.unknownOutcome += 1;
      return 'unknown';
    }
    stats.refused += 1;
    problems.push(`${what}: a valid request was refused with ${answer.status} ${answer.text.slice(0, 160)}`);
    return 'refused';
  }

  const creds = (t: TrackedInstance) => ({ instanceid: t.instanceid, token: t.token });

  async function create(): Promise<void> {
    const packageid = random.pick(PACKAGES);
    const issuedAt = Date.now();
    const answer = await send('account', 'newInstance', '/newInstance', {
      email: own.email,
      token: own.apikey,
      packageid,
    });
    const result = outcome('newInstance', answer);
    if (result === 'unknown') stats.unknownCreates += 1;
    if (result !== 'ok') return;
    const body = answer!.json;
    const duration = Date.parse(body.expiresAt) - Date.parse(body.createdAt);
    if (
      body.packageid !== packageid ||
      duration !== DURATION_DAYS[packageid] * DAY_MS ||
      Date.parse(body.createdAt) < issuedAt - 1000
    ) {
      problems.push(`newInstance answered ${JSON.stringify({ ...body, token: undefined })} for ${packageid}`);
    }
    tracked.push({
      ...creds(body),
      createdAt: body.createdAt,
      busy: false,
      packageid,
      expiresAt: body.expiresAt,
      renewsAfter: [],
      webhookUrl: '',
      webhooksAfter: [],
    });
  }

  async function list(): Promise<void> {
    const expected = tracked.map((t) => t.instanceid); // acknowledged before this request was sent
    const answer = await send('account', 'listInstances', '/listInstances', own);
    if (outcome('listInstances', answer) !== 'ok') return;
    const listed = new Set(answer!.json.instances.map((i: { instanceid: string }) => i.instanceid));
    const missing = expected.filter((id) => !listed.has(id));
    if (missing.length)
      problems.push(`listInstances is missing ${missing.length} acknowledged instances, e.g. ${missing[0]}`);
  }

  async function renew(t: TrackedInstance): Promise<void> {
    const packageid = random.pick(PACKAGES);
    const answer = await send('account', 'renewInstance', '/renewInstance', {
      ...own,
      instanceid: t.instanceid,
      packageid,
    });
    const result = outcome('renewInstance', answer);
    if (result === 'unknown') t.renewsAfter.push(packageid);
    if (result !== 'ok') return;
    const body = answer!.json;
    if (body.packageid !== packageid || !renewalExplained(t, packageid, body.expiresAt))
      problems.push(
        `renewInstance of ${t.instanceid} (${t.expiresAt} + ${packageid}) answered ${JSON.stringify(body)}`,
      );
    Object.assign(t, { packageid, expiresAt: body.expiresAt, renewsAfter: [] });
  }

  async function webhook(t: TrackedInstance): Promise<void> {
    const webhookUrl = random.next() < 0.25 ? '' : random.pick(WEBHOOK_URLS);
    const params = { ...creds(t), webhookUrl };
    const via = random.pick(['account GET', 'GET', 'POST form', 'POST JSON'] as const);
    const answer =
      via === 'account GET'
        ? await send('account', `webhook (${via})`, '/webhook', params)
        : via === 'GET'
          ? await send('instance', `webhook (${via})`, '/webhook', params)
          : via === 'POST form'
            ? await send(
                'instance',
                `webhook (${via})`,
                '/webhook',
                {},
                {
                  method: 'POST',
                  headers: { 'content-type': 'application/x-www-form-urlencoded' },
                  body: new URLSearchParams(params).toString(),
                },
              )
            : await send(
                'instance',
                `webhook (${via})`,
                '/webhook',
                { token: 'overridden-by-the-body' },
                {
                  method: 'POST',
                  headers: { 'content-type': 'application/json; charset=utf-8' },
                  body: JSON.stringify(params),
                },
              );
    const result = outcome(`webhook (${via})`, answer);
    if (result === 'unknown') t.webhooksAfter.push(webhookUrl);
    if (result !== 'ok') return;
    const body = answer!.json;
    if (body.webhookUrl !== webhookUrl || body.enabled !== (webhookUrl !== ''))
      problems.push(`webhook ${JSON.stringify(webhookUrl)} answered ${JSON.stringify(body)}`);
    if (body.signingSecret !== undefined && t.signingSecret !== undefined && body.signingSecret !== t.signingSecret)
      problems.push(`the signing secret of ${t.instanceid} changed`);
    t.signingSecret ??= body.signingSecret;
    Object.assign(t, { webhookUrl, webhooksAfter: [] });
  }

  /** getWebhookStatus must already show what was acknowledged (4.7). */
  function checkStatus(t: TrackedInstance, body: any, when: string): void {
    const url = body.webhookUrl as string;
    if (!webhookExplained(t, url) || body.enabled !== (url !== '') || body.instanceStatus !== 'active') {
      problems.push(
        `${when}: getWebhookStatus of ${t.instanceid} shows ${JSON.stringify({ ...body, signingSecret: undefined })}, acknowledged ${JSON.stringify(t.webhookUrl)}`,
      );
    }
    if (t.signingSecret !== undefined && body.signingSecret !== t.signingSecret)
      problems.push(`${when}: getWebhookStatus of ${t.instanceid} shows another signing secret`);
  }

  async function status(t: TrackedInstance): Promise<void> {
    const post = random.next() < 0.5;
    const answer = post
      ? await send(
          'instance',
          'getWebhookStatus',
          '/getWebhookStatus',
          {},
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(creds(t)) },
        )
      : await send('instance', 'getWebhookStatus', '/getWebhookStatus', creds(t));
    if (outcome('getWebhookStatus', answer) === 'ok') checkStatus(t, answer!.json, 'during the run');
  }

  async function logs(t: TrackedInstance): Promise<void> {
    const limit: Record<string, string> = random.next() < 0.5 ? {} : { limit: String(1 + random.int(100)) };
    const answer = await send('instance', 'getWebhookLogs', '/getWebhookLogs', { ...creds(t), ...limit });
    if (outcome('getWebhookLogs', answer) === 'ok' && !Array.isArray(answer!.json.attempts))
      problems.push('getWebhookLogs without attempts');
  }

  async function bad(t: TrackedInstance): Promise<void> {
    const b = random.pick(badRequests(own, other, t));
    const answer = await send(b.host, `bad request: ${b.name}`, b.path, b.query, b.init);
    if (!answer) return;
    const msg: string[] = answer.json?.msg ?? [];
    const rateLimited = msg.length === 1 && msg[0] === '0010';
    if (
      !rateLimited &&
      (answer.json?.success !== false ||
        JSON.stringify(msg) !== JSON.stringify(b.codes) ||
        answer.status !== (b.status ?? 200))
    ) {
      problems.push(
        `bad request "${b.name}" answered ${answer.status} ${answer.text.slice(0, 160)}, expected ${b.codes}`,
      );
    }
  }

  it('reflects every acknowledged operation, answers no 5xx, and refuses only with envelopes', async () => {
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
        if (kind === 'create') await create();
        else if (kind === 'list') await list();
        else {
          const t = random.pick(idle);
          t.busy = true;
          try {
            await { renew, webhook, status, logs, bad }[kind](t);
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
      checkStatus(t, status, 'after the run');
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
