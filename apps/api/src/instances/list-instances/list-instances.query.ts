import { Query } from '@nestjs/cqrs';
import type { NotificationKind } from '@gw/domain-instances';

export class ListInstancesQuery extends Query<ListInstancesResult> {
  constructor(
    readonly email: string,
    readonly apiKey: string,
  ) {
    super();
  }
}

export interface InstanceSummary {
  instanceid: string;
  packageid: string;
  createdAt: string;
  expiresAt: string;
  status: 'active' | 'expired';
  webhookUrl: string;
  webhookEnabled: boolean;
  /** The kinds notified (docs/api.md 8.4), in canonical order. */
  events: NotificationKind[];
  signingSecret?: string;
}

export interface ListInstancesResult {
  instances: InstanceSummary[];
}
