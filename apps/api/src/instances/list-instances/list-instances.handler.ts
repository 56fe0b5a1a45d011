import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { SecretBox } from '@gw/application';
import { deliveryEnabled, instanceStatus } from '@gw/domain-instances';
import type { InstancesQuery } from '@gw/projections';
import { AccountAuthenticator } from '../../accounts/account-authenticator';
import { ReadModelsService } from '../../read-models/read-models.service';
import { Clock } from '../../shared/clock';
import { signingSecretField } from '../../webhooks/signing-secret';
import { ListInstancesQuery, type ListInstancesResult } from './list-instances.query';

@QueryHandler(ListInstancesQuery)
export class ListInstancesHandler implements IQueryHandler<ListInstancesQuery, ListInstancesResult> {
  constructor(
    private readonly accounts: AccountAuthenticator,
    private readonly readModels: ReadModelsService,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
  ) {}

  async execute({ email, apiKey }: ListInstancesQuery): Promise<ListInstancesResult> {
    const accountId = await this.accounts.authenticate(email, apiKey);
    const instances: InstancesQuery = await this.readModels.current();
    const now = this.clock.now();
    return {
      instances: instances.listInstances(accountId).map((row) => ({
        instanceid: row.instanceId,
        packageid: row.packageId,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt,
        status: instanceStatus(row.expiresAt, now),
        webhookUrl: row.webhookUrl,
        webhookEnabled: deliveryEnabled({ status: 'created', ...row }, now),
        events: row.events,
        ...signingSecretField(this.secrets, row.encryptedSigningSecret),
      })),
    };
  }
}
