import type { Answer } from '@gw/testing';
import { CheckedRequests, form, json, pick, post, query, random, sleep } from './checked-requests';
import { ackKey, messageKey, type IngestTimes } from './flaky-receiver';
import {
  ACK_STATUSES,
  DURATION_MS,
  MIX,
  PACKAGES,
  type Account,
  type Operation,
  type Target,
  type Tracked,
} from './model';

/**
 * The soak's client: a weighted mix of operations at a fixed rate, tracking every acknowledged write
 * and every ingest answered 202 whose notification must arrive. Every answer is checked: no 5xx, no
 * refusal of a valid request, and what it shows agrees with what was acknowledged before it.
 */
export class SoakLoad extends CheckedRequests {
  readonly instances: Tracked[] = [];
  private readonly ingesting: Tracked[] = [];
  private readonly churning: Tracked[] = [];
  /** Item keys (see flaky-receiver) of messages and acks answered 202 on instances with delivery on,
   * with the ticks at which each was sent and answered. */
  readonly expected = new Map<string, IngestTimes>();
  /** A counter that orders the sending of ingest requests and the reading of their answers. */
  private tick = 0;
  /** Operations not started because `concurrency` were in flight (the load never bursts to catch up). */
  shed = 0;
  private messages = 0;

  constructor(
    private readonly target: Target,
    readonly accounts: Account[],
  ) {
    super();
  }

  async run(rate: number, concurrency: number, endAt: number): Promise<void> {
    const started = Date.now();
    const inFlight = new Set<Promise<void>>();
    let scheduled = 0;
    while (Date.now() < endAt) {
      const due = Math.floor(((Date.now() - started) * rate) / 1000);
      for (; scheduled < due; scheduled++) {
        if (inFlight.size >= concurrency) {
          this.shed += 1;
          continue;
        }
        const operation: Promise<void> = this.one().finally(() => inFlight.delete(operation));
        inFlight.add(operation);
      }
      await sleep(10);
    }
    await Promise.all(inFlight);
  }

  private async one(): Promise<void> {
    const weights = Object.entries(MIX) as Array<[Operation, number]>;
    let roll = Math.random() * weights.reduce((sum, [, w]) => sum + w, 0);
    const op = weights.find(([, w]) => (roll -= w) < 0)?.[0] ?? 'getWebhookStatus';
    try {
      await this.perform(op);
    } catch (error) {
      this.problem(`${op}: the soak client failed: ${(error as Error).stack ?? error}`);
    }
  }

  private async perform(op: Operation): Promise<void> {
    if (op === 'newInstance') return void (await this.create(pick(this.accounts), false));
    if (op === 'listInstances') return this.list(pick(this.accounts));
    // Webhooks change only on instances without ingest traffic: see Tracked.ingest.
    const pool =
      op === 'ingestMessage' || op === 'ingestAck' ? this.ingesting : op === 'webhook' ? this.churning : this.instances;
    if (op === 'ingestMessage') return this.message(pick(pool));
    if (op === 'ingestAck') return this.ack(pick(pool));
    const t = this.free(pool);
    if (!t) return;
    t.busy = true;
    if (op === 'renewInstance' || op === 'webhook') t.writes += 1;
    try {
      if (op === 'renewInstance') await this.renew(t);
      else if (op === 'webhook')
        await this.webhook(
          t,
          t.webhookUrl && Math.random() < 0.4 ? '' : `${this.target.receiver.url(t.instanceid)}?v=${random(1e9)}`,
        );
      else if (op === 'getWebhookStatus') await this.status(t);
      else await this.logs(t);
    } finally {
      t.busy = false;
    }
  }

  /** An instance no operation is busy with, if a few tries find one. */
  private free(pool: Tracked[]): Tracked | undefined {
    for (let i = 0; i < 8; i++) {
      const t = pick(pool);
      if (!t.busy) return t;
    }
    return undefined;
  }

  private mismatch(op: Operation, t: Tracked, what: string, seen: unknown, expected: unknown): void {
    if (seen !== expected)
      this.problem(
        `${op} of ${t.instanceid}: ${what} is ${JSON.stringify(seen)}, acknowledged ${JSON.stringify(expected)}`,
      );
  }

