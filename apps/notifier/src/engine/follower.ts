import { setTimeout as sleep } from 'node:timers/promises';
import { INBOX_STREAM_PREFIX, isInboxEvent, type InboxEvent } from '@gw/domain-inbox';
import { deliveryEnabled, INSTANCE_STREAM_PREFIX, instanceStatus, type InstanceRenewed, type InstanceState } from '@gw/domain-instances';
import { NOTIFICATIONS_STREAM_PREFIX, notificationSources, type NotifiableItem, type NotificationCreated } from '@gw/domain-notifications';
import type { EventStore, RecordedEvent } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import type { NotifierMetrics } from '../metrics/metrics';
import { readCheckpoint, recordCheckpoint } from './checkpoints';
import type { NotificationBatcher } from './notification-batcher';
import type { NotificationWriter } from './notification-writer';
import type { NotifierModel } from './notifier-model';

/** Recorded traffic that is to be notified. */
interface Candidate {
  instanceId: string;
  item: NotifiableItem;
  position: bigint;
}

/**
 * What the replay at start-up gathers before delivery begins. Delivery that went off (cleared, 410,
 * or expired before a renewal) while no notifier was following the log cancels what was pending at
 * that point, as a notifier following live would have; it may be on again by the time we catch up.
 */
class Replay {
  /** Traffic after the checkpoint that may have no notification yet. */
  readonly candidates: Candidate[] = [];
  /** Traffic (by source event id) carried by notifications created after the checkpoint: it needs no new one. */
  readonly createdAfterCheckpoint = new Set<string>();
  /** Where notifiable traffic (by source event id) was recorded, until a notification carrying it is met. */
  readonly notifiable = new Map<string, bigint>();
  /** The last point at which each instance's delivery went off, and why. */
  readonly lastOff = new Map<string, { position: bigint; reason: string }>();
  /** Notifications that were pending when their instance's delivery went off, by instance. */
  readonly doomed = new Map<string, { webhookIds: Set<string>; reason: string }>();

  switchedOff(instanceId: string, position: bigint, reason: string, model: NotifierModel): void {
    this.lastOff.set(instanceId, { position, reason });
    for (const n of Object.values(model.notificationsOf(instanceId).state.open)) {
      if (n.status === 'pending') this.doom(instanceId, n.webhookId, reason);
    }
    // Traffic recorded before this point whose notification is not made yet: made and cancelled at
    // once by a live notifier, so not made at all. (If it was made after all, `created` dooms it.)
    for (let i = this.candidates.length - 1; i >= 0; i--) {
      if (this.candidates[i].instanceId === instanceId) this.candidates.splice(i, 1);
    }
  }

  created(instanceId: string, webhookId: string, sources: readonly string[]): void {
    const recordedAt = this.notifiable.get(sources[0]);
    for (const source of sources) this.notifiable.delete(source);
    const off = this.lastOff.get(instanceId);
    if (recordedAt !== undefined && off && off.position > recordedAt) this.doom(instanceId, webhookId, off.reason);
  }

  private doom(instanceId: string, webhookId: string, reason: string): void {
    const entry = this.doomed.get(instanceId) ?? { webhookIds: new Set<string>(), reason };
    entry.webhookIds.add(webhookId);
    entry.reason = reason;
    this.doomed.set(instanceId, entry);
  }
}

/** Why an instance event switches delivery off (cancelling what is pending), or null. */
function switchedOffBy(before: InstanceState, event: RecordedEvent): string | null {
  if (event.type === 'WebhookCleared') return 'delivery was switched off';
  if (event.type === 'WebhookDisabledByReceiver') return 'the receiver switched delivery off (410 Gone)';
  // A renewal after expiry: the expiry cancelled what was pending, even if no attempt noticed it.
  if (event.type === 'InstanceRenewed' && before.status === 'created') {
    const { renewedAt } = event.data as InstanceRenewed['data'];
    if (instanceStatus(before.expiresAt, renewedAt) === 'expired') return 'the instance expired';
  }
  return null;
}

