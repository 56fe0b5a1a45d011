import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { SecretBox } from '@gw/application';
import { Codes, Refusal } from '@gw/contract';
import { deliveryEnabled, instanceStatus } from '@gw/domain-instances';
import type { InstanceRow, InstancesQuery } from '@gw/projections';
import { AccountAuthenticator } from '../../accounts/account-authenticator';
import { ReadModelsService } from '../../read-models/read-models.service';
import { Clock } from '../../shared/clock';
import { signingSecretField } from '../../webhooks/signing-secret';
import { ListInstancesQuery, type InstanceSummary, type ListInstancesResult } from './list-instances.query';

@QueryHandler(ListInstancesQuery)
export class ListInstancesHandler implements IQueryHandler<ListInstancesQuery, ListInstancesResult> {
  constructor(
    private readonly accounts: AccountAuthenticator,
    private readonly readModels: ReadModelsService,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
  ) {}

  async execute({ email, apiKey, page }: ListInstancesQuery): Promise<ListInstancesResult> {
    const accountId = await this.accounts.authenticate(email, apiKey);
    const instances: InstancesQuery = await this.readModels.current();
    const now = this.clock.now();
    let after: InstanceRow | undefined;
    if (page.after !== undefined) {
      after = instances.findInstance(page.after);
      // Another account's instance, or a deleted one, is no instance of this account (13.1).
      if (after?.accountId !== accountId)
        throw new Refusal([
          { code: Codes.NoSuchInstance, field: 'after', message: 'no such instance in this account' },
        ]);
    }
    // One row more than the page tells whether more remain, without counting them.
    const rows = instances.pageInstances(accountId, {
      after,
      limit: page.limit === undefined ? undefined : page.limit + 1,
      label: page.label,
      status: page.status,
      now,
    });
    const more = page.limit !== undefined && rows.length > page.limit;
    const shown = more ? rows.slice(0, page.limit) : rows;
    return {
      instances: shown.map((row) => this.summary(row, now)),
      next: more ? shown[shown.length - 1].instanceId : null,
    };
  }

  private summary(row: InstanceRow, now: string): InstanceSummary {
    return {
      instanceid: row.instanceId,
      packageid: row.packageId,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      status: instanceStatus(row.expiresAt, now),
      webhookUrl: row.webhookUrl,
      webhookEnabled: deliveryEnabled(row, now),
      events: row.events,
      ...signingSecretField(this.secrets, row.encryptedSigningSecret),
      label: row.label,
      state: row.connectionState,
    };
  }
}
