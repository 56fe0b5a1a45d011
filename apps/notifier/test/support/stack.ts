import { rmSync } from 'node:fs';
import {
  ApiProcess,
  createAccount,
  expectSuccess,
  get,
  NotifierProcess,
  postJson,
  request,
  runOpsAsync,
  tempDataDir,
} from '@gw/testing';

/** The internal ingest token both processes are given (so neither generates one). */
export const INTERNAL_TOKEN = 'notifier-e2e-internal-token-0123456789';

/** The switches that let webhooks target a local plain-http receiver (docs/api.md section 6). */
export const LOCAL_TARGETS = { ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' };

export interface Instance {
  instanceid: string;
  token: string;
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Polls `probe` until it returns something truthy; fails with `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await probe();
    if (last) return last as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let emails = 0;

/**
 * An API and a notifier as real processes on one data dir, with an account to make instances in,
 * and the client calls the notifier's tests need.
 */
export class Stack {
  notifier?: NotifierProcess;
  private account!: { email: string; apikey: string };
  /** Data dirs of notifiers started on a fresh disk, removed at the end. */
  private readonly freshDirs: string[] = [];

  private constructor(
    public api: ApiProcess,
    readonly apiEnv: Record<string, string>,
    readonly notifierEnv: Record<string, string>,
    private readonly freshNotifierDisk: boolean,
  ) {}

  /**
   * `env` goes to both processes; `apiEnv` and `notifierEnv` to one each. With an `EVENT_STORE`
   * connection string in `env` (and a `SECRETS_KEY`), `freshNotifierDisk` starts every notifier on
   * a data dir of its own, as on another machine.
   */
  static async start(
    options: {
      env?: Record<string, string>;
      apiEnv?: Record<string, string>;
      notifierEnv?: Record<string, string>;
      notifier?: boolean;
      freshNotifierDisk?: boolean;
    } = {},
  ): Promise<Stack> {
    const common: Record<string, string> = { INTERNAL_TOKEN, SHUTDOWN_GRACE_MS: '500', ...options.env };
    const apiEnv = { ...common, ...options.apiEnv };
    const api = await ApiProcess.start({ dataDir: tempDataDir(), env: apiEnv });
    const stack = new Stack(api, apiEnv, { ...common, ...options.notifierEnv }, options.freshNotifierDisk ?? false);
    const email = `notifier-e2e-${process.pid}-${++emails}@example.com`;
    if (common['EVENT_STORE']) {
      // Asynchronously: the EventStoreDB test double may run in this very process.
      const created = await runOpsAsync(api.dataDir, ['accounts', 'create', '--email', email], common);
      if (created.status !== 0) throw new Error(`accounts create failed: ${created.stderr}`);
      stack.account = JSON.parse(created.stdout) as { email: string; apikey: string };
    } else stack.account = createAccount(api.dataDir, email, common);
    if (options.notifier !== false) await stack.startNotifier();
    return stack;
  }

  get dataDir(): string {
    return this.api.dataDir;
  }

  /** The address of the account the stack made its instances under. */
  get accountEmail(): string {
    return this.account.email;
  }

  /** Starts a new notifier process on the same data dir (after stopping the running one). */
  async startNotifier(env: Record<string, string> = this.notifierEnv): Promise<NotifierProcess> {
    if (this.notifier?.running) await this.notifier.stop();
    // Assigned before it starts, so that a test can kill it as soon as it sends anything.
    const dataDir = this.freshNotifierDisk ? tempDataDir() : this.dataDir;
    if (this.freshNotifierDisk) this.freshDirs.push(dataDir);
    const notifier = new NotifierProcess(dataDir, env);
    this.notifier = notifier;
    await notifier.start();
    return notifier;
  }

  /** Stops the API and starts a new API process on the same data dir with `env` added. */
  async restartApi(env: Record<string, string> = {}): Promise<ApiProcess> {
    await this.api.stop();
    this.api = await ApiProcess.start({ dataDir: this.dataDir, env: { ...this.apiEnv, ...env } });
    return this.api;
  }

  /** renewInstance on the account host (docs/api.md 4.2). */
  async renew(instance: Instance): Promise<any> {
    const { email, apikey } = this.account;
    return expectSuccess(
      await get(this.api.accountUrl, '/renewInstance', {
        email,
        apikey,
        packageid: 'trial',
        instanceid: instance.instanceid,
      }),
    );
  }

  /** listInstances of the stack's account (docs/api.md 4.3). */
  async listInstances(): Promise<any[]> {
    const { email, apikey } = this.account;
    return expectSuccess(await get(this.api.accountUrl, '/listInstances', { email, apikey })).instances;
  }

  /** Any account-host operation as the stack's account (setInstanceLabel, getUsage, …); the raw answer. */
  asAccount(path: string, params: Record<string, string> = {}) {
    const { email, apikey } = this.account;
    return get(this.api.accountUrl, path, { email, apikey, ...params });
  }

  /** deleteInstance on the account host (docs/api.md 8.1); the raw answer. */
  deleteInstance(instance: Instance) {
    const { email, apikey } = this.account;
    return get(this.api.accountUrl, '/deleteInstance', { email, apikey, instanceid: instance.instanceid });
  }

  /** resetInstanceToken on the account host (docs/api.md 8.2); returns the instance with its new token. */
  async resetInstanceToken(instance: Instance): Promise<Instance> {
    const { email, apikey } = this.account;
    const body = expectSuccess(
      await get(this.api.accountUrl, '/resetInstanceToken', { email, apikey, instanceid: instance.instanceid }),
    );
    return { instanceid: instance.instanceid, token: body.token };
  }

  async stop(): Promise<void> {
    await this.notifier?.stop();
    await this.api.stop();
    this.api.removeData();
    for (const dir of this.freshDirs) rmSync(dir, { recursive: true, force: true });
  }

  async newInstance(): Promise<Instance> {
    const body = expectSuccess(
      await get(this.api.accountUrl, '/newInstance', {
        email: this.account.email,
        token: this.account.apikey,
        packageid: 'trial',
      }),
    );
    return { instanceid: body.instanceid, token: body.token };
  }

  /** POSTs /webhook, with `events` (the notification kinds, docs/api.md 8.4) only when given; returns
   * the raw answer so that refusals can be checked too. */
  setWebhook(instance: Instance, webhookUrl: string, events?: string) {
    return postJson(this.api.apiUrl, '/webhook', {
      ...instance,
      webhookUrl,
      ...(events === undefined ? {} : { events }),
    });
  }

  /** Registers (or clears, with '') and expects success; returns the body (with `signingSecret`). */
  async webhook(instance: Instance, webhookUrl: string, events?: string): Promise<any> {
    return expectSuccess(await this.setWebhook(instance, webhookUrl, events));
  }

  async status(instance: Instance): Promise<any> {
    return expectSuccess(await postJson(this.api.apiUrl, '/getWebhookStatus', instance));
  }

  /** The delivery attempts, newest first (docs/api.md 4.8). */
  async logs(instance: Instance, limit = 100): Promise<any[]> {
    return expectSuccess(await postJson(this.api.apiUrl, '/getWebhookLogs', { ...instance, limit })).attempts;
  }

  /** Records an incoming message through the internal ingest host; expects 202. */
  async message(instance: Instance, message: Record<string, unknown>): Promise<void> {
    await this.ingest(instance, 'messages', { chatId: 'chat-1@c.us', time: 1_700_000_000, ...message });
  }

  async ack(instance: Instance, ack: Record<string, unknown>): Promise<void> {
    await this.ingest(instance, 'acks', ack);
  }

  /** Reports a connection state through the internal ingest host (docs/api.md 13.2); expects 202. */
  async state(instance: Instance, state: string, time: number): Promise<void> {
    await this.ingest(instance, 'state', { state, time });
  }

  private async ingest(
    instance: Instance,
    kind: 'messages' | 'acks' | 'state',
    body: Record<string, unknown>,
  ): Promise<void> {
    const answer = await request(
      `${this.api.internalUrl}/instances/${encodeURIComponent(instance.instanceid)}/${kind}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${INTERNAL_TOKEN}` },
        body: JSON.stringify(body),
      },
    );
    if (answer.status !== 202) throw new Error(`recording on /${kind} answered ${answer.status}: ${answer.text}`);
  }

  /** The notifier's /metrics as a map from series (name plus labels) to value. */
  async metrics(): Promise<Map<string, number>> {
    const answer = await request(`${this.notifier!.statusUrl}/metrics`);
    const series = new Map<string, number>();
    for (const line of answer.text.split('\n')) {
      const match = /^([a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
      if (match) series.set(match[1], Number(match[2]));
    }
    return series;
  }
}

/** The sum of every series of a metric, whatever its labels. */
export function total(metrics: Map<string, number>, name: string): number {
  let sum = 0;
  for (const [series, value] of metrics) if (series === name || series.startsWith(`${name}{`)) sum += value;
  return sum;
}
