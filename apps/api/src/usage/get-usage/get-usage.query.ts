import { Query } from '@nestjs/cqrs';

/** docs/api.md 13.3. */
export class GetUsageQuery extends Query<UsageResult> {
  constructor(
    readonly email: string,
    readonly apiKey: string,
    readonly from: string | undefined,
    readonly to: string | undefined,
    readonly instanceId?: string,
  ) {
    super();
  }
}

export interface UsageCounts {
  messages: number;
  acks: number;
  notificationsDelivered: number;
  attemptsFailed: number;
}

export interface UsageDay extends UsageCounts {
  instanceid: string;
  day: string;
}

export interface UsageResult {
  /** The UTC days answered for, both included. */
  from: string;
  to: string;
  usage: UsageDay[];
  totals: UsageCounts;
}
