import { setTimeout as sleep } from 'node:timers/promises';
import { instanceAggregate } from '@gw/application';
import { assertNever } from '@gw/domain-core';
import { INBOX_STREAM_PREFIX, isInboxEvent } from '@gw/domain-inbox';
import { INSTANCE_STREAM_PREFIX, isInstanceEvent } from '@gw/domain-instances';
import {
  NOTIFICATIONS_STREAM_PREFIX,
  notifierWorkflow,
  type CancelPending,
  type NewNotification,
  type NotifiableItem,
  type NotificationCreated,
  type NotifierInput,
  type NotifierOutput,
  type NotifierState,
  type OpenNotification,
} from '@gw/domain-notifications';
import type { RecordedEvent } from '@gw/event-store';
import { retryDelayMs } from '@gw/process';
import { isoNow } from './clock';
import { DeliveryLoop, type DueWork } from './delivery-loop';
import { splitStream } from './followed-streams';
import type { LogConsumer } from './log-follower';
import { noticeWebhookIdFor } from './notice-schedule';
import type { OnItsWay } from './notification-batcher';
import { Stopping } from './notification-writer';
import type { ProcessorParts, ProcessorSettings } from './processor-parts';
import { Replay } from './replay';

type SwitchOff = Extract<NotifierOutput, { type: 'DisableWebhookForReceiver' | 'DisableWebhookForFailing' }>;

/** What an output is carried out with: the traffic's or the event's position in the log, the
 * notification being attempted. */
interface Occasion {
  position?: bigint;
  notification?: OpenNotification;
}

/**
 * The notifier as one processor (emmett's workflowProcessor is the model). Its inputs are the log's
 * events (through the LogFollower), the delivery slots freeing up and the clock; for each it asks the
 * notifier workflow what to do and carries out every output in one place, `process`: traffic to the
 * batcher, instance notices and cancellations to the writer, sends to the receiver, a 410 to the
 * instance. When attempts and notices fall due is the DeliveryLoop's part (with the FairScheduler
 * behind it). Time comes from the one clock it is given. During the replay at start the outputs are
 * gathered (`Replay`) instead, and carried out once the log is caught up.
 */
export class NotifierProcessor implements LogConsumer, DueWork {
  private replay?: Replay;
  private readonly loop: DeliveryLoop;

  constructor(
    private readonly parts: ProcessorParts,
    private readonly settings: ProcessorSettings,
  ) {
    this.loop = new DeliveryLoop(parts, settings.noticeCheckMs, this);
  }

  get requestsInFlight(): number {
    return this.loop.requestsInFlight;
  }

  // The log.

  beginReplay(checkpoint: bigint): void {
    this.replay = new Replay(checkpoint);
  }

  async apply(event: RecordedEvent): Promise<void> {
    const { model } = this.parts;
    const [prefix, instanceId] = splitStream(event.streamName);
    if (!instanceId || !model.owns(instanceId)) return;
    if (prefix === INSTANCE_STREAM_PREFIX) {
      if (!isInstanceEvent(event)) return;
      // Whether it switches delivery off is judged on the state before it.
      const before = model.notifierState(instanceId);
      if (!model.applyInstanceEvent(instanceId, event)) return;
      const input: NotifierInput = {
        type: 'InstanceEventRecorded',
        data: { event, sourceEventId: event.id, now: this.now() },
      };
      await this.process(instanceId, input, before, { position: event.position });
      this.changed(instanceId);
    } else if (prefix === NOTIFICATIONS_STREAM_PREFIX) {
      if (!model.applyRecordedNotification(instanceId, event)) return;
      if (this.replay && event.type === 'NotificationCreated') {
        const { webhookId, sourceEventIds } = event.data as NotificationCreated['data'];
        this.replay.step({ type: 'created', instanceId, position: event.position, webhookId, sourceEventIds });
      }
      this.changed(instanceId);
    } else if (prefix === INBOX_STREAM_PREFIX && isInboxEvent(event)) {
      const input: NotifierInput = { type: 'TrafficRecorded', data: { sourceEventId: event.id, event } };
      await this.process(instanceId, input, model.notifierState(instanceId), { position: event.position });
    }
  }

  /** The replay is over: what it found to do is done, and from now on outputs are carried out live. */
  async caughtUp(): Promise<void> {
    const work = this.replay?.work() ?? { notify: [], cancel: [] };
    this.replay = undefined;
    const { batcher, writer, metrics } = this.parts;
    for (const { instanceId, item, position } of work.notify)
      batcher.add(instanceId, item, position, this.onItsWay(instanceId));
    await batcher.flush(this.onItsWay);
    for (const { instanceId, webhookIds, reason } of work.cancel) {
      const cancelled = await writer.run(instanceId, {
        type: 'CancelNotifications',
        data: { instanceId, webhookIds, reason, now: this.now() },
      });
      metrics.cancelled.inc({}, cancelled.length);
    }
  }

  waitingFrom(): bigint | undefined {
    return this.parts.batcher.earliestWaiting();
  }

  // The one place where the workflow's outputs are carried out.

  private async process(
    instanceId: string,
    input: NotifierInput,
    state: NotifierState,
    occasion: Occasion,
  ): Promise<void> {
    const notices: NewNotification[] = [];
    for (const output of notifierWorkflow.decide(input, state)) {
      switch (output.type) {
        case 'Notify':
          this.notify(instanceId, output.data.item, required(occasion.position, output.type));
          break;
        case 'NotifyInstance': {
          const { key, notice } = output.data;
          notices.push({
            webhookId: noticeWebhookIdFor(instanceId, notice.expiresAt, key),
            content: { instance: notice },
            sourceEventIds: [],
            noticeKey: key,
          });
          break;
        }
        case 'CancelPending':
          await this.cancelPending(instanceId, output, occasion.position);
          break;
        case 'Send':
          await this.send(instanceId, output.data, required(occasion.notification, output.type), state);
          break;
        case 'DisableWebhookForReceiver':
        case 'DisableWebhookForFailing':
          await this.switchOff(instanceId, output);
          break;
        default:
          assertNever(output);
      }
    }
    if (notices.length > 0) await this.createNotices(instanceId, notices);
  }

