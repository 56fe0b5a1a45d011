import { createHash } from 'node:crypto';
import type { LoadedState } from '@gw/application';
import { isInstanceEvent, initialInstanceState, type InstanceState } from '@gw/domain-instances';
import {
  evolveNotifierState,
  evolveNotifications,
  initialNotificationsState,
  initialNotifierState,
  isNotificationEvent,
  nextToAttempt,
  type NotificationsState,
  type NotifierState,
} from '@gw/domain-notifications';
import type { RecordedEvent } from '@gw/event-store';
import { DueIndex, type DueAttempt } from './due-index';
import { restoredView, storedView, type SnapshotEntry } from './snapshots';

/** Which partition an instance belongs to, stable across processes and restarts. */
export function partitionOf(instanceId: string, partitions: number): number {
  if (partitions === 1) return 0;
  return createHash('sha256').update(instanceId).digest().readUInt32BE(0) % partitions;
}

/**
 * What the notifier knows, folded from the log: each instance's state and each instance's
 * notifications. Events are applied at most once per stream revision, so the notifier's own
 * appends (applied when they succeed) and their echo from the subscription do not count twice.
 */
export class NotifierModel {
  /** Each instance's state and the period its notices are judged in (docs/api.md 8.9). */
  private readonly instances = new Map<string, LoadedState<NotifierState>>();
  private readonly notifications = new Map<string, LoadedState<NotificationsState>>();
  /** Instances that have notifications which may still be sent; kept in step with `notifications`. */
  private readonly withOpen = new Set<string>();
  /** Each instance's next attempt by when it falls due; kept in step with `notifications`. */
  private readonly attempts = new DueIndex();

  constructor(
    private readonly partitions: number,
    private readonly partition: number,
  ) {}

  owns(instanceId: string): boolean {
    return partitionOf(instanceId, this.partitions) === this.partition;
  }

  instance(instanceId: string): InstanceState {
    return this.instances.get(instanceId)?.state.instance ?? initialInstanceState();
  }

  /** What the notifier workflow knows of the instance. */
  notifierState(instanceId: string): NotifierState {
    return this.instances.get(instanceId)?.state ?? initialNotifierState();
  }

  /** Every instance the model knows. */
  instanceIds(): IterableIterator<string> {
    return this.instances.keys();
  }

  notificationsOf(instanceId: string): LoadedState<NotificationsState> {
    return this.notifications.get(instanceId) ?? { state: initialNotificationsState(), revision: -1n };
  }

  /** Instances with notifications that may still be sent. */
  instancesWithOpenNotifications(): ReadonlySet<string> {
    return this.withOpen;
  }

  pendingCount(): number {
    let count = 0;
    for (const id of this.withOpen) {
      for (const n of Object.values(this.notificationsOf(id).state.open)) if (n.status === 'pending') count += 1;
    }
    return count;
  }

  /** Folds an instance-stream event; returns the instance id when it was new to this model. */
  applyInstanceEvent(instanceId: string, event: RecordedEvent): boolean {
    if (!isInstanceEvent(event)) return false;
    const view = this.instances.get(instanceId) ?? { state: this.notifierState(instanceId), revision: -1n };
    if (event.revision <= view.revision) return false;
    this.instances.set(instanceId, { state: evolveNotifierState(view.state, event), revision: event.revision });
    return true;
  }

  /** Folds a notification event read from the log; returns whether it was new to this model. */
  applyRecordedNotification(instanceId: string, event: RecordedEvent): boolean {
    if (!isNotificationEvent(event)) return false;
    const view = this.notificationsOf(instanceId);
    if (event.revision <= view.revision) return false;
    this.replaceNotifications(instanceId, {
      state: evolveNotifications(view.state, event),
      revision: event.revision,
      position: event.position,
    });
    return true;
  }

  /**
   * Takes a writer's view of an instance's notifications (after its own append, or read after a
   * conflict) unless the model holds a later one. The follower may fold the writer's append and
   * another writer's after it (the API's redeliver, say) before the append's answer comes back;
   * the writer's view would then undo the other writer's events until the instance's next command.
   * Positions are global and never used twice, so the later of two views of a stream has the higher.
   */
  adoptNotifications(instanceId: string, view: LoadedState<NotificationsState>): void {
    const current = this.notifications.get(instanceId);
    if (current?.position !== undefined && view.position !== undefined && current.position > view.position) return;
    this.replaceNotifications(instanceId, view);
  }

  /** Replaces an instance's notifications view with one read afresh from its stream. */
  replaceNotifications(instanceId: string, view: LoadedState<NotificationsState>): void {
    this.notifications.set(instanceId, view);
    if (Object.keys(view.state.open).length > 0) this.withOpen.add(instanceId);
    else this.withOpen.delete(instanceId);
    this.attempts.set(instanceId, nextToAttempt(view.state));
  }

  /** Whether the instance has a notification whose first attempt has not ended yet (a new or a
   * resent one): traffic recorded meanwhile may travel in its next notification. */
  hasFreshNotification(instanceId: string): boolean {
    if (!this.withOpen.has(instanceId)) return false;
    for (const n of Object.values(this.notificationsOf(instanceId).state.open))
      if (n.status === 'pending' && n.attempts === 0) return true;
    return false;
  }

  /** Everything the model holds, per instance, for a snapshot. */
  entries(): SnapshotEntry[] {
    const entries = new Map<string, SnapshotEntry>();
    for (const [instanceId, { state, revision }] of this.instances) {
      entries.set(instanceId, {
        instanceId,
        instance: storedView({ state: state.instance, revision }),
        noticePeriod: state.period,
        setAt: state.setAt,
      });
    }
    for (const [instanceId, view] of this.notifications) {
      const entry = entries.get(instanceId) ?? { instanceId };
      entry.notifications = storedView(view);
      entries.set(instanceId, entry);
    }
    return [...entries.values()];
  }

  /** Starts from a snapshot's entries instead of an empty model. */
  restore(entries: readonly SnapshotEntry[]): void {
    this.instances.clear();
    this.notifications.clear();
    this.withOpen.clear();
    this.attempts.clear();
    for (const { instanceId, instance, noticePeriod, setAt, notifications } of entries) {
      if (instance) {
        const { state, revision } = restoredView(instance);
        const notifierState = { instance: state, period: noticePeriod ?? null, setAt: setAt ?? null };
        this.instances.set(instanceId, { state: notifierState, revision });
      }
      if (notifications) this.replaceNotifications(instanceId, restoredView(notifications));
    }
  }

  /** The instances whose next attempt (`nextToAttempt`) is due at `now`, with that notification. */
  dueAttempts(now: number): IterableIterator<DueAttempt> {
    return this.attempts.due(now);
  }

  /** When the earliest next attempt that is not due yet falls due (infinite: none). */
  nextAttemptAfterDue(): number {
    return this.attempts.nextAfterDue();
  }
}
