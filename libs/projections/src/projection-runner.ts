import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore, RecordedEvent } from '@gw/event-store';
import type { Logger } from '@gw/logging';

/** Where a runner applies events: a read model with its checkpoint. */
export interface ProjectionTarget {
  checkpoint(): bigint;
  /** Applies events in log order, up to `checkpoint`. While catching up, the target may keep some of
   * the work in memory and its checkpoint behind: the runner counts as reached what checkpoint() says. */
  apply(events: readonly RecordedEvent[], checkpoint: bigint): void;
  /** The event types the target reads, if not all; the store skips (and does not decode) the others. */
  readonly eventTypes?: readonly string[];
  /** Of those, the types whose data the target does not read; the store returns them without it. */
  readonly typesWithoutData?: readonly string[];
  /** Told when a catch-up starts (true) and when it has reached the head (false), before `ready`. */
  catchingUp?(active: boolean): void;
}

/** The read models did not reach a position in time; the answer would be stale. */
export class ReadModelLagError extends Error {
  constructor(
    readonly position: bigint,
    readonly reached: bigint,
  ) {
    super(`read models at ${reached}, needed ${position}`);
    this.name = 'ReadModelLagError';
  }
}

/** Live, positions a checkpoint may stay behind by in the target when no event of its moved it. */
const CHECKPOINT_ONLY_EVERY = 10_000n;

/** Live events waiting for their deferred commit, and why a commit failed. */
interface LiveBatch {
  events: RecordedEvent[];
  failure: unknown;
  scheduled: boolean;
}

