import type { NotifiableItem } from '@gw/domain-notifications';

/** Recorded traffic that is to be notified. */
export interface Candidate {
  instanceId: string;
  item: NotifiableItem;
  position: bigint;
}

/** What a replay of the log meets that matters for the work left at its end, in log order. */
export type ReplayStep =
  /** Traffic the workflow said to notify, recorded at `position`. */
  | { type: 'notifiable'; instanceId: string; item: NotifiableItem; position: bigint }
  /** Delivery of the instance went off at `position` (cleared, 410, deleted, or an expiry found at a
   * renewal) while these of its notifications were pending. */
  | { type: 'switchedOff'; instanceId: string; position: bigint; reason: string; pending: readonly string[] }
  /** A notification carrying this traffic was recorded at `position`. */
  | { type: 'created'; instanceId: string; position: bigint; webhookId: string; sourceEventIds: readonly string[] };

/** What a notifier that caught up with the log still has to do. */
export interface CatchUpWork {
  /** Traffic after the checkpoint with no notification yet, in record order. */
  notify: Candidate[];
  /** Notifications to cancel, per instance, and why: pending when their instance's delivery went
   * off while no notifier was following the log, as a notifier following live would have. */
  cancel: Array<{ instanceId: string; webhookIds: string[]; reason: string }>;
}

/**
 * The replay at start as a function of what it met: given the checkpoint it resumed after and the
 * steps of the log, the work left once caught up. Deterministic, without I/O or a clock; the
 * follower feeds it one step at a time (`Replay`), so that a log of millions of events is not held.
 */
export function replayLog(checkpoint: bigint, steps: Iterable<ReplayStep>): CatchUpWork {
  const replay = new Replay(checkpoint);
  for (const step of steps) replay.step(step);
  return replay.work();
}

/** `replayLog`, one step at a time. */
export class Replay {
  private readonly candidates: Candidate[] = [];
  /** Traffic (by source event id) carried by notifications created after the checkpoint: it needs no new one. */
  private readonly createdAfterCheckpoint = new Set<string>();
  /** Where notifiable traffic (by source event id) was recorded, until a notification carrying it is met. */
  private readonly notifiable = new Map<string, bigint>();
  /** The last point at which each instance's delivery went off, and why. */
  private readonly lastOff = new Map<string, { position: bigint; reason: string }>();
  private readonly doomed = new Map<string, { webhookIds: Set<string>; reason: string }>();

  constructor(private readonly checkpoint: bigint) {}

  step(step: ReplayStep): void {
    switch (step.type) {
      case 'notifiable':
        this.notifiable.set(step.item.sourceEventId, step.position);
        if (step.position > this.checkpoint)
          this.candidates.push({ instanceId: step.instanceId, item: step.item, position: step.position });
        return;
      case 'switchedOff':
        return this.switchedOff(step);
      case 'created':
        return this.created(step);
      default: {
        const never: never = step;
        throw new Error(`unknown replay step ${JSON.stringify(never)}`);
      }
    }
  }

  work(): CatchUpWork {
    return {
      notify: this.candidates.filter((c) => !this.createdAfterCheckpoint.has(c.item.sourceEventId)),
      cancel: [...this.doomed].map(([instanceId, { webhookIds, reason }]) => ({
        instanceId,
        webhookIds: [...webhookIds],
        reason,
      })),
    };
  }

  private switchedOff({ instanceId, position, reason, pending }: Extract<ReplayStep, { type: 'switchedOff' }>): void {
    this.lastOff.set(instanceId, { position, reason });
    for (const webhookId of pending) this.doom(instanceId, webhookId, reason);
    // Traffic recorded before this point whose notification is not made yet: made and cancelled at
    // once by a live notifier, so not made at all. (If it was made after all, `created` dooms it.)
    for (let i = this.candidates.length - 1; i >= 0; i--) {
      if (this.candidates[i].instanceId === instanceId) this.candidates.splice(i, 1);
    }
  }

  private created({ instanceId, position, webhookId, sourceEventIds }: Extract<ReplayStep, { type: 'created' }>): void {
    if (position > this.checkpoint) for (const source of sourceEventIds) this.createdAfterCheckpoint.add(source);
    const recordedAt = this.notifiable.get(sourceEventIds[0]);
    for (const source of sourceEventIds) this.notifiable.delete(source);
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
