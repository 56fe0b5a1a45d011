import { Query } from '@nestjs/cqrs';
import type { WebhookSettings } from '../webhook-settings';

export class GetWebhookStatusQuery extends Query<WebhookStatusResult> {
  constructor(
    readonly instanceId: string,
    readonly token: string,
  ) {
    super();
  }
}

export interface WebhookStatusResult extends WebhookSettings {
  webhookUrl: string;
  enabled: boolean;
  instanceStatus: 'active' | 'expired';
  disabledReason?: string;
}
