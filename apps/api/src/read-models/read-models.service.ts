import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { StoreConfig } from '@gw/config';
import { InjectConfig } from '@gw/nest-app';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { PROJECTED_STREAM_PREFIXES, ProjectionRunner, SqliteReadModels, type ReadModels } from '@gw/projections';
import { EVENT_STORE, LOGGER } from '../shared/tokens';

/**
 * How often, at most, the read models look for new events while nothing waits for them. Every
 * query and every command's answer waits for the models to reach its position and makes them look
 * at once, so the pace only sets how the rest (the notifier's outcomes, the ingest host's messages)
 * is grouped into transactions. Looking after each of the API's own group commits and every 2 ms for
 * the notifier's events had cost the API about 6 % more CPU per message at 2,000 messages/s than
 * every 10 ms, and 10 ms 2 to 7 % more than 50 ms (bench/README, "Kept: the read models look at
 * most every 10 ms" and "Kept: the API's read models look at most every 50 ms").
 */
const READ_MODEL_PACE_MS = 50;

/** The API's read models and the subscription that keeps them up to date. */
@Injectable()
export class ReadModelsService implements OnApplicationShutdown {
  private readonly models: SqliteReadModels;
  private readonly runner: ProjectionRunner;

  constructor(
    @InjectConfig('store') private readonly config: StoreConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.models = new SqliteReadModels(config.readModelFile);
    this.runner = new ProjectionRunner(store, this.models, logger.child({ component: 'read-models' }), {
      streamNamePrefixes: PROJECTED_STREAM_PREFIXES,
      livePaceMs: READ_MODEL_PACE_MS,
    });
  }

  /** Starts following the log and resolves once the models have caught up with it. */
  async start(): Promise<void> {
    this.runner.start();
    await this.runner.ready;
  }

  /** Waits (bounded) until a write at `position` is visible, so that the answer to the write
   * and every read after it agree (docs/api.md 4.7). */
  async waitForWrite(position: bigint): Promise<void> {
    await this.runner.waitFor(position, this.config.readModelWaitMs);
  }

  /** The models as they are, without waiting: for a command's answer, which the command runner
   * gave only once its write was visible (waitForWrite). */
  asWritten(): ReadModels {
    return this.models;
  }

  /** The models, once they reflect everything in the log at the time of the call. A query on any
   * replica therefore sees every write answered before it started. */
  async current(): Promise<ReadModels> {
    await this.runner.catchUpToHead(this.config.readModelWaitMs);
    return this.models;
  }

  /**
   * How far the models are behind the log, for /metrics (read at each scrape, never per request).
   * `events`: the log's head position minus the position the models reflect. On the embedded store
   * each event takes one position, so this counts events; on EventStoreDB positions are commit
   * positions (bytes of `$all`), so only 0 (caught up) reads the same. `seconds`: the age of the
   * oldest event past that position (0 when there is none). Both count every process's writes
   * (the notifier's too), and events of streams the models do not read until the subscription
   * has looked past them.
   */
  async lag(): Promise<{ events: number; seconds: number }> {
    const projected = this.runner.position;
    const head = await this.store.headPosition();
    if (head <= projected) return { events: 0, seconds: 0 };
    const [oldest] = await this.store.readAll({ after: projected, maxCount: 1 });
    const seconds = oldest ? Math.max(0, (Date.now() - Date.parse(oldest.recordedAt)) / 1000) : 0;
    return { events: Number(head - projected), seconds };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
    await this.models.close();
  }
}
