import { Query } from '@nestjs/cqrs';
import type { ConnectionState, NotificationKind } from '@gw/domain-instances';

/** What a page asks for (docs/api.md 13.1); absent fields are not asked. */
export interface ListInstancesPage {
  limit?: number;
  after?: string;
  status?: 'active' | 'expired';
  label?: string;
}

export class ListInstancesQuery extends Query<ListInstancesResult> {
  constructor(
    readonly email: string,
    readonly apiKey: string,
    readonly page: ListInstancesPage = {},
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
  /** The owner's label (13.1), null when none. */
  label: string | null;
  /** The connection state last reported (13.2), null before any. */
  state: ConnectionState | null;
}

export interface ListInstancesResult {
  instances: InstanceSummary[];
  /** The last instanceid of this page when more remain, else null (13.4). */
  next: string | null;
}
