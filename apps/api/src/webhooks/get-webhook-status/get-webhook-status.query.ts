import { Query } from '@nestjs/cqrs';
import type { NotificationKind } from '@gw/domain-instances';

export class GetWebhookStatusQuery extends Query<WebhookStatusResult> {
  constructor(
    readonly instanceId: string,
    readonly token: string,
  ) {
    super();
  }
}

export interface WebhookStatusResult {
  webhookUrl: string;
  enabled: boolean;
  instanceStatus: 'active' | 'expired';
  /** The kinds notified (docs/api.md 8.4), in canonical order; kept while no URL is registered. */
  events: NotificationKind[];
  disabledReason?: string;
  signingSecret?: string;
}
