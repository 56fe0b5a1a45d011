import type { Decider, DomainEvent } from '@gw/domain-core';
import type { EventStore } from '@gw/event-store';
import { handleCommand, type CommandOutcome, type HandleOptions, type StreamModel } from './command-handler';

/**
 * What one command remembers across the decisions it makes: `handle` decides again after a
 * concurrent change, and some work must happen once per command however often it decides.
 */
export interface CommandScope {
  /** `make()` the first time this command asks for `key`, the same value every later time: a rate
   * budget spent, a host name resolved, a secret drawn happen once, and a decision made again after
   * a conflict uses the same value. */
  once<T>(key: string, make: () => T): T;
}

/**
 * The command to decide, or how to make it from the state just loaded. A builder is where checks
 * against that state (authentication) and the work they gate (a DNS lookup) happen, before the
 * decider is asked; it may throw to refuse, and runs again after a conflict, with the same scope.
 */
export type CommandInput<Command, State> =
  Command | ((state: State, scope: CommandScope) => Command | Promise<Command>);

export interface AggregateOptions<Event, State> extends HandleOptions<State> {
  /** Runs once the decider has accepted the command with events, before they are appended: work
   * that only an accepted command may do, and that must be done before its record exists. */
  beforeAppend?(events: readonly Event[], state: State): Promise<void>;
}

/**
 * One kind of aggregate, bound once (emmett's handleCommandWithDecider): its decider, the stream an
 * id names, and the model its stream folds with. A call site passes only the id and the command.
 */
export interface Aggregate<Command, Event extends DomainEvent, State> {
  readonly decider: Decider<Command, Event, State>;
  streamName(id: string): string;
  /** For reads (`readState`) and for callers of `handleCommand` that decide events themselves. */
  readonly model: StreamModel<Event, State>;
  /** Load, decide with the bound decider, append (handleCommand), on the stream `id` names. */
  handle(
    store: EventStore,
    id: string,
    input: CommandInput<Command, State>,
    options?: AggregateOptions<Event, State>,
  ): Promise<CommandOutcome<State, Event>>;
}

/** Binds a decider to its stream: `isEvent` says which stored events are its own, `eventId` how its
 * events are identified when appended (random when absent). */
export function aggregate<Command, Event extends DomainEvent, State>(spec: {
  decider: Decider<Command, Event, State>;
  streamName: (id: string) => string;
  isEvent: StreamModel<Event, State>['isEvent'];
  eventId?: (event: Event) => string;
}): Aggregate<Command, Event, State> {
  const { decider, streamName, isEvent, eventId } = spec;
  const model: StreamModel<Event, State> = {
    evolve: decider.evolve,
    initialState: decider.initialState,
    isEvent,
    ...(eventId ? { eventId } : {}),
  };
  return {
    decider,
    streamName,
    model,
    handle(store, id, input, options = {}) {
      const { beforeAppend, ...handleOptions } = options;
      // One scope per command, shared by every decision it makes.
      const scope = commandScope();
      return handleCommand(
        store,
        streamName(id),
        model,
        async (state) => {
          const command =
            typeof input === 'function'
              ? await (input as (s: State, c: CommandScope) => Command | Promise<Command>)(state, scope)
              : input;
          const events = decider.decide(command, state);
          if (beforeAppend && events.length > 0) await beforeAppend(events, state);
          return events;
        },
        handleOptions,
      );
    },
  };
}

/** A fresh scope, for one command: `handle` makes one per call. */
export function commandScope(): CommandScope {
  const made = new Map<string, unknown>();
  return {
    once<T>(key: string, make: () => T): T {
      if (made.has(key)) return made.get(key) as T;
      const value = make();
      made.set(key, value);
      return value;
    },
  };
}