export interface FollowerOptions {
  partition: number;
  partitions: number;
  checkpointIntervalMs: number;
  /** Called when an instance's notifications may have become due. */
  onChange(instanceId: string): void;
}

/**
 * Follows the log and keeps the model current. At start it replays the log from the beginning (the
 * model lives only in memory; the log is the only state), and collects recorded traffic after the
 * partition's checkpoint that has no notification yet; once caught up it creates those, then hands
 * each new one to the batcher as it is recorded. Whether traffic is notified is decided from the instance's state at
 * that point of the log: delivery on and the instance active when the traffic was recorded.
 */
export class Follower {
  private processed = 0n;
  private live = false;
  private checkpointed = 0n;
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

  async run(signal: AbortSignal): Promise<void> {
    const checkpoint = await this.untilAvailable(signal, () => readCheckpoint(this.store, this.options.partition, this.options.partitions));
    this.checkpointed = checkpoint;
    let replay = new Replay();
    const timer = setInterval(() => void this.checkpoint(), this.options.checkpointIntervalMs);
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
              await this.apply(message.event, checkpoint, replay);
              this.processed = message.event.position;
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
    if (!this.live || position <= this.checkpointed) return;
    try {
      await recordCheckpoint(this.store, this.options.partition, this.options.partitions, position, new Date().toISOString());
      this.checkpointed = position;
    } catch (error) {
      this.logger.warn('could not record the checkpoint; will try again', { error });
    }
  }

  private async apply(event: RecordedEvent, checkpoint: bigint, replay: Replay): Promise<void> {
    const [prefix, instanceId] = splitStream(event.streamName);
    if (!instanceId || !this.model.owns(instanceId)) return;
    if (prefix === INSTANCE_STREAM_PREFIX) {
      const before = this.model.instance(instanceId);
      if (!this.model.applyInstanceEvent(instanceId, event)) return;
      const reason = switchedOffBy(before, event);
      if (reason && this.live) {
        // What was recorded while delivery was on is made first, then cancelled with the rest.
        await this.batcher.flush(instanceId);
        const cancelled = await this.writer.run(instanceId, { type: 'CancelPending', data: { instanceId, reason, now: new Date().toISOString() } });
        this.metrics.cancelled.inc({}, cancelled.length);
      } else if (reason) {
        replay.switchedOff(instanceId, event.position, reason, this.model);
      }
      this.options.onChange(instanceId);
    } else if (prefix === NOTIFICATIONS_STREAM_PREFIX) {
      if (!this.model.applyRecordedNotification(instanceId, event)) return;
      if (!this.live && event.type === 'NotificationCreated') {
        const data = event.data as NotificationCreated['data'];
        const sources = notificationSources(data);
        if (event.position > checkpoint) for (const source of sources) replay.createdAfterCheckpoint.add(source);
        replay.created(instanceId, data.webhookId, sources);
      }
      this.options.onChange(instanceId);
    } else if (prefix === INBOX_STREAM_PREFIX && isInboxEvent(event)) {
      const candidate = this.candidateFrom(instanceId, event);
      if (!candidate) return;
      if (this.live) return this.batcher.add(instanceId, candidate.item, candidate.position);
      replay.notifiable.set(candidate.item.sourceEventId, event.position);
      if (event.position > checkpoint) replay.candidates.push(candidate);
    }
  }

  /** A notification is made for traffic recorded while delivery was on for an active instance. */
  private candidateFrom(instanceId: string, event: RecordedEvent & InboxEvent): Candidate | undefined {
    const instance = this.model.instance(instanceId);
    if (instance.status !== 'created' || !deliveryEnabled(instance, event.data.receivedAt)) return undefined;
    const item: NotifiableItem = event.type === 'MessageReceived' ? { sourceEventId: event.id, message: event.data.message } : { sourceEventId: event.id, ack: event.data.ack };
    return { instanceId, item, position: event.position };
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
