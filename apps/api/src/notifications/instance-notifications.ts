import { Inject, Injectable } from '@nestjs/common';
import { isNotificationEvent, notificationHistory, notificationsStreamName, type NotificationEvent, type NotificationRecord } from '@gw/domain-notifications';
import type { EventStore } from '@gw/event-store';
import { EVENT_STORE } from '../shared/tokens';

/**
 * An instance's notifications read from its notifications stream, per request (docs/api.md 8.7, 8.8).
 * Not a read model: bodies are most of the log, and projecting them would slow every rebuild of the
 * API's read models for the sake of one instance's history, which its own stream holds already. A
 * read costs that instance's history, never the log's, and is as current as the store itself, on any
 * replica and after any restart.
 */
@Injectable()
export class InstanceNotifications {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** Every notification of the instance, in sequence order. */
  async history(instanceId: string): Promise<NotificationRecord[]> {
    const events = await this.store.readStream(notificationsStreamName(instanceId));
    const typed: NotificationEvent[] = [];
    for (const { type, data } of events) {
      const event = { type, data };
      if (isNotificationEvent(event)) typed.push(event);
    }
    return notificationHistory(typed);
  }
}
