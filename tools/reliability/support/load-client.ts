import { request, type Answer, type ApiProcess } from '@gw/testing';
import type { Host } from './envelope';
import type { seededRandom } from './env';
import {
  badRequests,
  DAY_MS,
  DURATION_DAYS,
  renewalExplained,
  WEBHOOK_URLS,
  webhookExplained,
  type TrackedInstance,
} from './load-model';

// The load-crash test's client: one method per operation it sends, each checking its answer against
// what was acknowledged before (docs/api.md 4.7) and writing what does not fit into `problems`.

const UNKNOWN_OUTCOME = ['0010', '0011', '0012'];
const PACKAGES = Object.keys(DURATION_DAYS);
type Account = { email: string; apikey: string };

/** An instance's credentials as the instance host reads them. */
export const creds = (t: TrackedInstance) => ({ instanceid: t.instanceid, token: t.token });

/** Sends the load's operations and keeps what the final checks compare with. */
export class LoadClient {
  readonly tracked: TrackedInstance[] = [];
  readonly answers: Array<{ host: Host; what: string; answer: Answer }> = [];
  readonly problems: string[] = [];
  readonly stats = { noAnswer: 0, unknownOutcome: 0, unknownCreates: 0, acknowledged: 0, refused: 0 };
  /** When the API was down: a request without an answer is allowed only inside one. */
  readonly windows: Array<{ start: number; end?: number }> = [];

  constructor(
    private readonly api: ApiProcess,
    private readonly random: ReturnType<typeof seededRandom>,
    private readonly own: Account,
    private readonly other: Account & { instanceid: string },
  ) {}

  /** Sends one request; `undefined` when no answer came (allowed only inside a kill window). */
  async send(
    host: Host,
    what: string,
    path: string,
    query: Record<string, string> = {},
    init: RequestInit = {},
  ): Promise<Answer | undefined> {
    const base = host === 'account' ? this.api.accountUrl : this.api.apiUrl;
    const qs = Object.keys(query).length ? `?${new URLSearchParams(query)}` : '';
    try {
      const answer = await request(`${base}${path}${qs}`, init);
      this.answers.push({ host, what, answer });
      return answer;
    } catch (error) {
      const now = Date.now();
      if (!this.windows.some((w) => now >= w.start && (w.end === undefined || now <= w.end))) {
        this.problems.push(`${what}: no answer outside a kill window (${(error as Error).cause ?? error})`);
      }
      this.stats.noAnswer += 1;
      return undefined;
    }
  }

  /** Sorts an answer: acknowledged, refused for sure, or of unknown outcome (counted here). */
  outcome(what: string, answer: Answer | undefined): 'ok' | 'unknown' | 'refused' {
    if (answer === undefined) return 'unknown';
    if (answer.json?.success === true) {
      this.stats.acknowledged += 1;
      return 'ok';
    }
    const msg: string[] = answer.json?.msg ?? [];
    if (msg.some((code) => UNKNOWN_OUTCOME.includes(code))) {
      this.stats.unknownOutcome += 1;
      return 'unknown';
    }
    this.stats.refused += 1;
    this.problems.push(`${what}: a valid request was refused with ${answer.status} ${answer.text.slice(0, 160)}`);
    return 'refused';
  }

