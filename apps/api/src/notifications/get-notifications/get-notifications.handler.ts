import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { PersonalData } from '@gw/application';
import type { InstancesQuery } from '@gw/projections';
import { ReadModelsService } from '../../read-models/read-models.service';
import { InstanceAuthenticator } from '../../webhooks/instance-authenticator';
import { InstanceNotifications } from '../instance-notifications';
import { GetNotificationsQuery, type NotificationsResult } from './get-notifications.query';

/** The most bytes a page's JSON takes (docs/api.md 8.7 and section 11). */
const MAX_PAGE_BYTES = 1024 * 1024;

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
    const { lastSequence } = notifications;
    const page: NotificationsResult['notifications'] = [];
    let bytes = Buffer.byteLength(JSON.stringify({ success: true, lastSequence, notifications: [] }));
    for await (const record of notifications.withBodies(after + 1, limit)) {
      // Opened here, on the way out, as the notifier opens them right before POSTing: the stream
      // holds them sealed, and an erased field shows as null.
      const opened = { ...record, body: await this.personalData.openBody(record.body, null) };
      // Joined to the one before it by a comma.
      const size = Buffer.byteLength(JSON.stringify(opened)) + (page.length > 0 ? 1 : 0);
      // Bounded in bytes, not only in count (docs/api.md section 11): the first always fits.
      if (page.length > 0 && bytes + size > MAX_PAGE_BYTES) break;
      page.push(opened);
      bytes += size;
    }
    return { lastSequence, notifications: page };
  }
}
