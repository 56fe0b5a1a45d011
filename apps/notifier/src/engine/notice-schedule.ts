import { notificationWebhookId } from '@gw/application';
import { nextNoticeAt } from '@gw/domain-notifications';
import type { NotifierModel } from './notifier-model';

/** The webhook id of an instance notice: the same for the same instance, expiry and mark, whichever
 * notifier makes it, so that it names one notification only (docs/api.md 8.9). */
export function noticeWebhookIdFor(instanceId: string, expiresAt: string, key: string): string {
  return notificationWebhookId(`instance-notice|${instanceId}|${expiresAt}|${key}`);
}

/**
 * When each instance of the partition that has an instance notice to come (docs/api.md 8.9) is next
 * due, from `nextNoticeAt`, kept current as the instance or its notifications change. A look for due
 * notices costs one comparison per instance with a notice to come; the workflow runs only for those
 * that are due.
 */
export class NoticeSchedule {
  private readonly next = new Map<string, number>();

  constructor(
    private readonly model: NotifierModel,
    /** EXPIRY_NOTICE_HOURS. */
    private readonly expiryNoticeHours: readonly number[],
  ) {}

  /** The instance or its notifications changed at `now`: when is its next notice due? */
  update(instanceId: string, now: string): void {
    const at = nextNoticeAt(
      this.model.instance(instanceId),
      this.model.notifierState(instanceId).period,
      this.model.notificationsOf(instanceId).state.notices ?? null,
      now,
      this.expiryNoticeHours,
    );
    if (at === null) this.next.delete(instanceId);
    else this.next.set(instanceId, at);
  }

  /** Instances with a notice due at `nowMs`. */
  *due(nowMs: number): Generator<string> {
    for (const [instanceId, at] of this.next) if (at <= nowMs) yield instanceId;
  }
}