interface Waiter {
  position: bigint;
  resolve(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export interface ProjectionRunnerOptions {
  /** Streams the target is built from. */
  streamNamePrefixes: readonly string[];
  /** Events applied per transaction while catching up; once live, the events of one turn of the
   * event loop commit together. */
  batchSize?: number;
  /** Pause before resubscribing after the store failed. */
  retryDelayMs?: number;
  /** Live, look for new events at most every this many milliseconds, unless a waiter (waitFor,
   * catchUpToHead) asks for them: fewer, larger read-model transactions (SubscribeOptions.paceMs). */
  livePaceMs?: number;
}

/**
 * Keeps a projection target up to date from the log: catches up in batches from the target's
 * checkpoint, then applies live events one by one, resubscribing by itself after a store outage.
 */
export class ProjectionRunner {
  private reached = 0n;
  private waiters: Waiter[] = [];
  private readonly controller = new AbortController();
  private running?: Promise<void>;
  private markReady!: () => void;
  /** Resolves once the target has caught up with the log for the first time. */
  readonly ready = new Promise<void>((resolve) => (this.markReady = resolve));

  constructor(
    private readonly store: EventStore,
    private readonly target: ProjectionTarget,
    private readonly logger: Logger,
    private readonly options: ProjectionRunnerOptions,
  ) {}

  start(): void {
    this.running ??= this.run();
  }

  /** Position up to which the target reflects the log. */
  get position(): bigint {
    return this.reached;
  }

  /** Resolves once the target reflects the log up to `position`; rejects with ReadModelLagError after
   * `timeoutMs`. */
  waitFor(position: bigint, timeoutMs: number): Promise<void> {
    if (this.reached >= position) return Promise.resolve();
    this.store.nudge?.();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        position,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(new ReadModelLagError(position, this.reached));
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** Waits until the target reflects everything in the log right now. */
  async catchUpToHead(timeoutMs: number): Promise<void> {
    await this.waitFor(await this.store.headPosition(), timeoutMs);
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.running;
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new ReadModelLagError(waiter.position, this.reached));
    }
    this.waiters = [];
  }

  private async run(): Promise<void> {
    const { signal } = this.controller;
    // Batches of 10,000 events while catching up. Every commit writes each page its transaction
    // touched, so larger ones write less, and they did rebuild faster while usage and endpoint health
    // (a row per instance) were written with every batch. Since a catch-up stores those only every
    // CATCH_UP_FLUSH_EVENTS, 10,000 rebuild as fast as 25,000 (bench e: 4.57 against 4.67 s) and
    // hold less in memory until they commit: the API's peak RSS in bench f went from about 380 to
    // 290 MiB, and after the start from about 290 to 280 (50,000 had taken it to 450 and 330).
    const batchSize = this.options.batchSize ?? 10_000;
    const filter = {
      streamNamePrefixes: this.options.streamNamePrefixes,
      eventTypes: this.target.eventTypes,
      typesWithoutData: this.target.typesWithoutData,
    };
    while (!signal.aborted) {
      // Ends this subscription (not the runner) when a deferred commit fails.
      const attempt = new AbortController();
      const stopAttempt = () => attempt.abort();
      signal.addEventListener('abort', stopAttempt, { once: true });
      const live: LiveBatch = { events: [], failure: undefined, scheduled: false };
      try {
        this.advance(this.target.checkpoint());
        this.target.catchingUp?.(true);
        let caughtUp = false;
        let batch: RecordedEvent[] = [];
        const subscription = this.store.subscribeToAll({
          after: this.target.checkpoint(),
          filter,
          signal: attempt.signal,
          paceMs: this.options.livePaceMs,
        });
        for await (const message of subscription) {
          if (message.kind === 'event') {
            if (caughtUp) this.deferCommit(live, message.event, attempt);
            else batch.push(message.event);
            if (batch.length >= batchSize) {
              this.commit(batch, message.event.position);
              batch = [];
            }
            continue;
          }
          if (caughtUp) this.settleLive(live, message.position);
          else {
            this.commit(batch, message.position);
            batch = [];
          }
          if (message.kind === 'caughtUp' && !caughtUp) {
            // A failure here (a full disk) renews the subscription, which catches up again.
            this.target.catchingUp?.(false);
            this.advance(this.target.checkpoint());
            caughtUp = true;
            this.markReady();
          }
        }
        if (live.failure) throw live.failure;
      } catch (error) {
        if (signal.aborted) break;
        this.logger.warn('read-model subscription failed; resubscribing', { error });
      } finally {
        signal.removeEventListener('abort', stopAttempt);
        attempt.abort();
      }
      // A subscription that ended, with or without an error, is renewed after a pause, never in a spin.
      if (!signal.aborted) await sleep(this.options.retryDelayMs ?? 500, undefined, { signal }).catch(() => undefined);
    }
  }

  /**
   * Once live, events are committed on the next turn of the event loop rather than one by one, so
   * that the events of a group commit (many writers waiting) share one read-model transaction.
   */
  private deferCommit(live: LiveBatch, event: RecordedEvent, attempt: AbortController): void {
    live.events.push(event);
    if (live.scheduled) return;
    live.scheduled = true;
    setImmediate(() => {
      live.scheduled = false;
      if (attempt.signal.aborted) return;
      try {
        this.commitLive(live);
      } catch (error) {
        // The subscription is ended and renewed from the target's checkpoint, which this batch did
        // not move: nothing is skipped.
        live.failure = error;
        attempt.abort();
      }
    });
  }

  /**
   * Live, a scan reached `position`, past every event it returned: those commit together with that
   * checkpoint, in one transaction. A scan that returned none (the log moved on with events of other
   * streams or types: the notifier's, most of the time) moves the position in memory only, and to
   * the target every CHECKPOINT_ONLY_EVERY positions: a transaction per scan just for the checkpoint
   * had been more than half of the API's read-model transactions in bench i. A restart scans again
   * what the target's checkpoint is behind by, which the filter skips.
   */
  private settleLive(live: LiveBatch, position: bigint): void {
    if (live.events.length > 0) {
      const events = live.events;
      live.events = [];
      this.commit(events, position);
    } else if (position - this.target.checkpoint() >= CHECKPOINT_ONLY_EVERY) this.commit([], position);
    this.advance(position);
  }

  private commitLive(live: LiveBatch): void {
    if (live.events.length === 0) return;
    const events = live.events;
    live.events = [];
    this.commit(events, events[events.length - 1].position);
  }

  private commit(events: readonly RecordedEvent[], checkpoint: bigint): void {
    this.target.apply(events, checkpoint);
    this.advance(this.target.checkpoint());
  }

  private advance(position: bigint): void {
    if (position > this.reached) this.reached = position;
    if (this.waiters.length === 0) return;
    const due = this.waiters.filter((w) => w.position <= this.reached);
    this.waiters = this.waiters.filter((w) => w.position > this.reached);
    for (const waiter of due) {
      clearTimeout(waiter.timer);
      waiter.resolve();
    }
  }
}
