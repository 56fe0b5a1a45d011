import { Inject, Injectable } from '@nestjs/common';
import { PersonalData, SecretBox } from '@gw/application';
import type { NotifierConfig, StoreConfig, WebhooksConfig } from '@gw/config';
import { InjectConfig } from '@gw/nest-app';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { WebhookSender } from '@gw/webhook-delivery';
import { CheckpointRecorder } from './engine/checkpoints';
import { systemClock } from './engine/clock';
import { FairScheduler } from './engine/fair-scheduler';
import { LogFollower } from './engine/log-follower';
import { NoticeSchedule } from './engine/notice-schedule';
import { NotificationBatcher } from './engine/notification-batcher';
import { NotificationSender } from './engine/notification-sender';
import { NotificationWriter } from './engine/notification-writer';
import { NotifierModel } from './engine/notifier-model';
import { FOLLOWED_STREAM_PREFIXES } from './engine/followed-streams';
import { NotifierProcessor } from './engine/notifier-processor';
import { RetentionSweeper } from './engine/retention-sweeper';
import { Snapshotter } from './engine/snapshotter';
import { NotifierMetrics } from './metrics/metrics';
import { EVENT_STORE, LOGGER } from './tokens';

/** How often the notifier erases personal data past MESSAGE_RETENTION_DAYS (besides at start). */
const RETENTION_SWEEP_INTERVAL_MS = 3_600_000;

/** How often the notifier looks for instance notices due: within 5 s of their moment (docs/api.md 8.9). */
const NOTICE_CHECK_MS = 1000;

/** The notifier: follows the log, creates notifications, delivers them, records every outcome. */
@Injectable()
export class NotifierService {
  private readonly controller = new AbortController();
  private readonly model: NotifierModel;
  private readonly processor: NotifierProcessor;
  private readonly follower: LogFollower;
  private readonly retention: RetentionSweeper;
  private running?: Promise<void>;

  constructor(
    @InjectConfig('notifier') notifier: NotifierConfig,
    @InjectConfig('webhooks') webhooks: WebhooksConfig,
    @InjectConfig('store') storeConfig: StoreConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: NotifierMetrics,
    private readonly webhookSender: WebhookSender,
    secrets: SecretBox,
    personalData: PersonalData,
  ) {
    const clock = systemClock;
    const signal = this.controller.signal;
    const { partition, partitions } = notifier;
    const model = (this.model = new NotifierModel(partitions, partition));
    const writer = new NotificationWriter(store, model, logger, signal);
    this.processor = new NotifierProcessor(
      {
        store,
        model,
        writer,
        batcher: new NotificationBatcher(writer, metrics, clock, {
          batchMax: notifier.batchMax,
          batchBytes: notifier.batchBytes,
        }),
        scheduler: new FairScheduler({
          total: notifier.concurrency,
          perAccount: notifier.accountConcurrency,
          perEndpoint: notifier.endpointConcurrency,
        }),
        sender: new NotificationSender(webhookSender, secrets, personalData, store, logger, () => signal.aborted),
        notices: new NoticeSchedule(model, notifier.expiryNoticeHours),
        metrics,
        logger,
        clock,
      },
      {
        retryScheduleSeconds: webhooks.retryScheduleSeconds,
        conflictRetries: storeConfig.conflictRetries,
        expiryNoticeHours: notifier.expiryNoticeHours,
        disableAfterHours: notifier.disableAfterHours,
        noticeCheckMs: NOTICE_CHECK_MS,
        random: Math.random,
      },
    );
    this.follower = new LogFollower(
      store,
      this.processor,
      new CheckpointRecorder(store, partition, partitions, clock),
      new Snapshotter(store, model, metrics, logger, { partition, partitions, every: notifier.snapshotEvery }),
      logger,
      { streamNamePrefixes: FOLLOWED_STREAM_PREFIXES, checkpointIntervalMs: notifier.checkpointIntervalMs },
    );
    this.retention = new RetentionSweeper(store, logger, {
      retentionDays: notifier.messageRetentionDays,
      partitions,
      partition,
      intervalMs: RETENTION_SWEEP_INTERVAL_MS,
    });
  }

  /** Starts following the log; resolves once caught up, when delivery starts. */
  async start(): Promise<void> {
    this.running = this.follower.run(this.controller.signal).catch((error: unknown) => {
      this.logger.error('the notifier stopped following the log', { error });
      throw error;
    });
    // The HTTP client is loaded while the log is replayed, not on the first delivery's path.
    await Promise.all([this.follower.ready, this.webhookSender.load()]);
    this.processor.start();
    this.retention.start();
  }

  async metricsText(ready: boolean): Promise<string> {
    const head = await this.store.headPosition().catch(() => this.follower.position);
    return this.metrics.render({
      pending: this.model.pendingCount(),
      inFlight: this.processor.requestsInFlight,
      lagEvents: head > this.follower.position ? head - this.follower.position : 0n,
      ready,
      replayedAtStart: this.follower.replayedAtStart,
    });
  }

  /** Lets requests in flight finish (bounded), records where it got to, and stops. */
  async stop(graceMs: number): Promise<void> {
    await this.retention.stop();
    await this.processor.stop(graceMs);
    await this.follower.checkpoint();
    this.controller.abort();
    await this.running?.catch(() => undefined);
  }
}
