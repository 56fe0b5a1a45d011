/** A decider: the three plain functions that make up an aggregate. */
export interface Decider<Command, Event, State> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}

/** Folds a history of events into a state. */
export function fold<Event, State>(
  decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}

/** The shape every domain event has: a past-tense type and a data payload. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/**
 * A workflow (a process manager): from an input and the state folded from the inputs before it, the
 * outputs it implies, which the I/O around it carries out. Pure, like a decider.
 */
export interface Workflow<Input, Output, State> {
  decide(input: Input, state: State): Output[];
  evolve(state: State, input: Input): State;
  initialState(): State;
}