  async create(account: Account, ingest: boolean): Promise<Tracked | undefined> {
    const packageid = pick(PACKAGES);
    const body = await this.succeed(
      'newInstance',
      query(this.target.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid }),
    );
    if (!body) return undefined;
    const t: Tracked = {
      account,
      instanceid: String(body.instanceid),
      token: String(body.token),
      packageid,
      expiresAt: String(body.expiresAt),
      webhookUrl: '',
      busy: false,
      writes: 0,
      ingest,
      ackable: [],
    };
    this.mismatch('newInstance', t, 'packageid', body.packageid, packageid);
    this.mismatch(
      'newInstance',
      t,
      'duration',
      Date.parse(t.expiresAt) - Date.parse(String(body.createdAt)),
      DURATION_MS[packageid],
    );
    this.instances.push(t);
    (ingest ? this.ingesting : this.churning).push(t);
    return t;
  }

  private async renew(t: Tracked): Promise<void> {
    const packageid = pick(PACKAGES);
    const { email, apikey } = t.account;
    const body = await this.succeed(
      'renewInstance',
      query(this.target.accountUrl, '/renewInstance', { email, apikey, instanceid: t.instanceid, packageid }),
    );
    if (!body) return;
    // Every instance stays active through the run, so a renewal adds exactly the package's duration.
    this.mismatch(
      'renewInstance',
      t,
      'expiresAt',
      body.expiresAt,
      new Date(Date.parse(t.expiresAt) + DURATION_MS[packageid]).toISOString(),
    );
    this.mismatch('renewInstance', t, 'packageid', body.packageid, packageid);
    Object.assign(t, { packageid: String(body.packageid), expiresAt: String(body.expiresAt) });
  }

  /** Registers `webhookUrl` (empty: switches delivery off) by JSON, form, or the account host's GET. */
  async webhook(t: Tracked, webhookUrl: string): Promise<void> {
    const params = { instanceid: t.instanceid, token: t.token, webhookUrl };
    const how = random(3);
    const call =
      how === 0
        ? json(this.target.apiUrl, '/webhook', params)
        : how === 1
          ? form(this.target.apiUrl, '/webhook', params)
          : query(this.target.accountUrl, '/webhook', params);
    const body = await this.succeed('webhook', call);
    if (!body) return;
    this.mismatch('webhook', t, 'webhookUrl', body.webhookUrl, webhookUrl);
    this.mismatch('webhook', t, 'enabled', body.enabled, webhookUrl !== '');
    t.webhookUrl = webhookUrl;
  }

  /** getWebhookStatus must show the last acknowledged webhook state (docs/api.md 4.5, 4.7). */
  async status(t: Tracked): Promise<void> {
    const body = await this.succeed(
      'getWebhookStatus',
      json(this.target.apiUrl, '/getWebhookStatus', { instanceid: t.instanceid, token: t.token }),
    );
    if (!body) return;
    this.mismatch('getWebhookStatus', t, 'webhookUrl', body.webhookUrl, t.webhookUrl);
    this.mismatch('getWebhookStatus', t, 'enabled', body.enabled, t.webhookUrl !== '');
    this.mismatch('getWebhookStatus', t, 'instanceStatus', body.instanceStatus, 'active');
  }

  private async logs(t: Tracked): Promise<void> {
    const limit = 1 + random(100);
    const body = await this.succeed(
      'getWebhookLogs',
      query(this.target.apiUrl, '/getWebhookLogs', { instanceid: t.instanceid, token: t.token, limit: String(limit) }),
    );
    if (!body) return;
    const attempts = Array.isArray(body.attempts) ? body.attempts : [];
    if (!Array.isArray(body.attempts) || attempts.length > limit)
      this.problem(`getWebhookLogs of ${t.instanceid} (limit ${limit}) answered ${JSON.stringify(body).slice(0, 200)}`);
    // The receiver answers only 200 and 500; instances without ingest are never notified.
    const wrong = attempts.filter((a) => !t.ingest || (a.status !== 200 && a.status !== 500));
    if (wrong.length)
      this.problem(`getWebhookLogs of ${t.instanceid}: unexpected attempts ${JSON.stringify(wrong.slice(0, 3))}`);
  }

  /** listInstances shows every instance of the account with its acknowledged state (4.3, 4.7);
   * instances with a change in flight are only looked for. `exact`: no creation can be in flight,
   * so the account has no other instance. */
  async list(account: Account, exact = false): Promise<void> {
    const mine = this.instances
      .filter((t) => t.account === account)
      .map((t) => ({ t, writes: t.busy ? -1 : t.writes }));
    const body = await this.succeed(
      'listInstances',
      query(this.target.accountUrl, '/listInstances', { email: account.email, apikey: account.apikey }),
    );
    if (!body) return;
    const listed = new Map((body.instances ?? []).map((i) => [i.instanceid, i]));
    if (exact && listed.size !== mine.length)
      this.problem(`listInstances of ${account.email} shows ${listed.size} instances, ${mine.length} were created`);
    for (const { t, writes } of mine) {
      const shown = listed.get(t.instanceid);
      if (!shown) this.problem(`listInstances of ${account.email} lacks the acknowledged instance ${t.instanceid}`);
      if (!shown || writes !== t.writes) continue; // a change was in flight: either state may show
      this.mismatch('listInstances', t, 'expiresAt', shown.expiresAt, t.expiresAt);
      this.mismatch('listInstances', t, 'packageid', shown.packageid, t.packageid);
      this.mismatch('listInstances', t, 'webhookUrl', shown.webhookUrl, t.webhookUrl);
      this.mismatch('listInstances', t, 'webhookEnabled', shown.webhookEnabled, t.webhookUrl !== '');
    }
  }

  /** After the load: every acknowledged write is shown by listInstances and getWebhookStatus. */
  async verifyAcknowledged(): Promise<void> {
    for (const account of this.accounts) await this.list(account, true);
    for (let i = 0; i < this.instances.length; i += 16)
      await Promise.all(this.instances.slice(i, i + 16).map((t) => this.status(t)));
  }

  /** Sends an ingest request; `times` says when it was sent (before) and answered (after the answer was read). */
  private async ingest(
    op: 'ingestMessage' | 'ingestAck',
    t: Tracked,
    body: Record<string, unknown>,
  ): Promise<{ answer: Answer | undefined; times: IngestTimes }> {
    const path = `/instances/${t.instanceid}/${op === 'ingestMessage' ? 'messages' : 'acks'}`;
    const sent = this.tick++;
    const answer = await this.send(
      op,
      post(this.target.internalUrl, path, 'application/json', JSON.stringify(body), {
        authorization: `Bearer ${this.target.internalToken}`,
      }),
    );
    return { answer, times: { sent, answered: this.tick++ } };
  }

  private accepted(op: 'ingestMessage' | 'ingestAck', answer: Answer | undefined): boolean {
    if (!answer) return false;
    if (answer.status === 202) this.stats[op].ok += 1;
    else {
      this.stats[op].refused += 1;
      this.problem(`${op}: a valid event was refused: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    return answer.status === 202;
  }

  private async message(t: Tracked): Promise<void> {
    const id = `soak.${++this.messages}`;
    const body = {
      id,
      chatId: '5511999999999@c.us',
      from: '5511999999999@c.us',
      senderName: 'Soak',
      body: `message ${id}`,
      time: Math.floor(Date.now() / 1000),
    };
    const { answer, times } = await this.ingest('ingestMessage', t, body);
    if (!this.accepted('ingestMessage', answer)) return;
    this.expected.set(messageKey(t.instanceid, id), times);
    t.ackable.push({ id, acked: 0 });
    if (t.ackable.length > 200) t.ackable.shift();
  }

  private async ack(t: Tracked): Promise<void> {
    const message = t.ackable[random(Math.min(t.ackable.length, 20))];
    if (!message) return;
    // Taken before the request, so that two acks in flight never carry the same status.
    const status = ACK_STATUSES[message.acked++];
    if (message.acked === ACK_STATUSES.length) t.ackable.splice(t.ackable.indexOf(message), 1);
    const body = { id: message.id, chatId: '5511999999999@c.us', status, time: Math.floor(Date.now() / 1000) };
    const { answer, times } = await this.ingest('ingestAck', t, body);
    if (this.accepted('ingestAck', answer)) this.expected.set(ackKey(t.instanceid, message.id, status), times);
  }
}
