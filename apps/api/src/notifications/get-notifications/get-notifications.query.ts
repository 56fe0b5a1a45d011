import { Query } from '@nestjs/cqrs';
import type { OpenedBody } from '@gw/application';
import type { NotificationRecord } from '@gw/domain-notifications';

export class GetNotificationsQuery extends Query<NotificationsResult> {
  constructor(
    readonly instanceId: string,
    readonly token: string,
    readonly after: number,
    readonly limit: number,
  ) {
    super();
  }
}

/** docs/api.md 8.7: bodies as POSTed, an erased personal field as null (section 9). */
export interface NotificationsResult {
  lastSequence: number;
  notifications: Array<Omit<NotificationRecord, 'body'> & { body: OpenedBody<null> }>;
}
