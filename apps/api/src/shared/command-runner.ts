import { Inject, Injectable } from '@nestjs/common';
import {
  accountAggregate,
  instanceAggregate,
  notificationsAggregate,
  StreamStateCache,
  type Aggregate,
  type AggregateOptions,
  type CommandInput,
  type CommandOutcome,
} from '@gw/application';
import type { StoreConfig } from '@gw/config';
import { InjectConfig } from '@gw/nest-app';
import type { DomainEvent } from '@gw/domain-core';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { ReadModelLagError } from '@gw/projections';
import { ReadModelsService } from '../read-models/read-models.service';
import { EVENT_STORE, LOGGER } from './tokens';

/** One aggregate on the API's store: a handler passes the id and the command, or how to make it. */
export interface AggregateCommands<Command, Event extends DomainEvent, State> {
  handle(
    id: string,
    input: CommandInput<Command, State>,
    /** For a command whose events do not depend on the stream's state (recording a test attempt). */
    overrides?: Pick<AggregateOptions<Event, State>, 'appendOnly' | 'conflictRetries'>,
  ): Promise<CommandOutcome<State, Event>>;
}

/**
 * The API's way to run a command: the aggregate's `handle` with the configured conflict retries and
 * this process's state cache, then a bounded wait until its events are visible in the read models
 * before the caller answers (docs/api.md 4.7). A handler reads `runner.instances.handle(id, …)`.
 */
@Injectable()
export class CommandRunner {
  readonly accounts = this.bind(accountAggregate);
  readonly instances = this.bind(instanceAggregate);
  readonly notifications = this.bind(notificationsAggregate);

  /** States of the streams this process wrote last: a command on one of them reads one event. */
  private readonly states = new StreamStateCache<unknown>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @InjectConfig('store') private readonly config: StoreConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly readModels: ReadModelsService,
  ) {}

  private bind<Command, Event extends DomainEvent, State>(
    aggregate: Aggregate<Command, Event, State>,
  ): AggregateCommands<Command, Event, State> {
    return {
      handle: async (id, input, overrides = {}) => {
        const cache = this.states as StreamStateCache<State>;
        const outcome = await aggregate.handle(this.store, id, input, {
          conflictRetries: this.config.conflictRetries,
          cache,
          ...overrides,
        });
        if (outcome.written) await this.waitUntilVisible(outcome.written.position);
        return outcome;
      },
    };
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
