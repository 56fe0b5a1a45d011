import { get, postJson, request, type Answer } from '@gw/testing';
import type { ChaosReceiver } from './chaos-receiver';
import { sleep, type seededRandom } from './env';
import { envelopeProblem, type Host } from './envelope';

/** Load for the disk-full spec: creates, webhook changes, ingest and reads, with what was acknowledged. */

export type Phase = 'before' | 'full' | 'freed';
export type WriteKind = 'create' | 'webhook' | 'message' | 'ack';
export type ReadKind = 'list' | 'status';
export const WRITE_KINDS: readonly WriteKind[] = ['create', 'webhook', 'message', 'ack'];

/** How one request ended: acknowledged, refused with 0011 (safe to retry), or anything else. */
export interface Outcome {
  kind: WriteKind | ReadKind;
  phase: Phase;
  /** When the request was sent and when its answer came (ms since the epoch). */
  startedAt: number;
  at: number;
  result: 'ok' | 'unavailable' | 'problem';
  detail?: string;
}

/** An instance whose webhook the load changes; `acked` is the URL of its last acknowledged change
 * ('' = delivery off), `later` what was sent after it without an acknowledgement. */
export interface ChurnInstance {
  instanceid: string;
  token: string;
  acked: string;
  later: string[];
  changes: number;
}

/** An instance with the receiver registered that the load sends messages and acks to; only the
 * acknowledged ones (202) are kept. */
export interface DeliveryInstance {
  instanceid: string;
  token: string;
  path: string;
  messages: string[];
  acks: Array<{ id: string; status: string }>;
}

const HOST_OF: Record<Outcome['kind'], Host> = {
  create: 'account',
  list: 'account',
  webhook: 'instance',
  status: 'instance',
  message: 'internal',
  ack: 'internal',
};
const ACK_STATUSES = ['sent', 'delivered', 'read'];

export class DiskFullLoad {
  phase: Phase = 'before';
  readonly outcomes: Outcome[] = [];
  readonly churn: ChurnInstance[][] = [];
  private running = false;
  private workers: Promise<void>[] = [];

  constructor(
    private readonly urls: { account: string; instance: string; internal: string },
    private readonly account: { email: string; apikey: string },
    private readonly internalToken: string,
    private readonly receiver: ChaosReceiver,
    readonly delivery: DeliveryInstance[],
    private readonly random: ReturnType<typeof seededRandom>,
  ) {}

  /** Every churn instance whose creation was acknowledged. */
  get created(): ChurnInstance[] {
    return this.churn.flat();
  }

