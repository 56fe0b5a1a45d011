import { randomBytes } from 'node:crypto';
import {
  ApiProcess,
  expectSuccess,
  get,
  NotifierProcess,
  postJson,
  request,
  runOps,
  tempDataDir,
  type Answer,
} from '@gw/testing';
import { ChaosReceiver } from './chaos-receiver';
import { sleep, until } from './env';
import type { RecordedItem } from './notification-check';
import type { Secret } from './secret-scan';
import { json, pick, sendSecretsEverywhere, type Instance, type ScanContext } from './secret-scan-requests';

const INTERNAL_TOKEN = 'secret-scan-internal-token-0123456789';
const SECRETS_KEY = randomBytes(32).toString('base64');
const common = {
  INTERNAL_TOKEN,
  SECRETS_KEY,
  ALLOW_HTTP_WEBHOOKS: 'true',
  ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
  SHUTDOWN_GRACE_MS: '500',
};
const notifierEnv = { ...common, RETRY_SCHEDULE: '0.2,0.2,0.2' };
const MESSAGES_PER_INSTANCE = 40;

/**
 * The hostile run of the secret scan: both processes, the secrets sent everywhere a client might put
 * them, signed notifications with failures and retries, and a SIGKILL of each process; what it saw is
 * kept here for the checks of secret-scan.reliability.spec.ts.
 */
export class SecretScanRun implements ScanContext {
  static readonly INTERNAL_TOKEN = INTERNAL_TOKEN;
  static readonly SECRETS_KEY = SECRETS_KEY;
  static readonly env = common;
  static readonly MESSAGES_PER_INSTANCE = MESSAGES_PER_INSTANCE;

  api!: ApiProcess;
  notifier!: NotifierProcess;
  readonly env = common;
  readonly internalToken = INTERNAL_TOKEN;
  /** Each earlier process's output, by name. */
  readonly outputs: Record<string, string> = {};
  readonly secrets: Secret[] = [];
  readonly refusals: Array<{ what: string; answer: Answer }> = [];
  readonly instances: Instance[] = [];
  /** What each instance recorded, in record order (its ingests run one after the other). */
  readonly recorded = new Map<string, RecordedItem[]>();
  private readonly attempts = new Map<string, number>();
  // The first attempt of every third notification fails, so that there are retries and failure logs to search too.
  readonly receiver = new ChaosReceiver((id) => {
    const n = (this.attempts.get(id) ?? 0) + 1;
    this.attempts.set(id, n);
    return n === 1 && this.attempts.size % 3 === 0 ? { kind: 'status', status: 500 } : { kind: 'ok', delayMs: 0 };
  });

  readonly keep = (kind: string, value: string): void => {
    this.secrets.push({ kind, value });
  };

  readonly refused = async (what: string, url: string, init?: RequestInit): Promise<void> => {
    const answer = await request(url, init);
    expect({ what, success: answer.json?.success }).toEqual({ what, success: false });
    this.refusals.push({ what, answer });
  };

  /** Starts the notifier on the run's data directory. */
  startNotifier(): Promise<NotifierProcess> {
    return NotifierProcess.start(this.api.dataDir, notifierEnv);
  }

  /** Runs everything the checks search afterwards. */
  async play(): Promise<void> {
    await this.receiver.start();
    this.api = await ApiProcess.start({ dataDir: tempDataDir(), env: common });
    this.notifier = await this.startNotifier();
    const [ann, bob] = [this.account('ann@example.com'), this.account('bob@example.com')];
    this.keep('API key', ann.apikey);
    this.keep('API key', bob.apikey);
    for (const [who, packageid] of [
      [ann, 'trial'],
      [ann, 'monthly'],
      [bob, 'annual'],
    ] as const) {
      const created = expectSuccess(
        await get(this.api.accountUrl, '/newInstance', { email: who.email, token: who.apikey, packageid }),
      );
      this.keep('instance token', created.token);
      this.instances.push(created);
    }
    for (const [i, instance] of this.instances.entries()) {
      const registered = expectSuccess(
        await postJson(this.api.apiUrl, '/webhook', { ...pick(instance), webhookUrl: this.receiver.url(`/hook/${i}`) }),
      );
      this.keep('signing secret', registered.signingSecret);
    }
    // A receiver's own header (docs/api.md section 12), in the query string: its value is a secret
    // too, sent on b1's deliveries and never in clear (nor base64) in the store or the logs.
    const headerValue = `Bearer rcv-${randomBytes(18).toString('base64url')}`;
    this.keep('receiver header value', headerValue);
    expectSuccess(
      await get(this.api.apiUrl, '/webhook', {
        ...pick(this.instances[2]),
        webhookUrl: this.receiver.url('/hook/2'),
        webhookHeaders: JSON.stringify({ Authorization: headerValue }),
      }),
    );
    // A rotation (docs/api.md 8.5), the token in the query string: its new secret signs a1's
    // deliveries first, the replaced one second, and both must stay out of the store and the logs.
    this.keep(
      'rotated signing secret',
      expectSuccess(await get(this.api.apiUrl, '/rotateSigningSecret', pick(this.instances[0]))).signingSecret,
    );
    await sendSecretsEverywhere(this, ann, bob);
    await this.deliverAcrossKills();
  }

  /** Signed deliveries with failures and retries, across a SIGKILL of each process. */
  private async deliverAcrossKills(): Promise<void> {
    await this.ingestMessages(1, 20);
    await this.api.stop('SIGKILL');
    this.outputs['API output (1st process)'] = this.api.output;
    await this.api.start();
    await this.notifier.stop('SIGKILL');
    this.outputs['notifier output (1st process)'] = this.notifier.output;
    this.notifier = await this.startNotifier();
    await this.ingestMessages(21, MESSAGES_PER_INSTANCE);
    // Notifications may batch several messages (docs/api.md section 6): count the messages they carried.
    await until(
      'every message delivered',
      () => this.receiver.deliveredItems >= this.instances.length * MESSAGES_PER_INSTANCE,
      60_000,
    );
    await sleep(500);
  }

  private ingestMessages(from: number, to: number): Promise<unknown> {
    return Promise.all(
      this.instances.map(async (instance) => {
        for (let k = from; k <= to; k++) {
          const answer = await request(`${this.api.internalUrl}/instances/${instance.instanceid}/messages`, {
            ...json({ id: `m-${k}`, chatId: 'c@c.us', time: 1_700_000_000 + k, body: `message ${k}` }),
            headers: { 'content-type': 'application/json', authorization: `Bearer ${INTERNAL_TOKEN}` },
          });
          expect(answer.status).toBe(202);
          this.recorded.set(instance.instanceid, [
            ...(this.recorded.get(instance.instanceid) ?? []),
            { kind: 'message', id: `m-${k}`, body: `message ${k}` },
          ]);
        }
      }),
    );
  }

  /** `accounts create` with the same environment as the apps (SECRETS_KEY included). */
  private account(email: string): { email: string; apikey: string } {
    const result = runOps(this.api.dataDir, ['accounts', 'create', '--email', email], common);
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout);
  }

  async stop(): Promise<void> {
    await this.notifier?.stop();
    await this.receiver.stop();
    await this.api?.stop();
    this.api?.removeData();
  }
}
