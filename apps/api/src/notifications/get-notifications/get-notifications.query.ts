import type { NotificationRecord } from '@gw/domain-notifications';

export class GetNotificationsQuery {
  constructor(
    readonly instanceId: string,
    readonly token: string,
    readonly after: number,
    readonly limit: number,
  ) {}
}

/** docs/api.md 8.7. */
export interface NotificationsResult {
  lastSequence: number;
  notifications: NotificationRecord[];
}
