import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { InstancesQuery, WebhookLogsQuery } from '@gw/projections';
import { ReadModelsService } from '../../read-models/read-models.service';
import { InstanceAuthenticator } from '../instance-authenticator';
import { GetWebhookLogsQuery, type WebhookLogsResult } from './get-webhook-logs.query';

/** docs/api.md 4.8: the latest delivery attempts, newest first. */
@QueryHandler(GetWebhookLogsQuery)
export class GetWebhookLogsHandler implements IQueryHandler<GetWebhookLogsQuery, WebhookLogsResult> {
  constructor(
    private readonly readModels: ReadModelsService,
    private readonly auth: InstanceAuthenticator,
  ) {}

  async execute({ instanceId, token, limit }: GetWebhookLogsQuery): Promise<WebhookLogsResult> {
    const models: InstancesQuery & WebhookLogsQuery = await this.readModels.current();
    this.auth.authenticate(instanceId, token, models.findInstance(instanceId)?.tokenHash);
    return { attempts: models.latestAttempts(instanceId, limit) };
  }
}
