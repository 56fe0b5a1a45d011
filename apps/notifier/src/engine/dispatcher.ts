import { setTimeout as sleep } from 'node:timers/promises';
import { handleCommand, instanceStream, PersonalDataUnreadable, type PersonalData, type SecretBox } from '@gw/application';
import { instanceDecider, instanceStreamName, type DisableWebhookForReceiver } from '@gw/domain-instances';
import {
  isNotificationEvent,
  notificationsStreamName,
  notifierWorkflow,
  type NotificationBody,
  type NotificationEvent,
  type OpenNotification,
} from '@gw/domain-notifications';
import { EventStoreUnavailableError, type EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { UNREADABLE_PERSONAL_DATA_ATTEMPT, UNREADABLE_SECRET_ATTEMPT, type AttemptResult, type WebhookSender } from '@gw/webhook-delivery';
import type { NotifierMetrics } from '../metrics/metrics';
import { FairScheduler, type DueInstance } from './fair-scheduler';
import { Stopping, type NotificationWriter } from './notification-writer';
import type { NotifierModel } from './notifier-model';

const MAX_TIMER_MS = 2 ** 31 - 1;

/** A notification redelivered by reference whose NotificationCreated is not where it says (never
 * expected: notifications streams are never truncated). The attempt is recorded as failed. */
class BodyNotFound extends Error {}

/** What the dispatcher needs of the configuration, and no more. */
export interface DispatcherSettings {
  /** NOTIFIER_CONCURRENCY: requests in flight at once, over all instances. */
  concurrency: number;
  /** NOTIFIER_ACCOUNT_CONCURRENCY: requests in flight at once for one account. */
  accountConcurrency: number;
  /** NOTIFIER_ENDPOINT_CONCURRENCY: requests in flight at once to one receiver origin. */
  endpointConcurrency: number;
  /** RETRY_SCHEDULE, in seconds, after the immediate first attempt. */
  retryScheduleSeconds: readonly number[];
  /** Internal retries of the 410 switch-off when the instance changed underneath it. */
  conflictRetries: number;
  /** An attempt of the instance ended (whatever its outcome). */
  onAttemptEnded(instanceId: string): void;
}

/** The origin of a URL (scheme, host and port, no user info), without parsing it whole: the
 * dispatcher asks for it for every due instance. */
export function originOf(url: string): string {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)(?:[^@/?#]*@)?([^/?#]*)/.exec(url);
  return match ? `${match[1]}${match[2]}`.toLowerCase() : url;
}

/**
 * Sends due notifications: at most one request in flight per instance (so an instance's receiver
 * sees them one at a time, in sequence order unless one is waiting for a retry), and the slots
 * shared fairly across accounts, instances and endpoints (FairScheduler, docs/api.md section 11),
 * so that receivers that hang or fail cost only their own account.
 */
export class Dispatcher {
  private readonly inFlight = new Set<string>();
  private readonly scheduler: FairScheduler;
  private readonly attempts = new Set<Promise<void>>();
  private started = false;
  private stopping = false;
  private tickQueued = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly model: NotifierModel,
    private readonly writer: NotificationWriter,
    private readonly sender: WebhookSender,
    private readonly secrets: SecretBox,
    private readonly personalData: PersonalData,
    private readonly store: EventStore,
    private readonly settings: DispatcherSettings,
    private readonly metrics: NotifierMetrics,
    private readonly logger: Logger,
  ) {
    this.scheduler = new FairScheduler({ total: settings.concurrency, perAccount: settings.accountConcurrency, perEndpoint: settings.endpointConcurrency });
  }

  get requestsInFlight(): number {
    return this.inFlight.size;
  }

  /** Whether a notification of the instance is being sent now. */
  isSending(instanceId: string): boolean {
    return this.inFlight.has(instanceId);
  }

  start(): void {
    this.started = true;
    this.wake();
  }

  /** Looks for due work soon; cheap to call often. */
  wake(): void {
    if (this.tickQueued || !this.started || this.stopping) return;
    this.tickQueued = true;
    setImmediate(() => {
      this.tickQueued = false;
      this.tick();
    });
  }

  /** Stops starting attempts and waits for those in flight, at most `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.attempts]), new Promise((r) => (timeout = setTimeout(r, graceMs)))]);
    clearTimeout(timeout);
  }

  private tick(): void {
    if (this.stopping) return;
    const now = Date.now();
    let nextDue = Infinity;
    const due = new Map<string, { slot: DueInstance; notification: OpenNotification }>();
    for (const instanceId of this.model.instancesWithOpenNotifications()) {
      if (this.inFlight.has(instanceId)) continue;
      const next = this.model.nextDue(instanceId);
      if (!next) continue;
      const at = Date.parse(next.nextAttemptAt!);
      if (at > now) {
        nextDue = Math.min(nextDue, at);
        continue;
      }
      // Full: a finishing attempt wakes the dispatcher again.
      if (this.scheduler.full) break;
      const instance = this.model.instance(instanceId);
      const accountId = instance.status === 'none' ? '' : instance.accountId;
      const endpoint = instance.status === 'created' ? originOf(instance.webhookUrl) : '';
      due.set(instanceId, { slot: { instanceId, accountId, endpoint }, notification: next });
    }
    // What is due and not chosen waits for its account's or endpoint's share: an attempt that
    // finishes wakes the dispatcher again.
    for (const slot of this.scheduler.choose([...due.values()].map((d) => d.slot))) this.begin(slot, due.get(slot.instanceId)!.notification);
    clearTimeout(this.timer);
    if (nextDue !== Infinity) this.timer = setTimeout(() => this.wake(), Math.min(Math.max(nextDue - now, 1), MAX_TIMER_MS));
  }

  private begin(slot: DueInstance, notification: OpenNotification): void {
    const { instanceId } = slot;
    this.inFlight.add(instanceId);
    const attempt = this.attempt(instanceId, notification)
      .catch((error: unknown) => {
        if (!(error instanceof Stopping)) this.logger.error('delivery attempt failed unexpectedly', { instanceId, error });
      })
      .finally(() => {
        this.scheduler.finished(slot);
        this.inFlight.delete(instanceId);
        this.attempts.delete(attempt);
        this.settings.onAttemptEnded(instanceId);
        this.wake();
      });
    this.attempts.add(attempt);
  }

  private async attempt(instanceId: string, notification: OpenNotification): Promise<void> {
    const instance = this.model.notifierState(instanceId);
    const [decision] = notifierWorkflow.decide({ type: 'AttemptDue', data: { instanceId, now: new Date().toISOString() } }, instance);
    if (decision?.type === 'CancelPending') {
      const cancelled = await this.writer.run(instanceId, decision);
      this.metrics.cancelled.inc({}, cancelled.length);
      return;
    }
    if (decision?.type !== 'Send') return;
    const { url, encryptedSigningSecrets } = decision.data;
    const result = await this.send(instanceId, url, encryptedSigningSecrets, notification);
    this.metrics.latency.observe(result.durationMs / 1000);
    const events = await this.writer.run(instanceId, {
      type: 'RecordAttempt',
      data: {
        instanceId,
        webhookId: notification.webhookId,
        at: new Date().toISOString(),
        ...result,
        retryDelaysSeconds: this.settings.retryScheduleSeconds,
        jitter: 0.8 + Math.random() * 0.4,
      },
    });
    this.count(events, result);
    const answered = { type: 'ReceiverAnswered' as const, data: { url, status: result.status, now: new Date().toISOString() } };
    for (const output of notifierWorkflow.decide(answered, instance)) {
      if (output.type === 'DisableWebhookForReceiver') await this.disableForReceiver(instanceId, output);
    }
  }

  private async send(instanceId: string, url: string, encryptedSecrets: readonly string[], notification: OpenNotification): Promise<AttemptResult> {
    let signingSecrets: string[];
    try {
      signingSecrets = encryptedSecrets.map((sealed) => this.secrets.open(sealed));
    } catch {
      // Recorded as a failed attempt so that it shows in getWebhookLogs; an operator fixes the key.
      return UNREADABLE_SECRET_ATTEMPT;
    }
    const body = await this.openBody(instanceId, notification);
    if (body === undefined) return UNREADABLE_PERSONAL_DATA_ATTEMPT;
    return this.sender.send({ url, webhookId: notification.webhookId, body, signingSecrets });
  }

  /**
   * The body as POSTed, opened right before the POST and never kept: the state, its snapshots and
   * the log hold the sealed values. A field whose data key was erased is sent as null (docs/api.md
   * section 9). Undefined when a field fails authentication; an outage of the keys' store is waited
   * out, as the writer waits out one, until the notifier stops.
   */
  private async openBody(instanceId: string, notification: OpenNotification): Promise<string | undefined> {
    for (let attempt = 0; ; attempt++) {
      try {
        const body = notification.body ?? (await this.createdBody(instanceId, notification));
        return JSON.stringify(await this.personalData.openBody(body, null));
      } catch (error) {
        if (error instanceof PersonalDataUnreadable || error instanceof BodyNotFound) {
          // The reason names no value: which key or form failed, for the operator (the receiver's log says less).
          this.logger.error('a notification body does not open; the attempt is recorded as failed', { webhookId: notification.webhookId, reason: error.message });
          return undefined;
        }
        if (!(error instanceof EventStoreUnavailableError)) throw error;
        if (this.stopping) throw new Stopping();
        this.logger.warn('store unavailable while opening a notification body; retrying', { webhookId: notification.webhookId, error });
        await sleep(Math.min(5000, 100 * 2 ** Math.min(attempt, 6)));
      }
    }
  }

  /** The body of a notification redelivered by reference, read from its NotificationCreated (one
   * event) for this attempt only; the model does not keep it. */
  private async createdBody(instanceId: string, { webhookId, createdRevision }: OpenNotification): Promise<NotificationBody> {
    if (createdRevision === undefined) throw new BodyNotFound(`notification ${webhookId} has neither a body nor a reference to one`);
    const [event] = await this.store.readStream(notificationsStreamName(instanceId), { fromRevision: BigInt(createdRevision), maxCount: 1 });
    const created = event && isNotificationEvent(event) && event.type === 'NotificationCreated' ? event : undefined;
    if (!created || created.data.webhookId !== webhookId) throw new BodyNotFound(`notification ${webhookId} is not at revision ${createdRevision} of its stream`);
    return created.data.body;
  }

  private count(events: NotificationEvent[], result: AttemptResult): void {
    for (const event of events) {
      if (event.type === 'NotificationDelivered') this.metrics.delivered.inc();
      if (event.type === 'DeliveryAttemptFailed') this.metrics.failedAttempts.inc({ reason: result.status ? String(result.status) : result.error.split(':')[0] });
      if (event.type === 'NotificationDeadLettered') this.metrics.deadLettered.inc();
      if (event.type === 'NotificationCancelled') this.metrics.cancelled.inc();
    }
  }

  /**
   * 410 Gone: the receiver asks for no more; delivery is switched off on the instance itself. An
   * outage is waited out (the receiver will not say it again), until the notifier stops.
   */
  private async disableForReceiver(instanceId: string, command: DisableWebhookForReceiver): Promise<void> {
    await handleCommand(
      this.store,
      instanceStreamName(instanceId),
      instanceStream,
      (state) => {
        if (this.stopping) throw new Stopping();
        return instanceDecider.decide(command, state);
      },
      {
        conflictRetries: this.settings.conflictRetries,
        onUnavailable: async (error, attempt) => {
          if (this.stopping) throw new Stopping();
          this.logger.warn('store unavailable while switching delivery off after a 410; retrying', { instanceId, error });
          await sleep(Math.min(5000, 100 * 2 ** Math.min(attempt, 6)));
        },
      },
    );
  }
}
