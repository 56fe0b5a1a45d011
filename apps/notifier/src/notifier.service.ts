import { Inject, Injectable } from '@nestjs/common';
import { PersonalData, SecretBox } from '@gw/application';
import type { NotifierConfig, StoreConfig, WebhooksConfig } from '@gw/config';
import { InjectConfig } from '@gw/nest-app';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { WebhookSender } from '@gw/webhook-delivery';
import { Dispatcher } from './engine/dispatcher';
import { Follower } from './engine/follower';
import { NotificationBatcher } from './engine/notification-batcher';
import { NoticeClock } from './engine/notice-clock';
import { NotificationWriter } from './engine/notification-writer';
import { NotifierModel } from './engine/notifier-model';
import { RetentionSweeper } from './engine/retention-sweeper';
import { NotifierMetrics } from './metrics/metrics';
import { EVENT_STORE, LOGGER } from './tokens';

/** How often the notifier erases personal data past MESSAGE_RETENTION_DAYS (besides at start). */
const RETENTION_SWEEP_INTERVAL_MS = 3_600_000;

/** The notifier: follows the log, creates notifications, delivers them, records every outcome. */
@Injectable()
export class NotifierService {
  private readonly controller = new AbortController();
  private readonly model: NotifierModel;
  private readonly follower: Follower;
  private readonly dispatcher: Dispatcher;
  private readonly clock: NoticeClock;
  private readonly retention: RetentionSweeper;
  private running?: Promise<void>;

  constructor(
    @InjectConfig('notifier') notifier: NotifierConfig,
    @InjectConfig('webhooks') webhooks: WebhooksConfig,
    @InjectConfig('store') storeConfig: StoreConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: NotifierMetrics,
    sender: WebhookSender,
    secrets: SecretBox,
    personalData: PersonalData,
  ) {
    this.model = new NotifierModel(notifier.partitions, notifier.partition);
    const writer = new NotificationWriter(store, this.model, logger, this.controller.signal);
    const batcher = new NotificationBatcher(writer, metrics, logger, {
      batchMax: notifier.batchMax,
      batchBytes: notifier.batchBytes,
      sending: (instanceId) => this.dispatcher.isSending(instanceId) || this.model.hasFreshNotification(instanceId),
      onCreated: () => this.dispatcher.wake(),
    });
    this.dispatcher = new Dispatcher(this.model, writer, sender, secrets, personalData, store, {
      concurrency: notifier.concurrency,
      accountConcurrency: notifier.accountConcurrency,
      endpointConcurrency: notifier.endpointConcurrency,
      retryScheduleSeconds: webhooks.retryScheduleSeconds,
      conflictRetries: storeConfig.conflictRetries,
      onAttemptEnded: (instanceId) => batcher.release(instanceId),
    }, metrics, logger);
    this.clock = new NoticeClock(this.model, writer, metrics, logger, {
      expiryNoticeHours: notifier.expiryNoticeHours,
      tickMs: 1000,
      onCreated: () => this.dispatcher.wake(),
    });
    this.retention = new RetentionSweeper(store, logger, {
      retentionDays: notifier.messageRetentionDays,
      partitions: notifier.partitions,
      partition: notifier.partition,
      intervalMs: RETENTION_SWEEP_INTERVAL_MS,
    });
    this.follower = new Follower(store, this.model, writer, batcher, metrics, logger, {
      partition: notifier.partition,
      partitions: notifier.partitions,
      checkpointIntervalMs: notifier.checkpointIntervalMs,
      snapshotEvery: notifier.snapshotEvery,
      onChange: (instanceId) => {
        this.clock.update(instanceId);
        this.dispatcher.wake();
      },
    });
  }

  /** Starts following the log; resolves once caught up, when delivery starts. */
  async start(): Promise<void> {
    this.running = this.follower.run(this.controller.signal).catch((error: unknown) => {
      this.logger.error('the notifier stopped following the log', { error });
      throw error;
    });
    await this.follower.ready;
    this.dispatcher.start();
    this.clock.start();
    this.retention.start();
  }

  async metricsText(ready: boolean): Promise<string> {
    const head = await this.store.headPosition().catch(() => this.follower.position);
    return this.metrics.render({
      pending: this.model.pendingCount(),
      inFlight: this.dispatcher.requestsInFlight,
      lagEvents: head > this.follower.position ? head - this.follower.position : 0n,
      ready,
      replayedAtStart: this.follower.replayedAtStart,
    });
  }

  /** Lets requests in flight finish (bounded), records where it got to, and stops. */
  async stop(graceMs: number): Promise<void> {
    this.clock.stop();
    await this.retention.stop();
    await this.dispatcher.stop(graceMs);
    await this.follower.checkpoint();
    this.controller.abort();
    await this.running?.catch(() => undefined);
  }
}
