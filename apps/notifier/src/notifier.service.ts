import { Inject, Injectable } from '@nestjs/common';
import { SecretBox } from '@gw/application';
import type { AppConfig } from '@gw/config';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { WebhookSender } from './delivery/webhook-sender';
import { Dispatcher } from './engine/dispatcher';
import { Follower } from './engine/follower';
import { NotificationBatcher } from './engine/notification-batcher';
import { NotificationWriter } from './engine/notification-writer';
import { NotifierModel } from './engine/notifier-model';
import { NotifierMetrics } from './metrics/metrics';
import { APP_CONFIG, EVENT_STORE, LOGGER } from './tokens';

/** The notifier: follows the log, creates notifications, delivers them, records every outcome. */
@Injectable()
export class NotifierService {
  private readonly controller = new AbortController();
  private readonly model: NotifierModel;
  private readonly follower: Follower;
  private readonly dispatcher: Dispatcher;
  private running?: Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: NotifierMetrics,
    sender: WebhookSender,
    secrets: SecretBox,
  ) {
    this.model = new NotifierModel(config.notifierPartitions, config.notifierPartition);
    const writer = new NotificationWriter(store, this.model, logger, this.controller.signal);
    const batcher = new NotificationBatcher(writer, metrics, logger, {
      batchMax: config.notificationBatchMax,
      sending: (instanceId) => this.dispatcher.isSending(instanceId) || this.model.hasFreshNotification(instanceId),
      onCreated: () => this.dispatcher.wake(),
    });
    this.dispatcher = new Dispatcher(this.model, writer, sender, secrets, store, {
      concurrency: config.notifierConcurrency,
      retryScheduleSeconds: config.retryScheduleSeconds,
      conflictRetries: config.conflictRetries,
      onAttemptEnded: (instanceId) => batcher.release(instanceId),
    }, metrics, logger);
    this.follower = new Follower(store, this.model, writer, batcher, metrics, logger, {
      partition: config.notifierPartition,
      partitions: config.notifierPartitions,
      checkpointIntervalMs: config.notifierCheckpointIntervalMs,
      snapshotEvery: config.notifierSnapshotEvery,
      onChange: () => this.dispatcher.wake(),
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
    await this.dispatcher.stop(graceMs);
    await this.follower.checkpoint();
    this.controller.abort();
    await this.running?.catch(() => undefined);
  }
}
