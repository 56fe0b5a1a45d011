import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { InstancesQuery } from '@gw/projections';
import { ReadModelsService } from '../../read-models/read-models.service';
import { InstanceAuthenticator } from '../../webhooks/instance-authenticator';
import { InstanceNotifications } from '../instance-notifications';
import { GetNotificationsQuery, type NotificationsResult } from './get-notifications.query';

/** docs/api.md 8.7: the notifications after `after`, ascending, with the bodies that are or were
 * POSTed; an expired instance may read its past too. */
@QueryHandler(GetNotificationsQuery)
export class GetNotificationsHandler implements IQueryHandler<GetNotificationsQuery, NotificationsResult> {
  constructor(
    private readonly readModels: ReadModelsService,
    private readonly auth: InstanceAuthenticator,
    private readonly notifications: InstanceNotifications,
  ) {}

  async execute({ instanceId, token, after, limit }: GetNotificationsQuery): Promise<NotificationsResult> {
    const instances: InstancesQuery = await this.readModels.current();
    this.auth.authenticate(instanceId, token, instances.findInstance(instanceId)?.tokenHash);
    const history = await this.notifications.history(instanceId);
    return {
      lastSequence: history.length === 0 ? 0 : history[history.length - 1].sequence,
      notifications: history.filter((n) => n.sequence > after).slice(0, limit),
    };
  }
}
