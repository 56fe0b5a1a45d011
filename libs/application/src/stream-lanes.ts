import type { AppendResult, EventStore } from '@gw/event-store';

/** A stream's state as the appends this process has submitted will leave it. */
export interface Predicted<State> {
  state: State;
  revision: bigint;
}

/**
 * The commands of one stream in this process, one after the other. A command waits for its turn,
 * decides on the state its predecessor's append will leave (`predicted`, while that append is in
 * flight) or on the stream as loaded, submits its append, and hands the turn on at once: its
 * successor decides while the append is being committed, and with a group-committing store both
 * appends go into one transaction. Commands on one stream in one process therefore never meet at
 * the store (no conflict, no random backoff); only another process's write can still conflict.
 */
export class StreamLane {
  private tail: Promise<void> = Promise.resolve();
  private prediction?: { predicted: Predicted<unknown>; append: Promise<AppendResult> };
  private waiting = 0;

  /** Waits for this command's turn; the returned function hands the turn on (call it once). */
  async turn(): Promise<() => void> {
    this.waiting += 1;
    const before = this.tail;
    let pass!: () => void;
    this.tail = new Promise<void>((resolve) => (pass = resolve));
    await before;
    this.waiting -= 1;
    return pass;
  }

  /** The state the appends in flight will leave, if any is in flight. */
  predicted<State>(): Predicted<State> | undefined {
    return this.prediction?.predicted as Predicted<State> | undefined;
  }

  /** An append was submitted that will leave the stream at `predicted` if it succeeds. */
  submitted<State>(predicted: Predicted<State>, append: Promise<AppendResult>): void {
    const prediction = { predicted, append };
    this.prediction = prediction;
    // Settled: the store is the truth again (or the next prediction is).
    const settle = () => {
      if (this.prediction === prediction) this.prediction = undefined;
    };
    append.then(settle, settle);
  }

  /** Whether the lane holds nothing: no command waits and no prediction is pending. */
  get idle(): boolean {
    return this.waiting === 0 && this.prediction === undefined;
  }
}

const lanes = new WeakMap<EventStore, Map<string, StreamLane>>();

/**
 * Runs `command` in its stream's lane: `command` gets the lane and must call the turn's release
 * once it has submitted its append (or decided nothing); the lane is dropped when idle.
 */
export async function inLane<T>(
  store: EventStore,
  streamName: string,
  command: (lane: StreamLane, release: () => void) => Promise<T>,
): Promise<T> {
  let byStream = lanes.get(store);
  if (!byStream) lanes.set(store, (byStream = new Map()));
  let lane = byStream.get(streamName);
  if (!lane) byStream.set(streamName, (lane = new StreamLane()));
  const pass = await lane.turn();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    pass();
  };
  try {
    return await command(lane, release);
  } finally {
    release();
    const current = lane;
    // Dropped once nothing waits and nothing is in flight, so that the map does not grow with
    // every stream ever written.
    void Promise.resolve().then(() => {
      if (current.idle && byStream!.get(streamName) === current) byStream!.delete(streamName);
    });
  }
}
