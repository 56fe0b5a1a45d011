import { Query } from '@nestjs/cqrs';
import type { NotificationKind } from '@gw/domain-instances';
import type { EndpointHealth } from '@gw/projections';
import type { ReceiverOptionsFields } from '../receiver-options-fields';

export class GetWebhookStatusQuery extends Query<WebhookStatusResult> {
  constructor(
    readonly instanceId: string,
    readonly token: string,
  ) {
    super();
  }
}

export interface WebhookStatusResult extends ReceiverOptionsFields {
  webhookUrl: string;
  enabled: boolean;
  instanceStatus: 'active' | 'expired';
  /** The kinds notified (docs/api.md 8.4), in canonical order; kept while no URL is registered. */
  events: NotificationKind[];
  disabledReason?: string;
  signingSecret?: string;
  /** How the receiver has answered lately (section 12). */
  health: EndpointHealth;
}
