import { Inject, Injectable } from '@nestjs/common';
import { handleCommand, StreamStateCache, type CommandOutcome, type Decide, type HandleOptions, type StreamModel } from '@gw/application';
import type { StoreConfig } from '@gw/config';
import { InjectConfig } from '@gw/nest-app';
import type { DomainEvent } from '@gw/domain-core';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { ReadModelLagError } from '@gw/projections';
import { ReadModelsService } from '../read-models/read-models.service';
import { EVENT_STORE, LOGGER } from './tokens';

/** The API's way to run a command: `handleCommand` with the configured conflict retries and this
 * process's state cache, then a bounded wait until its events are visible in the read models before
 * the caller answers (docs/api.md 4.7). */
@Injectable()
export class CommandRunner {
  /** States of the streams this process wrote last: a command on one of them reads one event. */
  private readonly states = new StreamStateCache<unknown>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @InjectConfig('store') private readonly config: StoreConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly readModels: ReadModelsService,
  ) {}

  async run<Event extends DomainEvent, State>(
    model: StreamModel<Event, State>,
    streamName: string,
    decide: Decide<Event, State>,
    /** For a command whose events do not depend on the stream's state (recording a test attempt). */
    overrides: Pick<HandleOptions<State>, 'appendOnly' | 'conflictRetries'> = {},
  ): Promise<CommandOutcome<State, Event>> {
    const options: HandleOptions<State> = { conflictRetries: this.config.conflictRetries, cache: this.states as StreamStateCache<State>, ...overrides };
    const outcome = await handleCommand(this.store, streamName, model, decide, options);
    if (outcome.written) await this.waitUntilVisible(outcome.written.position);
    return outcome;
  }

  private async waitUntilVisible(position: bigint): Promise<void> {
    try {
      await this.readModels.waitForWrite(position);
    } catch (error) {
      // The write is durable; a later read waits for the read models itself, so it stays consistent.
      if (!(error instanceof ReadModelLagError)) throw error;
      this.logger.warn('read models lag behind an answered write', { position, error });
    }
  }
}
