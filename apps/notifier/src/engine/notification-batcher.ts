import { notificationWebhookId, openedAckBytes, openedMessageBytes } from '@gw/application';
import { batchNotifiable, type BatchLimits, type NewNotification, type NotifiableItem } from '@gw/domain-notifications';
import type { NotifierMetrics } from '../metrics/metrics';
import { isoNow, type Clock } from './clock';
import type { NotificationWriter } from './notification-writer';

/** Recorded traffic waiting to become a notification. */
interface Waiting {
  item: NotifiableItem;
  /** Where it was recorded: the checkpoint stays before it until its notification exists. */
  position: bigint;
  /** Seen while a notification of its instance was being sent, so it may share the next one. */
  batchable: boolean;
}

/** The bytes an item takes in a body as its receiver gets it (measured once, when it arrives). */
const itemBytes = new WeakMap<NotifiableItem, number>();
const sizeOf = (item: NotifiableItem): number => itemBytes.get(item) ?? measure(item);
function measure(item: NotifiableItem): number {
  const bytes =
    'message' in item
      ? openedMessageBytes(item.message)
      : 'ack' in item
        ? openedAckBytes(item.ack)
        : Buffer.byteLength(JSON.stringify(item.state));
  itemBytes.set(item, bytes);
  return bytes;
}

/** The envelope of a body around its items but the instance id: the largest sequence, the longest
 * label (64 characters of up to 4 bytes, docs/api.md 13.1) and the longer key, with the instance id
 * as "" (whose two quotes are taken off again). Worked out once: every notification made asks. */
const ENVELOPE_BUT_ID =
  Buffer.byteLength(
    JSON.stringify({ instanceId: '', sequence: Number.MAX_SAFE_INTEGER, label: 'x'.repeat(4 * 64), messages: [] }),
  ) - 2;

/** The bytes of a body's envelope around its items, for the instance's notifications. */
export function envelopeBytes(instanceId: string): number {
  return ENVELOPE_BUT_ID + Buffer.byteLength(JSON.stringify(instanceId));
}

export interface BatcherOptions {
  /** NOTIFICATION_BATCH_MAX. */
  batchMax: number;
  /** NOTIFICATION_BATCH_BYTES: a body's bytes, envelope included. */
  batchBytes: number;
}

/** Whether a notification of the instance is on its way: being sent, or made and waiting for its
 * first attempt (behind the delivery slots). Traffic of the instance waits for that attempt to end. */
export type OnItsWay = (instanceId: string) => boolean;

/** The webhook id of the notification whose first item is `sourceEventId`: the same on every attempt
 * and resend, and the same if a restarted notifier batches that item first again. */
export function webhookIdFor(sourceEventId: string): string {
  return notificationWebhookId(`webhook|${sourceEventId}`);
}

/**
 * Turns recorded traffic into notifications (docs/api.md section 6, batching), judged as the notifier
 * meets the traffic, in record order. The first item of an instance with nothing on its way becomes a
 * notification at the processor's next turn, alone; from then on that notification is on its way
 * (made and waiting for its first attempt, or being sent), and whatever else of the instance arrives
 * waits for that attempt to end, then travels together in the next one (leading items of one kind, at
 * most NOTIFICATION_BATCH_MAX and NOTIFICATION_BATCH_BYTES; `batchNotifiable`). The notifications of
 * all instances made in one turn are written at once, so that the store commits them together.
 */
export class NotificationBatcher {
  private readonly waiting = new Map<string, Waiting[]>();
  /** Traffic taken from `waiting` whose notifications are being written. */
  private readonly writing = new Map<string, Waiting[]>();
  /** Instances whose next notification is being written: it is on its way already. */
  private readonly creating = new Set<string>();

  constructor(
    private readonly writer: NotificationWriter,
    private readonly metrics: NotifierMetrics,
    private readonly clock: Clock,
    private readonly options: BatcherOptions,
  ) {}

  /** Traffic to notify; `onItsWay`: whether a notification of its instance is on its way now. */
  add(instanceId: string, item: NotifiableItem, position: bigint, onItsWay: boolean): void {
    const queue = this.waiting.get(instanceId) ?? [];
    measure(item);
    queue.push({ item, position, batchable: onItsWay });
    this.waiting.set(instanceId, queue);
  }

