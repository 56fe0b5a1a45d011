import { setTimeout as sleep } from 'node:timers/promises';
import { nameBasedId, newEventId } from '@gw/application';
import { fold } from '@gw/domain-core';
import {
  notificationsDecider,
  notificationsStreamName,
  type NotificationCommand,
  type NotificationEvent,
} from '@gw/domain-notifications';
import { EventStoreUnavailableError, WrongExpectedRevisionError, type EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
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
 * appends the result at the revision that state came from. Commands for one instance run one after
 * the other, so that this process never conflicts with itself; commands for different instances run
 * side by side and the store commits them together. A concurrent writer (an operator's resend, say)
 * makes it reload the stream and decide again; an outage makes it wait and retry, since an outcome
 * that is not recorded would be attempted again.
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
    const result = (this.tails.get(instanceId) ?? Promise.resolve()).then(() => this.decideAndAppend(instanceId, command));
    const tail = result.catch(() => undefined);
    this.tails.set(instanceId, tail);
    void tail.then(() => {
      if (this.tails.get(instanceId) === tail) this.tails.delete(instanceId);
    });
    return result;
  }

  private async decideAndAppend(instanceId: string, command: NotificationCommand): Promise<NotificationEvent[]> {
    const streamName = notificationsStreamName(instanceId);
    for (let attempt = 0; ; attempt++) {
      if (this.signal.aborted) throw new Stopping();
      const view = this.model.notificationsOf(instanceId);
      const events = notificationsDecider.decide(command, view.state);
      if (events.length === 0) return [];
      try {
        const written = await this.store.append(
          streamName,
          events.map((e) => ({ id: eventIdOf(e), type: e.type, data: e.data })),
          view.revision < 0n ? 'no_stream' : view.revision,
        );
        if (written.nextExpectedRevision !== view.revision + BigInt(events.length)) {
          // An idempotent retry of events stored before: the stream is the truth, not our decision.
          await this.reload(instanceId);
          return [];
        }
        this.model.applyNotificationEvents(instanceId, events, written.nextExpectedRevision);
        return events;
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) {
          await this.reload(instanceId);
          continue;
        }
        if (!(error instanceof EventStoreUnavailableError)) throw error;
        this.logger.warn('store unavailable while recording a notification; retrying', { instanceId, error });
        await sleep(Math.min(5000, 100 * 2 ** Math.min(attempt, 6)), undefined, { signal: this.signal }).catch(() => undefined);
      }
    }
  }

  /** Replaces the model's view of an instance's notifications with the stream as stored. */
  async reload(instanceId: string): Promise<void> {
    const history = await this.store.readStream(notificationsStreamName(instanceId));
    const state = fold(notificationsDecider, history.map((e) => ({ type: e.type, data: e.data }) as NotificationEvent));
    this.model.replaceNotifications(instanceId, { state, revision: history.length ? history[history.length - 1].revision : -1n });
  }
}

/** A notification is created once: its creation has an id derived from its webhook id, so that a
 * creation retried after a crash is stored once. */
function eventIdOf(event: NotificationEvent): string {
  return event.type === 'NotificationCreated' ? nameBasedId(`notification-created|${event.data.webhookId}`) : newEventId();
}
