import { setTimeout as sleep } from 'node:timers/promises';
import { INBOX_STREAM_PREFIX, isInboxEvent } from '@gw/domain-inbox';
import { INSTANCE_STREAM_PREFIX, isInstanceEvent } from '@gw/domain-instances';
import { NOTIFICATIONS_STREAM_PREFIX, notifierWorkflow, type NotificationCreated } from '@gw/domain-notifications';
import type { EventStore, RecordedEvent } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import type { NotifierMetrics } from '../metrics/metrics';
import { readCheckpoint, recordCheckpoint, type Checkpoint } from './checkpoints';
import type { NotificationBatcher } from './notification-batcher';
import type { NotificationWriter } from './notification-writer';
import type { NotifierModel } from './notifier-model';
import { Replay } from './replay';
import { readSnapshot, writeSnapshot, type SnapshotRef } from './snapshots';

export interface FollowerOptions {
  partition: number;
  partitions: number;
  checkpointIntervalMs: number;
  /** NOTIFIER_SNAPSHOT_EVERY: events followed between snapshots of the model; 0: never. */
  snapshotEvery: number;
  /** Called when an instance's notifications may have become due. */
  onChange(instanceId: string): void;
}

/**
 * Follows the log and keeps the model current. At start it loads the partition's latest snapshot
 * (kept in the store, so a notifier on a fresh machine resumes too) and replays the log after it, or
 * the whole log when there is none; it collects recorded traffic after the checkpoint that has no
 * notification yet, and once caught up creates those, then hands each new one to the batcher as it
 * is recorded. Whether traffic is notified is decided from the instance's state at that point of the
 * log: delivery on and the instance active when the traffic was recorded. Every NOTIFIER_SNAPSHOT_EVERY
 * events it writes a new snapshot, so that a start costs the live state plus at most that many events.
 */
export class Follower {
  private processed = 0n;
  private live = false;
  private checkpointed = 0n;
  /** The latest snapshot, and whether a checkpoint naming it has been recorded. */
  private snapshot?: SnapshotRef;
  private snapshotRecorded = true;
  private snapshotting = false;
  /** An event is being applied: the model may already reflect it while `processed` does not yet. */
  private applying = false;
  private eventsSinceSnapshot = 0;
  /** Events applied between the start and being caught up: what a start cost. */
  private replayed = 0;
  private markReady!: () => void;
  readonly ready = new Promise<void>((resolve) => (this.markReady = resolve));

  constructor(
    private readonly store: EventStore,
    private readonly model: NotifierModel,
    private readonly writer: NotificationWriter,
    private readonly batcher: NotificationBatcher,
    private readonly metrics: NotifierMetrics,
    private readonly logger: Logger,
    private readonly options: FollowerOptions,
  ) {}

  /** Position in the log up to which everything has been processed. */
  get position(): bigint {
    return this.processed;
  }

  /** Events the start replayed (after the snapshot it loaded, if any). */
  get replayedAtStart(): number {
    return this.replayed;
  }

