import { setTimeout as sleep } from 'node:timers/promises';
import { nameBasedId } from '@gw/application';
import { INBOX_STREAM_PREFIX, isInboxEvent, type InboxEvent } from '@gw/domain-inbox';
import { deliveryEnabled, INSTANCE_STREAM_PREFIX } from '@gw/domain-instances';
import { NOTIFICATIONS_STREAM_PREFIX, type NotificationContent } from '@gw/domain-notifications';
import type { EventStore, RecordedEvent } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import type { NotifierMetrics } from '../metrics/metrics';
import { readCheckpoint, recordCheckpoint } from './checkpoints';
import type { NotificationWriter } from './notification-writer';
import type { NotifierModel } from './notifier-model';

interface Candidate {
  instanceId: string;
  webhookId: string;
  content: NotificationContent;
  sourceEventId: string;
}

export interface FollowerOptions {
  partition: number;
  partitions: number;
  checkpointIntervalMs: number;
  /** Called when an instance's notifications may have become due. */
  onChange(instanceId: string): void;
}

/** The webhook id of the notification made from a recorded message or ack: the same on every
 * attempt and resend, and the same if a restarted notifier meets the source event again. */
export function webhookIdFor(sourceEventId: string): string {
  return `msg_${nameBasedId(`webhook|${sourceEventId}`).replace(/-/g, '')}`;
}

/**
 * Follows the log and keeps the model current. At start it replays the log from the beginning (the
 * model lives only in memory; the log is the only state), and collects recorded traffic after the
 * partition's checkpoint that has no notification yet; once caught up it creates those, then creates
 * each new one as it is recorded. Whether traffic is notified is decided from the instance's state at
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
    const candidates: Candidate[] = [];
    const createdAfterCheckpoint = new Set<string>();
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
              await this.apply(message.event, checkpoint, candidates, createdAfterCheckpoint);
              this.processed = message.event.position;
              continue;
            }
            if (message.position > this.processed) this.processed = message.position;
            if (message.kind === 'caughtUp' && !this.live) {
              for (const candidate of candidates) {
                if (!createdAfterCheckpoint.has(candidate.webhookId)) await this.create(candidate);
              }
              candidates.length = 0;
              createdAfterCheckpoint.clear();
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

  /** Records progress once everything up to the position has been turned into notifications. */
  async checkpoint(): Promise<void> {
    if (!this.live || this.processed <= this.checkpointed) return;
    const position = this.processed;
    try {
      await recordCheckpoint(this.store, this.options.partition, this.options.partitions, position, new Date().toISOString());
      this.checkpointed = position;
    } catch (error) {
      this.logger.warn('could not record the checkpoint; will try again', { error });
    }
  }

  private async apply(event: RecordedEvent, checkpoint: bigint, candidates: Candidate[], createdAfterCheckpoint: Set<string>): Promise<void> {
    const [prefix, instanceId] = splitStream(event.streamName);
    if (!instanceId || !this.model.owns(instanceId)) return;
    if (prefix === INSTANCE_STREAM_PREFIX) {
      if (!this.model.applyInstanceEvent(instanceId, event)) return;
      if (this.live && (event.type === 'WebhookCleared' || event.type === 'WebhookDisabledByReceiver')) {
        const reason = event.type === 'WebhookCleared' ? 'delivery was switched off' : 'the receiver switched delivery off (410 Gone)';
        const cancelled = await this.writer.run(instanceId, { type: 'CancelPending', data: { instanceId, reason, now: new Date().toISOString() } });
        this.metrics.cancelled.inc({}, cancelled.length);
      }
      this.options.onChange(instanceId);
    } else if (prefix === NOTIFICATIONS_STREAM_PREFIX) {
      if (!this.model.applyRecordedNotification(instanceId, event)) return;
      if (!this.live && event.type === 'NotificationCreated' && event.position > checkpoint) {
        createdAfterCheckpoint.add((event.data as { webhookId: string }).webhookId);
      }
      this.options.onChange(instanceId);
    } else if (prefix === INBOX_STREAM_PREFIX && isInboxEvent(event) && event.position > checkpoint) {
      const candidate = this.candidateFrom(instanceId, event);
      if (!candidate) return;
      if (this.live) await this.create(candidate);
      else candidates.push(candidate);
    }
  }

  /** A notification is made for traffic recorded while delivery was on for an active instance. */
  private candidateFrom(instanceId: string, event: RecordedEvent & InboxEvent): Candidate | undefined {
    const instance = this.model.instance(instanceId);
    if (instance.status !== 'created' || !deliveryEnabled(instance, event.data.receivedAt)) return undefined;
    const content: NotificationContent = event.type === 'MessageReceived' ? { messages: [event.data.message] } : { ack: [event.data.ack] };
    return { instanceId, webhookId: webhookIdFor(event.id), content, sourceEventId: event.id };
  }

  private async create({ instanceId, webhookId, content, sourceEventId }: Candidate): Promise<void> {
    const created = await this.writer.run(instanceId, {
      type: 'CreateNotification',
      data: { instanceId, webhookId, content, sourceEventId, now: new Date().toISOString() },
    });
    this.metrics.created.inc({}, created.length);
    this.options.onChange(instanceId);
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
