import { notificationWebhookId } from '@gw/application';
import { nextNoticeAt, notifierWorkflow, type NewNotification } from '@gw/domain-notifications';
import type { Logger } from '@gw/logging';
import type { NotifierMetrics } from '../metrics/metrics';
import { Stopping, type NotificationWriter } from './notification-writer';
import type { NotifierModel } from './notifier-model';

export interface NoticeClockSettings {
  /** EXPIRY_NOTICE_HOURS. */
  expiryNoticeHours: readonly number[];
  /** How often the clock looks for notices due; at most a second, so that one is made within 5 s. */
  tickMs: number;
  /** Notices of the instance were created. */
  onCreated(instanceId: string): void;
}

/** The webhook id of an instance notice: the same for the same instance, expiry and mark, whichever
 * notifier makes it, so that it names one notification only (docs/api.md 8.9). */
export function noticeWebhookIdFor(instanceId: string, expiresAt: string, key: string): string {
  return notificationWebhookId(`instance-notice|${instanceId}|${expiresAt}|${key}`);
}

/**
 * Time as an input of the notifier workflow (docs/api.md 8.9). The clock keeps, for each instance of
 * the partition that has a notice to come, the moment of the next one (from `nextNoticeAt`, updated
 * whenever the instance or its notifications change), and once a second gives the workflow a
 * `ClockTicked` for each instance whose moment has come. A tick costs one comparison per instance
 * with a notice to come; the workflow runs only for those that are due. Notices are written as
 * notifications of their own (never batched with traffic) through the writer, so that they take the
 * instance's next sequence numbers and are delivered and retried like the others; the notifications
 * state records them, so that neither a second tick nor a restarted notifier makes one twice.
 */
export class NoticeClock {
  private readonly next = new Map<string, number>();
  private readonly busy = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly model: NotifierModel,
    private readonly writer: NotificationWriter,
    private readonly metrics: NotifierMetrics,
    private readonly logger: Logger,
    private readonly settings: NoticeClockSettings,
  ) {}

  /** Starts ticking, with every instance the model holds (a snapshot restores them without changes). */
  start(): void {
    for (const instanceId of this.model.instanceIds()) this.update(instanceId);
    this.timer = setInterval(() => this.tick(), this.settings.tickMs);
    this.tick();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The instance or its notifications changed: when is its next notice due? */
  update(instanceId: string): void {
    const at = nextNoticeAt(
      this.model.instance(instanceId),
      this.model.notifierState(instanceId).period,
      this.model.notificationsOf(instanceId).state.notices ?? null,
      new Date().toISOString(),
      this.settings.expiryNoticeHours,
    );
    if (at === null) this.next.delete(instanceId);
    else this.next.set(instanceId, at);
  }

  private tick(): void {
    const now = Date.now();
    for (const [instanceId, at] of this.next) {
      if (at <= now && !this.busy.has(instanceId)) void this.notice(instanceId);
    }
  }

  private async notice(instanceId: string): Promise<void> {
    this.busy.add(instanceId);
    try {
      const input = {
        type: 'ClockTicked' as const,
        data: { now: new Date().toISOString(), notified: this.model.notificationsOf(instanceId).state.notices ?? null, expiryNoticeHours: this.settings.expiryNoticeHours },
      };
      const notifications: NewNotification[] = [];
      for (const output of notifierWorkflow.decide(input, this.model.notifierState(instanceId))) {
        if (output.type !== 'NotifyInstance') continue;
        const { key, notice } = output.data;
        notifications.push({ webhookId: noticeWebhookIdFor(instanceId, notice.expiresAt, key), content: { instance: notice }, sourceEventIds: [], noticeKey: key });
      }
      if (notifications.length === 0) return;
      const created = await this.writer.run(instanceId, { type: 'CreateNotifications', data: { instanceId, notifications, now: input.data.now } });
      this.metrics.created.inc({}, created.length);
      if (created.length > 0) this.settings.onCreated(instanceId);
    } catch (error) {
      // Left due: the next tick tries again.
      if (!(error instanceof Stopping)) this.logger.error('could not create instance notices', { instanceId, error });
    } finally {
      this.busy.delete(instanceId);
      this.update(instanceId);
    }
  }
}