  async create(): Promise<void> {
    const packageid = this.random.pick(PACKAGES);
    const issuedAt = Date.now();
    const answer = await this.send('account', 'newInstance', '/newInstance', {
      email: this.own.email,
      token: this.own.apikey,
      packageid,
    });
    const result = this.outcome('newInstance', answer);
    if (result === 'unknown') this.stats.unknownCreates += 1;
    if (result !== 'ok') return;
    const body = answer!.json;
    const duration = Date.parse(body.expiresAt) - Date.parse(body.createdAt);
    if (
      body.packageid !== packageid ||
      duration !== DURATION_DAYS[packageid] * DAY_MS ||
      Date.parse(body.createdAt) < issuedAt - 1000
    ) {
      this.problems.push(`newInstance answered ${JSON.stringify({ ...body, token: undefined })} for ${packageid}`);
    }
    this.tracked.push({
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

  async list(): Promise<void> {
    const expected = this.tracked.map((t) => t.instanceid); // acknowledged before this request was sent
    const answer = await this.send('account', 'listInstances', '/listInstances', this.own);
    if (this.outcome('listInstances', answer) !== 'ok') return;
    const listed = new Set(answer!.json.instances.map((i: { instanceid: string }) => i.instanceid));
    const missing = expected.filter((id) => !listed.has(id));
    if (missing.length)
      this.problems.push(`listInstances is missing ${missing.length} acknowledged instances, e.g. ${missing[0]}`);
  }

  async renew(t: TrackedInstance): Promise<void> {
    const packageid = this.random.pick(PACKAGES);
    const answer = await this.send('account', 'renewInstance', '/renewInstance', {
      ...this.own,
      instanceid: t.instanceid,
      packageid,
    });
    const result = this.outcome('renewInstance', answer);
    if (result === 'unknown') t.renewsAfter.push(packageid);
    if (result !== 'ok') return;
    const body = answer!.json;
    if (body.packageid !== packageid || !renewalExplained(t, packageid, body.expiresAt))
      this.problems.push(
        `renewInstance of ${t.instanceid} (${t.expiresAt} + ${packageid}) answered ${JSON.stringify(body)}`,
      );
    Object.assign(t, { packageid, expiresAt: body.expiresAt, renewsAfter: [] });
  }

  async webhook(t: TrackedInstance): Promise<void> {
    const webhookUrl = this.random.next() < 0.25 ? '' : this.random.pick(WEBHOOK_URLS);
    const params = { ...creds(t), webhookUrl };
    const via = this.random.pick(['account GET', 'GET', 'POST form', 'POST JSON'] as const);
    const answer =
      via === 'account GET'
        ? await this.send('account', `webhook (${via})`, '/webhook', params)
        : via === 'GET'
          ? await this.send('instance', `webhook (${via})`, '/webhook', params)
          : via === 'POST form'
            ? await this.send(
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
            : await this.send(
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
    const result = this.outcome(`webhook (${via})`, answer);
    if (result === 'unknown') t.webhooksAfter.push(webhookUrl);
    if (result !== 'ok') return;
    const body = answer!.json;
    if (body.webhookUrl !== webhookUrl || body.enabled !== (webhookUrl !== ''))
      this.problems.push(`webhook ${JSON.stringify(webhookUrl)} answered ${JSON.stringify(body)}`);
    if (body.signingSecret !== undefined && t.signingSecret !== undefined && body.signingSecret !== t.signingSecret)
      this.problems.push(`the signing secret of ${t.instanceid} changed`);
    t.signingSecret ??= body.signingSecret;
    Object.assign(t, { webhookUrl, webhooksAfter: [] });
  }

  /** getWebhookStatus must already show what was acknowledged (4.7). */
  checkStatus(t: TrackedInstance, body: Record<string, unknown>, when: string): void {
    const url = body.webhookUrl as string;
    if (!webhookExplained(t, url) || body.enabled !== (url !== '') || body.instanceStatus !== 'active') {
      this.problems.push(
        `${when}: getWebhookStatus of ${t.instanceid} shows ${JSON.stringify({ ...body, signingSecret: undefined })}, acknowledged ${JSON.stringify(t.webhookUrl)}`,
      );
    }
    if (t.signingSecret !== undefined && body.signingSecret !== t.signingSecret)
      this.problems.push(`${when}: getWebhookStatus of ${t.instanceid} shows another signing secret`);
  }

  async status(t: TrackedInstance): Promise<void> {
    const post = this.random.next() < 0.5;
    const answer = post
      ? await this.send(
          'instance',
          'getWebhookStatus',
          '/getWebhookStatus',
          {},
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(creds(t)) },
        )
      : await this.send('instance', 'getWebhookStatus', '/getWebhookStatus', creds(t));
    if (this.outcome('getWebhookStatus', answer) === 'ok') this.checkStatus(t, answer!.json, 'during the run');
  }

  async logs(t: TrackedInstance): Promise<void> {
    const limit: Record<string, string> = this.random.next() < 0.5 ? {} : { limit: String(1 + this.random.int(100)) };
    const answer = await this.send('instance', 'getWebhookLogs', '/getWebhookLogs', { ...creds(t), ...limit });
    if (this.outcome('getWebhookLogs', answer) === 'ok' && !Array.isArray(answer!.json.attempts))
      this.problems.push('getWebhookLogs without attempts');
  }

  async bad(t: TrackedInstance): Promise<void> {
    const b = this.random.pick(badRequests(this.own, this.other, t));
    const answer = await this.send(b.host, `bad request: ${b.name}`, b.path, b.query, b.init);
    if (!answer) return;
    const msg: string[] = answer.json?.msg ?? [];
    const rateLimited = msg.length === 1 && msg[0] === '0010';
    if (
      !rateLimited &&
      (answer.json?.success !== false ||
        JSON.stringify(msg) !== JSON.stringify(b.codes) ||
        answer.status !== (b.status ?? 200))
    ) {
      this.problems.push(
        `bad request "${b.name}" answered ${answer.status} ${answer.text.slice(0, 160)}, expected ${b.codes}`,
      );
    }
  }
}
