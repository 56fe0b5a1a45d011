import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@gw/config';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { PROJECTED_STREAM_PREFIXES, ProjectionRunner, SqliteReadModels } from '@gw/projections';
import { APP_CONFIG, EVENT_STORE, LOGGER } from '../shared/tokens';

/** The API's read models and the subscription that keeps them up to date. */
@Injectable()
export class ReadModelsService implements OnApplicationShutdown {
  private readonly models: SqliteReadModels;
  private readonly runner: ProjectionRunner;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.models = new SqliteReadModels(config.readModelFile);
    this.runner = new ProjectionRunner(store, this.models, logger.child({ component: 'read-models' }), {
      streamNamePrefixes: PROJECTED_STREAM_PREFIXES,
    });
  }

  /** Starts following the log and resolves once the models have caught up with it. */
  async start(): Promise<void> {
    this.runner.start();
    await this.runner.ready;
  }

  /** Waits (bounded) until a write at `position` is visible, so that the answer to the write
   * and every read after it agree (CONTRACT 4.7). */
  async waitForWrite(position: bigint): Promise<void> {
    await this.runner.waitFor(position, this.config.readModelWaitMs);
  }

  /** The models, once they reflect everything in the log at the time of the call. A query on any
   * replica therefore sees every write answered before it started. */
  async current(): Promise<SqliteReadModels> {
    await this.runner.catchUpToHead(this.config.readModelWaitMs);
    return this.models;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
    await this.models.close();
  }
}