  start(churnWorkers: number): void {
    this.running = true;
    for (let w = 0; w < churnWorkers; w++) {
      this.churn.push([]);
      this.workers.push(this.loop(() => this.churnStep(w)));
    }
    for (const instance of this.delivery) this.workers.push(this.loop(() => this.ingestStep(instance)));
    this.workers.push(this.loop(() => this.readStep()));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /** Sends a request and records how it ended; returns the answer when it was a success. */
  async send(
    kind: Outcome['kind'],
    call: () => Promise<Answer>,
    check?: (json: Answer['json']) => string | undefined,
  ): Promise<Answer | undefined> {
    const phase = this.phase;
    const startedAt = Date.now();
    const host = HOST_OF[kind];
    let answer: Answer;
    try {
      answer = await call();
    } catch (error) {
      this.outcomes.push({
        kind,
        phase,
        startedAt,
        at: Date.now(),
        result: 'problem',
        detail: `${kind}: no answer (${(error as Error).message})`,
      });
      return undefined;
    }
    const shape = envelopeProblem(host, answer);
    const expected = host === 'internal' ? 202 : 200;
    let result: Outcome['result'] = 'problem';
    let detail = shape ? `${kind}: ${shape}: ${answer.text.slice(0, 300)}` : undefined;
    if (!shape && answer.json.success === true && answer.status === expected) {
      detail = check?.(answer.json);
      result = detail ? 'problem' : 'ok';
    } else if (
      !shape &&
      answer.json.success === false &&
      answer.json.msg.join() === '0011' &&
      answer.status === (host === 'internal' ? 503 : 200)
    ) {
      result = 'unavailable';
    } else if (!detail) {
      detail = `${kind}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`;
    }
    this.outcomes.push({ kind, phase, startedAt, at: Date.now(), result, detail });
    return result === 'ok' ? answer : undefined;
  }

  private async loop(step: () => Promise<void>): Promise<void> {
    while (this.running) {
      await step();
      await sleep(10 + this.random.int(20));
    }
  }

  private async churnStep(worker: number): Promise<void> {
    const own = this.churn[worker];
    if (own.length === 0 || this.random.next() < 0.3) {
      const { email, apikey } = this.account;
      const answer = await this.send('create', () =>
        get(this.urls.account, '/newInstance', { email, token: apikey, packageid: 'monthly' }),
      );
      if (answer)
        own.push({ instanceid: answer.json.instanceid, token: answer.json.token, acked: '', later: [], changes: 0 });
      return;
    }
    const instance = this.random.pick(own);
    // Never the value acknowledged last: that would record nothing, and answer success on a full disk.
    instance.changes += 1;
    const url =
      instance.acked === '' || this.random.next() < 0.5
        ? this.receiver.url(`/churn/${instance.instanceid}?v=${instance.changes}`)
        : '';
    const params = { instanceid: instance.instanceid, token: instance.token, webhookUrl: url };
    const viaAccountHost = this.random.next() < 0.3;
    const answer = await this.send('webhook', () =>
      viaAccountHost ? get(this.urls.account, '/webhook', params) : postJson(this.urls.instance, '/webhook', params),
    );
    if (answer) {
      instance.acked = url;
      instance.later = [];
    } else {
      instance.later.push(url);
    }
  }

  private async ingestStep(instance: DeliveryInstance): Promise<void> {
    const previous = instance.messages.at(-1);
    const ack = previous !== undefined && this.random.next() < 0.25;
    const n = instance.messages.length + instance.acks.length;
    const body = ack
      ? {
          id: previous,
          chatId: 'chat@c.us',
          status: this.random.pick(
            ACK_STATUSES.filter((s) => !instance.acks.some((a) => a.id === previous && a.status === s)),
          ),
          time: 1_700_000_000 + n,
        }
      : {
          id: `${instance.path.slice(1)}-m${n}-${this.random.int(1e9)}`,
          chatId: 'chat@c.us',
          body: `message ${n}`,
          time: 1_700_000_000 + n,
        };
    if (ack && body.status === undefined) return; // every status of that message is recorded already
    const answer = await this.send(ack ? 'ack' : 'message', () =>
      request(`${this.urls.internal}/instances/${instance.instanceid}/${ack ? 'acks' : 'messages'}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.internalToken}` },
        body: JSON.stringify(body),
      }),
    );
    if (!answer) return;
    if (ack) instance.acks.push({ id: body.id as string, status: body.status as string });
    else instance.messages.push(body.id as string);
  }

  /** listInstances must show every creation acknowledged before it was asked; getWebhookStatus must
   * answer for an instance whose creation was. */
  private async readStep(): Promise<void> {
    const known = this.created;
    if (known.length === 0 || this.random.next() < 0.5) {
      const before = new Set(known.map((i) => i.instanceid));
      const { email, apikey } = this.account;
      await this.send(
        'list',
        () => get(this.urls.account, '/listInstances', { email, apikey }),
        (json) => {
          const listed = new Set((json.instances as Array<{ instanceid: string }>).map((i) => i.instanceid));
          const missing = [...before].filter((id) => !listed.has(id));
          return missing.length
            ? `list: ${missing.length} acknowledged instance(s) missing, e.g. ${missing[0]}`
            : undefined;
        },
      );
      return;
    }
    const instance = this.random.pick(known);
    await this.send('status', () =>
      postJson(this.urls.instance, '/getWebhookStatus', { instanceid: instance.instanceid, token: instance.token }),
    );
  }
}
