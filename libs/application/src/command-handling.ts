import { setTimeout as sleep } from 'node:timers/promises';
import { fold, type Decider, type DomainEvent } from '@gw/domain-core';
import { WrongExpectedRevisionError, type AppendResult, type EventStore } from '@gw/event-store';
import { newEventId } from './secrets';

/** A command kept meeting a concurrent change after every retry (the API answers 0012). */
export class ConflictRetriesExhausted extends Error {
  constructor(readonly streamName: string, readonly attempts: number) {
    super(`stream ${streamName} kept changing during ${attempts} attempts`);
    this.name = 'ConflictRetriesExhausted';
  }
}

export interface CommandOutcome<State, Event> {
  /** The state after the events were applied. */
  state: State;
  events: Event[];
  /** Where the events were written; absent when the domain decided nothing. */
  written?: AppendResult;
}

/**
 * Load, decide, append: reads the stream, folds it, lets the domain decide, and appends at the
 * revision it read (`no_stream` for a new stream). A concurrent change is retried with a fresh read
 * up to `retries` times before ConflictRetriesExhausted.
 */
export async function handleCommand<Command, Event extends DomainEvent, State>(
  store: EventStore,
  streamName: string,
  decider: Decider<Command, Event, State>,
  /** Builds the command from the state just read; may refuse (authentication, checks needing I/O). */
  buildCommand: (state: State) => Command | Promise<Command>,
  retries: number,
): Promise<CommandOutcome<State, Event>> {
  for (let attempt = 1; ; attempt++) {
    const history = await store.readStream(streamName);
    const state = fold(decider, history.map((e) => ({ type: e.type, data: e.data }) as Event));
    const events = decider.decide(await buildCommand(state), state);
    if (events.length === 0) return { state, events };
    const expected = history.length === 0 ? 'no_stream' : history[history.length - 1].revision;
    try {
      const written = await store.append(
        streamName,
        events.map((e) => ({ id: newEventId(), type: e.type, data: e.data })),
        expected,
      );
      return { state: events.reduce(decider.evolve, state), events, written };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt > retries) throw new ConflictRetriesExhausted(streamName, attempt);
      // Full jitter on an exponential bound spreads writers that collided on the same stream.
      await sleep(Math.random() * Math.min(200, 10 * 2 ** attempt));
    }
  }
}
