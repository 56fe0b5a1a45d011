import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { SecretBox } from '@gw/application';
import { deliveryEnabled, instanceStatus } from '@gw/domain-instances';
import type { ReadModels } from '@gw/projections';
import { ReadModelsService } from '../../read-models/read-models.service';
import { Clock } from '../../shared/clock';
import { InstanceAuthenticator } from '../instance-authenticator';
import { receiverOptionsFields } from '../receiver-options-fields';
import { signingSecretField } from '../signing-secret';
import { GetWebhookStatusQuery, type WebhookStatusResult } from './get-webhook-status.query';

@QueryHandler(GetWebhookStatusQuery)
export class GetWebhookStatusHandler implements IQueryHandler<GetWebhookStatusQuery, WebhookStatusResult> {
  constructor(
    private readonly readModels: ReadModelsService,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
    private readonly auth: InstanceAuthenticator,
  ) {}

  async execute({ instanceId, token }: GetWebhookStatusQuery): Promise<WebhookStatusResult> {
    const instances: ReadModels = await this.readModels.current();
    const row = instances.findInstance(instanceId);
    this.auth.authenticate(instanceId, token, row?.tokenHash);
    if (!row) throw new Error('unreachable: authentication passed without an instance');
    const now = this.clock.now();
    return {
      webhookUrl: row.webhookUrl,
      enabled: deliveryEnabled(row, now),
      instanceStatus: instanceStatus(row.expiresAt, now),
      events: row.events,
      ...(row.disabledReason ? { disabledReason: row.disabledReason } : {}),
      ...signingSecretField(this.secrets, row.encryptedSigningSecret),
      ...receiverOptionsFields(row),
      health: instances.endpointHealth(instanceId),
    };
  }
}
