import { RetentionSweep } from '@gw/application';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { partitionOf } from './notifier-model';

export interface RetentionSettings {
  /** MESSAGE_RETENTION_DAYS; 0 keeps forever (no sweep). */
  retentionDays: number;
  partitions: number;
  partition: number;
  /** Between sweeps; the first runs at start. */
  intervalMs: number;
  now?: () => Date;
}

/**
 * MESSAGE_RETENTION_DAYS (docs/api.md section 9): sweeps at start, then every `intervalMs`, erasing
 * the data keys of days past retention for the instances of this notifier's partition (so that two
 * workers never erase, and record, the same day). A failed sweep is logged and tried again next time.
 */
export class RetentionSweeper {
  private readonly sweep: RetentionSweep;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    store: EventStore,
    private readonly logger: Logger,
    private readonly settings: RetentionSettings,
  ) {
    this.sweep = new RetentionSweep(store, {
      retentionDays: settings.retentionDays,
      now: settings.now,
      owns: (instanceId) => partitionOf(instanceId, settings.partitions) === settings.partition,
    });
  }

  start(): void {
    if (this.settings.retentionDays === 0) return;
    this.run();
    this.timer = setInterval(() => this.run(), this.settings.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private run(): void {
    if (this.running) return;
    this.running = this.sweep
      .sweep()
      .then((erased) => {
        for (const { instanceId, days } of erased)
          this.logger.info('personal data past retention erased', { instanceId, days });
      })
      .catch((error: unknown) => this.logger.warn('retention sweep failed; trying again at the next one', { error }))
      .finally(() => (this.running = undefined));
  }
}
