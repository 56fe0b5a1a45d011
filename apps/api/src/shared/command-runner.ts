import { Inject, Injectable } from '@nestjs/common';
import { handleCommand, StreamStateCache, type CommandOutcome } from '@gw/application';
import type { AppConfig } from '@gw/config';
import type { Decider, DomainEvent } from '@gw/domain-core';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { ReadModelLagError } from '@gw/projections';
import { ReadModelsService } from '../read-models/read-models.service';
import { APP_CONFIG, EVENT_STORE, LOGGER } from './tokens';

/** Runs a command with the configured conflict retries, then waits (bounded) until its events are
 * visible in the read models before the caller answers (CONTRACT 4.7). */
@Injectable()
export class CommandRunner {
  /** States of the streams this process wrote last: a command on one of them reads one event. */
  private readonly states = new StreamStateCache();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly readModels: ReadModelsService,
  ) {}

  async run<Command, Event extends DomainEvent, State>(
    streamName: string,
    decider: Decider<Command, Event, State>,
    buildCommand: (state: State) => Command | Promise<Command>,
  ): Promise<CommandOutcome<State, Event>> {
    const outcome = await handleCommand(this.store, streamName, decider, buildCommand, this.config.conflictRetries, this.states);
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