  async run(signal: AbortSignal): Promise<void> {
    const checkpoint = await this.resume(signal);
    let replay = new Replay();
    const timer = setInterval(() => {
      void this.checkpoint();
      // A notifier that went quiet still snapshots what it followed last (events trigger it otherwise).
      if (this.live && !this.applying) this.maybeSnapshot();
    }, this.options.checkpointIntervalMs);
    try {
      while (!signal.aborted) {
        try {
          const subscription = this.store.subscribeToAll({
            after: this.processed,
            filter: { streamNamePrefixes: [INSTANCE_STREAM_PREFIX, INBOX_STREAM_PREFIX, NOTIFICATIONS_STREAM_PREFIX] },
            signal,
          });
          for await (const message of subscription) {
            if (message.kind === 'event') {
              this.applying = true;
              try {
                await this.apply(message.event, checkpoint, replay);
              } finally {
                this.applying = false;
              }
              this.processed = message.event.position;
              this.eventsSinceSnapshot += 1;
              if (this.live) this.maybeSnapshot();
              else this.replayed += 1;
              continue;
            }
            if (message.position > this.processed) this.processed = message.position;
            if (message.kind === 'caughtUp' && !this.live) {
              for (const { instanceId, item, position } of replay.candidates) {
                if (!replay.createdAfterCheckpoint.has(item.sourceEventId)) this.batcher.add(instanceId, item, position);
              }
              await this.batcher.flush();
              for (const [instanceId, { webhookIds, reason }] of replay.doomed) {
                const cancelled = await this.writer.run(instanceId, {
                  type: 'CancelNotifications',
                  data: { instanceId, webhookIds: [...webhookIds], reason, now: new Date().toISOString() },
                });
                this.metrics.cancelled.inc({}, cancelled.length);
              }
              replay = new Replay();
              this.live = true;
              await this.checkpoint();
              this.markReady();
            }
            if (this.live) this.maybeSnapshot();
          }
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

  /** Records progress up to where everything has been turned into notifications: never past
   * traffic that still waits for its notification (a restart finds that again). */
  async checkpoint(): Promise<void> {
    const waiting = this.batcher.earliestWaiting();
    const position = waiting !== undefined && waiting - 1n < this.processed ? waiting - 1n : this.processed;
    if (!this.live || (position <= this.checkpointed && this.snapshotRecorded)) return;
    const snapshot = this.snapshot;
    const recorded: Checkpoint = { position: position > this.checkpointed ? position : this.checkpointed, ...(snapshot ? { snapshot } : {}) };
    try {
      await recordCheckpoint(this.store, this.options.partition, this.options.partitions, recorded, new Date().toISOString());
      this.checkpointed = recorded.position;
      if (this.snapshot === snapshot) this.snapshotRecorded = true;
    } catch (error) {
      this.logger.warn('could not record the checkpoint; will try again', { error });
    }
  }

  /** Reads the checkpoint and loads the snapshot it names; returns the position after which recorded
   * traffic may still need a notification. */
  private async resume(signal: AbortSignal): Promise<bigint> {
    const { partition, partitions } = this.options;
    const recorded = await this.untilAvailable(signal, () => readCheckpoint(this.store, partition, partitions));
    this.checkpointed = recorded.position;
    if (!recorded.snapshot) return recorded.position;
    const ref = recorded.snapshot;
    const snapshot = await this.untilAvailable(signal, () => readSnapshot(this.store, ref));
    if (!snapshot) {
      this.logger.warn('the snapshot named by the checkpoint is of another version or incomplete; replaying the whole log', { stream: ref.stream });
      return recorded.position;
    }
    this.model.restore(snapshot.entries);
    this.processed = snapshot.position;
    this.snapshot = ref;
    this.logger.info('resuming from a snapshot', { position: ref.position, instances: snapshot.entries.length });
    // Everything up to the snapshot had its notifications when it was taken.
    return snapshot.position > recorded.position ? snapshot.position : recorded.position;
  }

  /**
   * Takes a snapshot when enough events went by, at a point where the model reflects exactly the log
   * up to `processed` and nothing before it waits for a notification; it is written in the
   * background, and the next checkpoint names it.
   */
  private maybeSnapshot(): void {
    const { snapshotEvery, partition, partitions } = this.options;
    if (snapshotEvery === 0 || this.eventsSinceSnapshot < snapshotEvery || this.snapshotting) return;
    if (this.batcher.earliestWaiting() !== undefined) return;
    // Taken now, synchronously: the model's states are immutable values, so later changes do not reach it.
    const taken = { position: this.processed, entries: this.model.entries() };
    this.eventsSinceSnapshot = 0;
    this.snapshotting = true;
    void writeSnapshot(this.store, partition, partitions, taken)
      .then(async (ref) => {
        this.snapshot = ref;
        this.snapshotRecorded = false;
        await this.checkpoint();
        // Counted once a checkpoint names it, so that the metric says a restart would load it.
        if (this.snapshotRecorded && this.snapshot === ref) this.metrics.snapshots.inc();
      })
      .catch((error: unknown) => {
        this.logger.warn('could not write a snapshot; will try again', { error });
        this.eventsSinceSnapshot = snapshotEvery;
      })
      .finally(() => (this.snapshotting = false));
  }

  private async apply(event: RecordedEvent, checkpoint: bigint, replay: Replay): Promise<void> {
    const [prefix, instanceId] = splitStream(event.streamName);
    if (!instanceId || !this.model.owns(instanceId)) return;
    if (prefix === INSTANCE_STREAM_PREFIX) {
      if (!isInstanceEvent(event)) return;
      const before = this.model.notifierState(instanceId);
      if (!this.model.applyInstanceEvent(instanceId, event)) return;
      const input = { type: 'InstanceEventRecorded' as const, data: { event, now: new Date().toISOString() } };
      for (const output of notifierWorkflow.decide(input, before)) {
        if (output.type !== 'CancelPending') continue;
        if (!this.live) {
          replay.switchedOff(instanceId, event.position, output.data.reason, this.model);
          continue;
        }
        // What was recorded while delivery was on is made first, then cancelled with the rest.
        await this.batcher.flush(instanceId);
        const cancelled = await this.writer.run(instanceId, output);
        this.metrics.cancelled.inc({}, cancelled.length);
      }
      this.options.onChange(instanceId);
    } else if (prefix === NOTIFICATIONS_STREAM_PREFIX) {
      if (!this.model.applyRecordedNotification(instanceId, event)) return;
      if (!this.live && event.type === 'NotificationCreated') {
        const data = event.data as NotificationCreated['data'];
        const sources = data.sourceEventIds;
        if (event.position > checkpoint) for (const source of sources) replay.createdAfterCheckpoint.add(source);
        replay.created(instanceId, data.webhookId, sources);
      }
      this.options.onChange(instanceId);
    } else if (prefix === INBOX_STREAM_PREFIX && isInboxEvent(event)) {
      const input = { type: 'TrafficRecorded' as const, data: { sourceEventId: event.id, event } };
      for (const output of notifierWorkflow.decide(input, this.model.notifierState(instanceId))) {
        if (output.type !== 'Notify') continue;
        const { item } = output.data;
        if (this.live) this.batcher.add(instanceId, item, event.position);
        else {
          replay.notifiable.set(item.sourceEventId, event.position);
          if (event.position > checkpoint) replay.candidates.push({ instanceId, item, position: event.position });
        }
      }
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

function splitStream(streamName: string): [string, string] {
  for (const prefix of [INSTANCE_STREAM_PREFIX, INBOX_STREAM_PREFIX, NOTIFICATIONS_STREAM_PREFIX]) {
    if (streamName.startsWith(prefix)) return [prefix, streamName.slice(prefix.length)];
  }
  return ['', ''];
}
