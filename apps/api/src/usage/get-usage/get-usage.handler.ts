import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { Codes, Refusal } from '@gw/contract';
import type { InstancesQuery, UsageQuery } from '@gw/projections';
import { AccountAuthenticator } from '../../accounts/account-authenticator';
import { ReadModelsService } from '../../read-models/read-models.service';
import { Clock } from '../../shared/clock';
import { GetUsageQuery, type UsageCounts, type UsageResult } from './get-usage.query';
import { addDays, daysBetween, DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS } from './usage-dates';

/** docs/api.md 13.3: the account's counts per instance and UTC day, from the usage read model. */
@QueryHandler(GetUsageQuery)
export class GetUsageHandler implements IQueryHandler<GetUsageQuery, UsageResult> {
  constructor(
    private readonly accounts: AccountAuthenticator,
    private readonly readModels: ReadModelsService,
    private readonly clock: Clock,
  ) {}

  async execute(query: GetUsageQuery): Promise<UsageResult> {
    const accountId = await this.accounts.authenticate(query.email, query.apiKey);
    const { from, to } = this.range(query);
    const models: UsageQuery & InstancesQuery = await this.readModels.current();
    const { instanceId } = query;
    if (instanceId !== undefined && models.findInstance(instanceId)?.accountId !== accountId)
      throw new Refusal([
        { code: Codes.NoSuchInstance, field: 'instanceid', message: 'no such instance in this account' },
      ]);
    const totals: UsageCounts = { messages: 0, acks: 0, notificationsDelivered: 0, attemptsFailed: 0 };
    const usage = models.usage(accountId, from, to, instanceId).map(({ instanceId, day, ...counts }) => {
      totals.messages += counts.messages;
      totals.acks += counts.acks;
      totals.notificationsDelivered += counts.notificationsDelivered;
      totals.attemptsFailed += counts.attemptsFailed;
      return { instanceid: instanceId, day, ...counts };
    });
    return { from, to, usage, totals };
  }

  /** The days asked for: by default the last DEFAULT_USAGE_DAYS through today (UTC). A range that
   * runs to today from `from` alone is checked here, where today is known. */
  private range({ from, to }: GetUsageQuery): { from: string; to: string } {
    const end = to ?? this.clock.now().slice(0, 10);
    const start = from ?? addDays(end, 1 - DEFAULT_USAGE_DAYS);
    const days = daysBetween(start, end);
    if (days < 1 || days > MAX_USAGE_DAYS)
      throw new Refusal([
        {
          code: Codes.MalformedParameter,
          field: 'from',
          message: `from must not be after today, and the range at most ${MAX_USAGE_DAYS} days`,
        },
      ]);
    return { from: start, to: end };
  }
}
