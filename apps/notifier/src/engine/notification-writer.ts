import { setTimeout as sleep } from 'node:timers/promises';
import { notificationsAggregate, type StateCache } from '@gw/application';
import type { NotificationCommand, NotificationEvent, NotificationsState } from '@gw/domain-notifications';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { retryDelayMs } from '@gw/process';
import type { NotifierModel } from './notifier-model';

/** The notifier is stopping; work that would need the store is abandoned (and redone after a restart). */
export class Stopping extends Error {
  constructor() {
    super('the notifier is stopping');
    this.name = 'Stopping';
  }
}

/**
 * Decides notification commands against the model's state of an instance's notifications and
 * appends the result at the revision that state came from (handleCommand, with the model as a
 * trusted cache: this process is the streams' usual writer). Commands for one instance run one
 * after the other, so that this process never conflicts with itself; commands for different
 * instances run side by side and the store commits them together. A concurrent writer (the API's
 * redeliver or an operator's resend, say) makes it fold that writer's events into the model (read
 * from the model's revision on; the whole stream only for a view without a position, restored from a
 * snapshot of an earlier version) and decide again; an outage
 * makes it wait and retry, since an outcome that is not recorded would be attempted again.
 */
export class NotificationWriter {
  /** The last command queued per instance; the next one starts when it has settled. */
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: EventStore,
    private readonly model: NotifierModel,
    private readonly logger: Logger,
    private readonly signal: AbortSignal,
  ) {}

  run(instanceId: string, command: NotificationCommand): Promise<NotificationEvent[]> {
    // A tail never rejects, so a failed command does not stop the ones queued after it.
    const result = (this.tails.get(instanceId) ?? Promise.resolve()).then(() =>
      this.decideAndAppend(instanceId, command),
    );
    const tail = result.catch(() => undefined);
    this.tails.set(instanceId, tail);
    void tail.then(() => {
      if (this.tails.get(instanceId) === tail) this.tails.delete(instanceId);
    });
    return result;
  }

  private async decideAndAppend(instanceId: string, command: NotificationCommand): Promise<NotificationEvent[]> {
    const { events } = await notificationsAggregate.handle(
      this.store,
      instanceId,
      () => {
        if (this.signal.aborted) throw new Stopping();
        return this.labelled(instanceId, command);
      },
      {
        cache: this.modelOf(instanceId),
        // Other writers (the API's redeliver and test attempts, an operator's resend) append one
        // command's events at a time; the notifier catches up with them and never gives up.
        conflictRetries: Number.POSITIVE_INFINITY,
        onUnavailable: async (error, attempt) => {
          if (this.signal.aborted) throw new Stopping();
          this.logger.warn('store unavailable while recording a notification; retrying', { instanceId, error });
          await sleep(retryDelayMs(attempt), undefined, { signal: this.signal }).catch(() => undefined);
        },
      },
    );
    return events;
  }

  /** New notifications carry the instance's label as the model knows it now (docs/api.md 13.1). */
  private labelled(instanceId: string, command: NotificationCommand): NotificationCommand {
    if (command.type !== 'CreateNotifications') return command;
    const instance = this.model.instance(instanceId);
    const label = instance.status === 'created' ? instance.label : null;
    return { ...command, data: { ...command.data, label } };
  }

  private modelOf(instanceId: string): StateCache<NotificationsState> {
    const model = this.model;
    return {
      trusted: true,
      get: () => model.notificationsOf(instanceId),
      set: (_streamName, loaded) => model.adoptNotifications(instanceId, loaded),
    };
  }
}
