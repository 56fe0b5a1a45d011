import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { PersonalData } from '@gw/application';
import type { InstancesQuery } from '@gw/projections';
import { ReadModelsService } from '../../read-models/read-models.service';
import { InstanceAuthenticator } from '../../webhooks/instance-authenticator';
import { InstanceNotifications } from '../instance-notifications';
import { GetNotificationsQuery, type NotificationsResult } from './get-notifications.query';

/** docs/api.md 8.7: the notifications after `after`, ascending, with the bodies that are or were
 * POSTed (personal fields opened, null once erased); an expired instance may read its past too. */
@QueryHandler(GetNotificationsQuery)
export class GetNotificationsHandler implements IQueryHandler<GetNotificationsQuery, NotificationsResult> {
  constructor(
    private readonly readModels: ReadModelsService,
    private readonly auth: InstanceAuthenticator,
    private readonly notifications: InstanceNotifications,
    private readonly personalData: PersonalData,
  ) {}

  async execute({ instanceId, token, after, limit }: GetNotificationsQuery): Promise<NotificationsResult> {
    const instances: InstancesQuery = await this.readModels.current();
    this.auth.authenticate(instanceId, token, instances.findInstance(instanceId)?.tokenHash);
    const notifications = await this.notifications.read(instanceId);
    const records = await notifications.between(after + 1, Number.POSITIVE_INFINITY, limit);
    return {
      lastSequence: notifications.lastSequence,
      // Opened here, on the way out, as the notifier opens them right before POSTing: the stream
      // holds them sealed, and an erased field shows as null.
      notifications: await Promise.all(records.map(async (n) => ({ ...n, body: await this.personalData.openBody(n.body, null) }))),
    };
  }
}
