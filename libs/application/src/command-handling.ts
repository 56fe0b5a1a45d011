import { setTimeout as sleep } from 'node:timers/promises';
import { fold, type Decider, type DomainEvent } from '@gw/domain-core';
import { WrongExpectedRevisionError, type AppendResult, type EventStore } from '@gw/event-store';
import { newEventId } from './ids';

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

/** A stream's state as of a revision (-1n: the stream does not exist). */
export interface LoadedState<State> {
  state: State;
  revision: bigint;
}

/**
 * States of recently written streams, so that a command on a stream that nobody else changed since
 * reads its last event only, not its whole history. Bounded; least recently used dropped first.
 * Decider states are immutable values, so sharing them is safe.
 */
export class StreamStateCache {
  private readonly states = new Map<string, LoadedState<unknown>>();

  constructor(private readonly maxStreams = 10_000) {}

  get<State>(streamName: string): LoadedState<State> | undefined {
    const found = this.states.get(streamName);
    if (!found) return undefined;
    this.states.delete(streamName);
    this.states.set(streamName, found);
    return found as LoadedState<State>;
  }

  set<State>(streamName: string, loaded: LoadedState<State>): void {
    this.states.delete(streamName);
    this.states.set(streamName, loaded);
    if (this.states.size > this.maxStreams) this.states.delete(this.states.keys().next().value as string);
  }
}

/** Reads a stream and folds it, or takes the cached state when the stream's last event is still the
 * one it was folded up to. */
async function load<Event extends DomainEvent, State>(
  store: EventStore,
  streamName: string,
  decider: Decider<unknown, Event, State>,
  cache: StreamStateCache | undefined,
): Promise<LoadedState<State>> {
  const cached = cache?.get<State>(streamName);
  if (cached) {
    const last = await store.readLastEvent(streamName);
    if (last?.revision === cached.revision) return cached;
  }
  const history = await store.readStream(streamName);
  const state = fold(decider, history.map((e) => ({ type: e.type, data: e.data }) as Event));
  const loaded = { state, revision: history.length === 0 ? -1n : history[history.length - 1].revision };
  if (history.length > 0) cache?.set(streamName, loaded);
  return loaded;
}

/**
 * Load, decide, append: reads the stream, folds it, lets the domain decide, and appends at the
 * revision it read (`no_stream` for a new stream). A concurrent change is retried with a fresh read
 * up to `retries` times before ConflictRetriesExhausted. With a `cache`, a stream this process wrote
 * last is not read again in full.
 */
export async function handleCommand<Command, Event extends DomainEvent, State>(
  store: EventStore,
  streamName: string,
  decider: Decider<Command, Event, State>,
  /** Builds the command from the state just read; may refuse (authentication, checks needing I/O). */
  buildCommand: (state: State) => Command | Promise<Command>,
  retries: number,
  cache?: StreamStateCache,
): Promise<CommandOutcome<State, Event>> {
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await load(store, streamName, decider as Decider<unknown, Event, State>, cache);
    const events = decider.decide(await buildCommand(state), state);
    if (events.length === 0) return { state, events };
    try {
      const written = await store.append(
        streamName,
        events.map((e) => ({ id: newEventId(), type: e.type, data: e.data })),
        revision < 0n ? 'no_stream' : revision,
      );
      const after = events.reduce(decider.evolve, state);
      cache?.set(streamName, { state: after, revision: written.nextExpectedRevision });
      return { state: after, events, written };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt > retries) throw new ConflictRetriesExhausted(streamName, attempt);
      // Full jitter on an exponential bound spreads writers that collided on the same stream.
      await sleep(Math.random() * Math.min(200, 10 * 2 ** attempt));
    }
  }
}