  private notify(instanceId: string, item: NotifiableItem, position: bigint): void {
    if (this.replay) return this.replay.step({ type: 'notifiable', instanceId, item, position });
    this.parts.batcher.add(instanceId, item, position, this.onItsWay(instanceId));
    this.wake();
  }

  private async cancelPending(instanceId: string, command: CancelPending, position: bigint | undefined): Promise<void> {
    const { model, batcher, writer, metrics } = this.parts;
    if (this.replay) {
      const pending = Object.values(model.notificationsOf(instanceId).state.open).filter((n) => n.status === 'pending');
      const step = {
        type: 'switchedOff' as const,
        instanceId,
        reason: command.data.reason,
        pending: pending.map((n) => n.webhookId),
      };
      return this.replay.step({ ...step, position: required(position, command.type) });
    }
    // What was recorded while delivery was on is made first, then cancelled with the rest.
    await batcher.flushInstance(instanceId);
    const cancelled = await writer.run(instanceId, command);
    metrics.cancelled.inc({}, cancelled.length);
  }

  private async createNotices(instanceId: string, notifications: NewNotification[]): Promise<void> {
    const created = await this.parts.writer.run(instanceId, {
      type: 'CreateNotifications',
      data: { instanceId, notifications, now: this.now() },
    });
    this.parts.metrics.created.inc({}, created.length);
    if (created.length > 0) this.wake();
  }

  private async send(
    instanceId: string,
    { url, encryptedSigningSecrets, sealedHeaders }: Extract<NotifierOutput, { type: 'Send' }>['data'],
    notification: OpenNotification,
    state: NotifierState,
  ): Promise<void> {
    const { sender, writer, metrics, model } = this.parts;
    const result = await sender.send(instanceId, url, encryptedSigningSecrets, sealedHeaders, notification);
    metrics.latency.observe(result.durationMs / 1000);
    const events = await writer.run(instanceId, {
      type: 'RecordAttempt',
      data: {
        instanceId,
        webhookId: notification.webhookId,
        at: this.now(),
        ...result,
        retryDelaysSeconds: this.settings.retryScheduleSeconds,
        jitter: 0.8 + this.settings.random() * 0.4,
      },
    });
    this.parts.metrics.countOutcomes(events, result);
    const failingSince = model.notificationsOf(instanceId).state.failing?.since ?? null;
    const { disableAfterHours } = this.settings;
    const answered = { url, status: result.status, now: this.now(), failingSince, disableAfterHours };
    await this.process(instanceId, { type: 'ReceiverAnswered', data: answered }, state, {});
  }

  /**
   * 410 Gone, or failures for WEBHOOK_DISABLE_AFTER_HOURS: delivery is switched off on the instance
   * itself. An outage is waited out (the receiver will not say it again), until the notifier stops.
   */
  private async switchOff(instanceId: string, command: SwitchOff): Promise<void> {
    const guard = () => {
      if (this.loop.stopping) throw new Stopping();
    };
    await instanceAggregate.handle(
      this.parts.store,
      instanceId,
      () => {
        guard();
        return command;
      },
      {
        conflictRetries: this.settings.conflictRetries,
        onUnavailable: async (error, attempt) => {
          guard();
          this.parts.logger.warn('store unavailable while switching delivery off; retrying', { instanceId, error });
          await sleep(retryDelayMs(attempt));
        },
      },
    );
  }

  // The moments the delivery loop finds due.

  /** Starts delivering and making notices, for every instance the model holds. */
  start(): void {
    const now = this.now();
    for (const instanceId of this.parts.model.instanceIds()) this.parts.notices.update(instanceId, now);
    this.loop.start();
  }

  /** Stops starting work and waits for the attempts in flight, at most `graceMs`. */
  stop(graceMs: number): Promise<void> {
    return this.loop.stop(graceMs);
  }

  attemptDue(instanceId: string, notification: OpenNotification): Promise<void> {
    const input: NotifierInput = { type: 'AttemptDue', data: { instanceId, now: this.now() } };
    return this.process(instanceId, input, this.parts.model.notifierState(instanceId), { notification });
  }

  noticesDue(instanceId: string): Promise<void> {
    const { model } = this.parts;
    const notified = model.notificationsOf(instanceId).state.notices ?? null;
    const input: NotifierInput = {
      type: 'ClockTicked',
      data: { now: this.now(), notified, expiryNoticeHours: this.settings.expiryNoticeHours },
    };
    return this.process(instanceId, input, model.notifierState(instanceId), {});
  }

  private readonly onItsWay: OnItsWay = (instanceId) => this.loop.onItsWay(instanceId);

  /** Looks for work soon (the delivery loop's next turn); cheap to call often. */
  wake(): void {
    this.loop.wake();
  }

  private changed(instanceId: string): void {
    if (!this.loop.started) return;
    this.parts.notices.update(instanceId, this.now());
    this.wake();
  }

  private now(): string {
    return isoNow(this.parts.clock);
  }
}

/** What an output needs from its occasion; a workflow that asked for it elsewhere is a bug. */
function required<T>(value: T | undefined, output: string): T {
  if (value === undefined) throw new Error(`the workflow asked for ${output} where it cannot be carried out`);
  return value;
}
