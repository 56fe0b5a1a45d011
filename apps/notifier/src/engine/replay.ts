import type { NotifiableItem } from '@gw/domain-notifications';
import type { NotifierModel } from './notifier-model';

/** Recorded traffic that is to be notified. */
export interface Candidate {
  instanceId: string;
  item: NotifiableItem;
  position: bigint;
}

/**
 * What the replay at start-up gathers before delivery begins. Delivery that went off (cleared, 410,
 * or expired before a renewal) while no notifier was following the log cancels what was pending at
 * that point, as a notifier following live would have; it may be on again by the time we catch up.
 */
export class Replay {
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
