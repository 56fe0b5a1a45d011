import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore, RecordedEvent } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import type { CheckpointRecorder } from './checkpoints';
import type { Snapshotter } from './snapshotter';

/** What follows the log: the notifier processor. */
export interface LogConsumer {
  /** The replay starts: traffic after `checkpoint` may still need its notification. */
  beginReplay(checkpoint: bigint): void;
  /** One event of the log, in log order; the next one comes once this has settled. */
  apply(event: RecordedEvent): Promise<void>;
  /** The log was read up to its head for the first time: the replay is over. */
  caughtUp(): Promise<void>;
  /** The earliest position of traffic that has no notification yet, if any: checkpoints stay before it. */
  waitingFrom(): bigint | undefined;
}

export interface LogFollowerOptions {
  /** The streams the consumer reads, by name prefix. */
  streamNamePrefixes: string[];
  /** NOTIFIER_CHECKPOINT_INTERVAL_MS. */
  checkpointIntervalMs: number;
}

/**
 * Progress through events the filter skipped only (other partitions' traffic, the checkpoints
 * themselves) is recorded once it spans this many positions. Each checkpoint moves the log's head:
 * recording every such step made a quiet notifier write one checkpoint per interval for ever. A
 * restart scans the span again, which the filter skips cheaply.
 */
const SKIPPED_PROGRESS_EVERY = 10_000n;

/**
 * The subscription to the log, with its checkpoints. At start it reads the partition's checkpoint,
 * has the snapshotter load the snapshot it names, and subscribes after whichever is later (the
 * whole log when there is neither); the consumer gets every event once, in order, and is told when
 * the replay is over. Every NOTIFIER_CHECKPOINT_INTERVAL_MS and at stop, a checkpoint is recorded
 * when there is news (events applied or a snapshot written since the last one, or a long skipped
 * span), never past traffic that still waits for its notification (a restart finds that again), and
 * one at a time. A failed subscription is opened again where it stopped; an outage at start is
 * waited out.
 */
export class LogFollower {
  private processed = 0n;
  private live = false;
  /** An event is being applied: the model may already reflect it while `processed` does not yet. */
  private applying = false;
  private replayed = 0;
  /** The position of the last event the consumer was given. */
  private appliedUpTo = 0n;
  /** The checkpoint being recorded, and the one asked for meanwhile (recorded after it). */
  private recording?: Promise<void>;
  private recordingNext?: Promise<void>;
  private markReady!: () => void;
  readonly ready = new Promise<void>((resolve) => (this.markReady = resolve));

  constructor(
    private readonly store: EventStore,
    private readonly consumer: LogConsumer,
    private readonly checkpoints: CheckpointRecorder,
    private readonly snapshotter: Snapshotter,
    private readonly logger: Logger,
    private readonly options: LogFollowerOptions,
  ) {}

  /** Position in the log up to which everything has been applied. */
  get position(): bigint {
    return this.processed;
  }

  /** Events the start replayed (after the snapshot it loaded, if any). */
  get replayedAtStart(): number {
    return this.replayed;
  }

  async run(signal: AbortSignal): Promise<void> {
    await this.resume(signal);
    const timer = setInterval(() => {
      void this.checkpoint();
      // A notifier that went quiet still snapshots what it followed last (events trigger it otherwise).
      if (this.live && !this.applying) this.maybeSnapshot();
    }, this.options.checkpointIntervalMs);
    try {
      while (!signal.aborted) {
        try {
          await this.follow(signal);
        } catch (error) {
          if (signal.aborted) break;
          this.logger.warn('log subscription failed; resubscribing', { error, position: this.processed });
          await sleep(500, undefined, { signal }).catch(() => undefined);
        }
      }
    } finally {
      clearInterval(timer);
    }
  }

  /**
   * Records progress up to where everything has been turned into notifications, when there is news.
   * One at a time: concurrent appends to the checkpoint stream would only conflict and retry (on
   * EventStoreDB, with a slow store, they piled up by the interval until the notifier did little
   * else). A call while one is being recorded is answered by one more, started after it, which
   * sees what is known then; further calls meanwhile share that one.
   */
  checkpoint(): Promise<void> {
    if (this.recordingNext) return this.recordingNext;
    if (!this.recording) return this.startRecording();
    this.recordingNext = this.recording.then(() => {
      this.recordingNext = undefined;
      return this.startRecording();
    });
    return this.recordingNext;
  }

  private startRecording(): Promise<void> {
    const recording = this.recordProgress().finally(() => {
      if (this.recording === recording) this.recording = undefined;
    });
    this.recording = recording;
    return recording;
  }

  private async recordProgress(): Promise<void> {
    if (!this.live) return;
    const waiting = this.consumer.waitingFrom();
    const position = waiting !== undefined && waiting - 1n < this.processed ? waiting - 1n : this.processed;
    const last = this.checkpoints.last;
    const news =
      this.snapshotter.latest !== last.snapshot ||
      this.appliedUpTo > last.position ||
      position - last.position >= SKIPPED_PROGRESS_EVERY;
    if (news) await this.record(position);
  }

  private async follow(signal: AbortSignal): Promise<void> {
    const subscription = this.store.subscribeToAll({
      after: this.processed,
      filter: { streamNamePrefixes: this.options.streamNamePrefixes },
      signal,
    });
    for await (const message of subscription) {
      if (message.kind === 'event') {
        this.applying = true;
        try {
          await this.consumer.apply(message.event);
        } finally {
          this.applying = false;
        }
        this.processed = message.event.position;
        this.appliedUpTo = message.event.position;
        this.snapshotter.followed();
        if (!this.live) this.replayed += 1;
      } else {
        if (message.position > this.processed) this.processed = message.position;
        if (message.kind === 'caughtUp' && !this.live) {
          await this.consumer.caughtUp();
          this.live = true;
          await this.checkpoint();
          this.markReady();
        }
      }
      if (this.live) this.maybeSnapshot();
    }
  }

  /** Reads the checkpoint, loads the snapshot it names, and starts the consumer's replay. */
  private async resume(signal: AbortSignal): Promise<void> {
    const checkpoint = await this.untilAvailable(signal, () => this.checkpoints.read());
    const snapshotAt = await this.untilAvailable(signal, () => this.snapshotter.load(checkpoint));
    if (snapshotAt !== undefined) this.processed = snapshotAt;
    // Everything up to the snapshot had its notifications when it was taken.
    this.consumer.beginReplay(
      snapshotAt !== undefined && snapshotAt > checkpoint.position ? snapshotAt : checkpoint.position,
    );
  }

  private maybeSnapshot(): void {
    this.snapshotter.maybeTake(
      this.processed,
      () => this.consumer.waitingFrom() === undefined,
      async (ref) => {
        await this.checkpoint();
        return this.checkpoints.last.snapshot === ref;
      },
    );
  }

  private async record(position: bigint): Promise<void> {
    try {
      await this.checkpoints.record(position, this.snapshotter.latest);
    } catch (error) {
      this.logger.warn('could not record the checkpoint; will try again', { error });
    }
  }

  private async untilAvailable<T>(signal: AbortSignal, read: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await read();
      } catch (error) {
        if (signal.aborted) throw error;
        this.logger.warn('store unavailable at start; retrying', { error });
        await sleep(1000, undefined, { signal }).catch(() => undefined);
      }
    }
  }
}