  /** Whether any traffic waits to become a notification. */
  get hasWaiting(): boolean {
    return this.waiting.size > 0;
  }

  /** The earliest position of traffic that has no notification yet, if any. */
  earliestWaiting(): bigint | undefined {
    let earliest: bigint | undefined;
    for (const queues of [this.waiting, this.writing]) {
      for (const queue of queues.values()) {
        const first = queue[0]?.position;
        if (first !== undefined && (earliest === undefined || first < earliest)) earliest = first;
      }
    }
    return earliest;
  }

  /** Makes the next notification of every instance with traffic waiting and nothing on its way;
   * returns whether any was made. */
  async flush(onItsWay: OnItsWay): Promise<boolean> {
    const ids = [...this.waiting.keys()].filter((id) => !this.creating.has(id) && !onItsWay(id));
    const made = await Promise.all(ids.map((id) => this.create(id, false)));
    return made.some(Boolean);
  }

  /** Makes every notification of the instance's waiting traffic, whatever it is doing, as before its
   * delivery is switched off. */
  async flushInstance(instanceId: string): Promise<void> {
    await this.create(instanceId, true);
  }

  /**
   * One notification from the head of the instance's queue: the first item alone if it came while
   * nothing was on its way, else the leading items of its kind (up to NOTIFICATION_BATCH_MAX). What
   * stays now waits behind that notification, so it may travel together in the next one. With
   * `everything`, the whole queue at once.
   */
  private async create(instanceId: string, everything: boolean): Promise<boolean> {
    const queue = this.waiting.get(instanceId);
    if (!queue?.length) return false;
    const taken = queue.splice(0, everything ? queue.length : this.headCount(instanceId, queue));
    if (queue.length === 0) this.waiting.delete(instanceId);
    for (const rest of queue) rest.batchable = true;
    const writing = this.writing.get(instanceId) ?? [];
    writing.push(...taken);
    this.writing.set(instanceId, writing);
    this.creating.add(instanceId);
    try {
      const created = await this.writer.run(instanceId, {
        type: 'CreateNotifications',
        data: { instanceId, notifications: this.notificationsOf(instanceId, taken), now: isoNow(this.clock) },
      });
      this.metrics.created.inc({}, created.length);
      this.metrics.items.inc({}, taken.length);
    } finally {
      // Written, or abandoned because the notifier stops: then the checkpoint stays before it and a
      // restart finds it again.
      const done = new Set(taken);
      const rest = (this.writing.get(instanceId) ?? []).filter((w) => !done.has(w));
      if (rest.length) this.writing.set(instanceId, rest);
      else this.writing.delete(instanceId);
      this.creating.delete(instanceId);
    }
    return true;
  }

  /** How many items from the head of a queue make its next notification: the first batch that
   * `batchNotifiable` makes of the leading items that may share one. */
  private headCount(instanceId: string, queue: readonly Waiting[]): number {
    if (!queue[0].batchable) return 1;
    const leading: NotifiableItem[] = [];
    for (const w of queue) {
      if (!w.batchable || leading.length === this.options.batchMax) break;
      leading.push(w.item);
    }
    return batchNotifiable(leading, this.limits(instanceId))[0].sourceEventIds.length;
  }

  /** NOTIFICATION_BATCH_MAX items, and NOTIFICATION_BATCH_BYTES of body (docs/api.md section 11). */
  private limits(instanceId: string): BatchLimits {
    return { maxItems: this.options.batchMax, maxBytes: this.options.batchBytes - envelopeBytes(instanceId), sizeOf };
  }

  /** Batchable runs share notifications; anything else goes alone, all in record order. */
  private notificationsOf(instanceId: string, taken: readonly Waiting[]): NewNotification[] {
    const limits = this.limits(instanceId);
    const notifications: NewNotification[] = [];
    let run: NotifiableItem[] = [];
    const closeRun = () => {
      for (const batch of batchNotifiable(run, limits))
        notifications.push({ webhookId: webhookIdFor(batch.sourceEventIds[0]), ...batch });
      run = [];
    };
    for (const { item, batchable } of taken) {
      if (!batchable) {
        closeRun();
        run.push(item);
        closeRun();
      } else run.push(item);
    }
    closeRun();
    return notifications;
  }
}
